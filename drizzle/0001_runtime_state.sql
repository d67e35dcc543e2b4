CREATE TABLE `widget_snapshots` (
	`widget_id` text PRIMARY KEY NOT NULL,
	`data_revision` integer NOT NULL,
	`last_sequence` integer,
	`schema_version` integer NOT NULL,
	`item_count` integer NOT NULL,
	`data` text NOT NULL,
	`accepted_at` integer NOT NULL,
	FOREIGN KEY (`widget_id`) REFERENCES `widgets`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `prayer_months` (
	`source_id` text NOT NULL,
	`period` text NOT NULL,
	`revision` integer NOT NULL,
	`checksum` text NOT NULL,
	`body` text NOT NULL,
	`day_count` integer NOT NULL,
	`stored_at` integer NOT NULL,
	PRIMARY KEY(`source_id`, `period`),
	FOREIGN KEY (`source_id`) REFERENCES `prayer_sources`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `service_stats` (
	`service_id` text NOT NULL,
	`location_id` text NOT NULL,
	`waiting` integer DEFAULT 0 NOT NULL,
	`avg_service_seconds` integer,
	`now_serving_ticket_id` text,
	PRIMARY KEY(`service_id`, `location_id`)
);
--> statement-breakpoint
CREATE TABLE `ticket_sequences` (
	`location_id` text NOT NULL,
	`prefix` text NOT NULL,
	`business_day` text NOT NULL,
	`last_seq` integer NOT NULL,
	PRIMARY KEY(`location_id`, `prefix`, `business_day`)
);
--> statement-breakpoint
CREATE TABLE `tickets` (
	`id` text PRIMARY KEY NOT NULL,
	`queue_unit_id` text NOT NULL,
	`location_id` text NOT NULL,
	`service_id` text NOT NULL,
	`prefix` text NOT NULL,
	`business_day` text NOT NULL,
	`seq` integer NOT NULL,
	`ticket_number` text NOT NULL,
	`status` text NOT NULL,
	`source` text NOT NULL,
	`external_reference` text,
	`credential_id` text,
	`counter_id` text,
	`call_count` integer DEFAULT 0 NOT NULL,
	`queue_rank` integer NOT NULL,
	`created_at` integer NOT NULL,
	`called_at` integer,
	`serving_at` integer,
	`completed_at` integer,
	FOREIGN KEY (`queue_unit_id`) REFERENCES `queue_units`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_number_per_day` ON `tickets` (`location_id`,`prefix`,`business_day`,`seq`);--> statement-breakpoint
CREATE INDEX `tickets_waiting_line` ON `tickets` (`service_id`,`location_id`,`status`,`queue_rank`);--> statement-breakpoint
CREATE INDEX `tickets_open_by_status` ON `tickets` (`status`,`location_id`);--> statement-breakpoint
CREATE TABLE `ticket_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket_id` text NOT NULL,
	`type` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`counter_id` text,
	`actor` text NOT NULL,
	`at` integer NOT NULL,
	`detail` text
);
--> statement-breakpoint
CREATE INDEX `ticket_events_ticket` ON `ticket_events` (`ticket_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`webhook_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`event_type` text NOT NULL,
	`body` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`delivered_at` integer,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_ticket` ON `webhook_deliveries` (`webhook_id`,`ticket_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `idempotency_records` (
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer NOT NULL,
	`body` text NOT NULL,
	`headers` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`scope`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_expiry` ON `idempotency_records` (`expires_at`);