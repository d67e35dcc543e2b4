CREATE TABLE `ticket_feedback` (
	`ticket_id` text PRIMARY KEY NOT NULL,
	`queue_unit_id` text NOT NULL,
	`location_id` text NOT NULL,
	`service_id` text NOT NULL,
	`counter_id` text,
	`clerk` text,
	`business_day` text NOT NULL,
	`rating` integer NOT NULL,
	`comment` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ticket_feedback_by_day` ON `ticket_feedback` (`queue_unit_id`,`business_day`);--> statement-breakpoint
ALTER TABLE `locations` ADD `remote_join` text;--> statement-breakpoint
ALTER TABLE `queue_units` ADD `no_show_grace_minutes` integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE `queue_units` ADD `approaching_ahead` integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE `tickets` ADD `transferred_from_service_id` text;--> statement-breakpoint
ALTER TABLE `tickets` ADD `transferred_from_counter_id` text;--> statement-breakpoint
ALTER TABLE `tickets` ADD `transfer_note` text;--> statement-breakpoint
ALTER TABLE `tickets` ADD `more_time_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tickets` ADD `approaching_at` integer;