CREATE TABLE `devices` (
	`credential_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`workspace_id` text NOT NULL,
	`queue_unit_id` text,
	`location_id` text,
	`counter_id` text,
	`services` text,
	`paired_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `devices_name` ON `devices` (`name`);--> statement-breakpoint
CREATE TABLE `pairing_codes` (
	`code` text PRIMARY KEY NOT NULL,
	`role` text NOT NULL,
	`workspace_id` text NOT NULL,
	`queue_unit_id` text,
	`location_id` text,
	`counter_id` text,
	`services` text,
	`name` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `counters` ADD `active` integer DEFAULT true NOT NULL;