ALTER TABLE `locations` ADD `names` text;--> statement-breakpoint
ALTER TABLE `locations` ADD `opening_hours` text;--> statement-breakpoint
ALTER TABLE `locations` ADD `closed_dates` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `locations` ADD `last_ticket_minutes_before_close` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `queue_units` ADD `names` text;--> statement-breakpoint
ALTER TABLE `queue_units` ADD `default_language` text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE `queue_units` ADD `languages` text DEFAULT '["en"]' NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `names` text;--> statement-breakpoint
ALTER TABLE `services` ADD `opening_hours` text;--> statement-breakpoint
ALTER TABLE `counters` ADD `names` text;--> statement-breakpoint
ALTER TABLE `tickets` ADD `language` text;