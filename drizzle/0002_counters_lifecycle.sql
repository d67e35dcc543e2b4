CREATE TABLE `ticket_calls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`queue_unit_id` text NOT NULL,
	`location_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`counter_id` text NOT NULL,
	`business_day` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ticket_calls_unit` ON `ticket_calls` (`queue_unit_id`,`id`);--> statement-breakpoint
CREATE INDEX `ticket_calls_location` ON `ticket_calls` (`location_id`,`business_day`);--> statement-breakpoint
CREATE INDEX `ticket_calls_ticket` ON `ticket_calls` (`ticket_id`,`id`);--> statement-breakpoint
ALTER TABLE `queue_units` ADD `state_revision` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `service_stats` ADD `completed_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `counters` ADD `open_day` text;--> statement-breakpoint
CREATE INDEX `tickets_counter_open` ON `tickets` (`counter_id`,`status`);