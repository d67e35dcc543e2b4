CREATE TABLE `counter_call_streaks` (
	`counter_id` text PRIMARY KEY NOT NULL,
	`normal_calls` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX `tickets_waiting_line`;--> statement-breakpoint
ALTER TABLE `tickets` ADD `priority` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `tickets` ADD `front` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `tickets_waiting_line` ON `tickets` (`service_id`,`location_id`,`status`,`front`,`priority`,`queue_rank`);--> statement-breakpoint
ALTER TABLE `queue_units` ADD `priority_mode` text DEFAULT 'FIRST' NOT NULL;--> statement-breakpoint
ALTER TABLE `queue_units` ADD `normal_per_priority` integer;--> statement-breakpoint
ALTER TABLE `queue_units` ADD `kiosk_priority` integer DEFAULT false NOT NULL;