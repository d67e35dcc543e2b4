DROP INDEX `tickets_open_by_status`;--> statement-breakpoint
CREATE INDEX `tickets_open_by_status` ON `tickets` (`status`,`location_id`,`queue_rank`);