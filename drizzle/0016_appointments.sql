CREATE TABLE `appointments` (
	`id` text PRIMARY KEY NOT NULL,
	`queue_unit_id` text NOT NULL,
	`location_id` text NOT NULL,
	`service_id` text NOT NULL,
	`start_at` integer NOT NULL,
	`end_at` integer NOT NULL,
	`local_date` text NOT NULL,
	`code` text NOT NULL,
	`status` text NOT NULL,
	`name` text,
	`phone` text,
	`email` text,
	`dedupe_key` text,
	`ticket_id` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`checked_in_at` integer,
	`cancelled_at` integer,
	`missed_at` integer,
	`erased_at` integer,
	FOREIGN KEY (`queue_unit_id`) REFERENCES `queue_units`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `appointments_code` ON `appointments` (`code`);--> statement-breakpoint
CREATE INDEX `appointments_slot` ON `appointments` (`service_id`,`location_id`,`start_at`,`status`);--> statement-breakpoint
CREATE INDEX `appointments_day` ON `appointments` (`location_id`,`local_date`);--> statement-breakpoint
CREATE INDEX `appointments_status_start` ON `appointments` (`status`,`start_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `appointments_dedupe` ON `appointments` (`dedupe_key`);--> statement-breakpoint
ALTER TABLE `services` ADD `appointments` text;--> statement-breakpoint
ALTER TABLE `tickets` ADD `appointment_id` text;--> statement-breakpoint
ALTER TABLE `tickets` ADD `appointment_start_at` integer;