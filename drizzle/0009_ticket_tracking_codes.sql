ALTER TABLE `tickets` ADD `tracking_code` text;--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_tracking_code` ON `tickets` (`tracking_code`);