CREATE TABLE `report_staff_daily` (
	`username` text NOT NULL,
	`business_day` text NOT NULL,
	`queue_unit_id` text NOT NULL,
	`served` integer DEFAULT 0 NOT NULL,
	`no_show` integer DEFAULT 0 NOT NULL,
	`service_count` integer DEFAULT 0 NOT NULL,
	`service_sum` integer DEFAULT 0 NOT NULL,
	`service_p50` integer,
	`service_p90` integer,
	PRIMARY KEY(`username`, `queue_unit_id`, `business_day`)
);
--> statement-breakpoint
CREATE INDEX `report_staff_daily_unit_day` ON `report_staff_daily` (`queue_unit_id`,`business_day`);--> statement-breakpoint
CREATE TABLE `report_staff_distributions` (
	`username` text NOT NULL,
	`business_day` text NOT NULL,
	`queue_unit_id` text NOT NULL,
	`service_hist` blob,
	PRIMARY KEY(`username`, `queue_unit_id`, `business_day`)
);
--> statement-breakpoint
CREATE TABLE `staff_intervals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`username` text NOT NULL,
	`queue_unit_id` text NOT NULL,
	`location_id` text NOT NULL,
	`counter_id` text NOT NULL,
	`device_id` text,
	`kind` text NOT NULL,
	`reason` text,
	`business_day` text NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `staff_intervals_open_counter` ON `staff_intervals` (`counter_id`,`ended_at`);--> statement-breakpoint
CREATE INDEX `staff_intervals_open_user` ON `staff_intervals` (`user_id`,`ended_at`);--> statement-breakpoint
CREATE INDEX `staff_intervals_unit_day` ON `staff_intervals` (`queue_unit_id`,`business_day`);--> statement-breakpoint
ALTER TABLE `queue_units` ADD `desk_sign_in` text DEFAULT 'optional' NOT NULL;--> statement-breakpoint
ALTER TABLE `queue_units` ADD `break_reasons` text DEFAULT '["Break","Lunch","Admin work","Other"]' NOT NULL;--> statement-breakpoint
-- Contract §16 attribution: ticket_events.actor becomes `type:id` (src/platform/actor.ts). Part
-- two stored a credential ID, or `system` for the daily close: a paired device's credential
-- becomes `device:<its name>`, the daily close `system:daily-close`, any other ID `key:<ID>`.
UPDATE `ticket_events` SET `actor` = 'device:' || (SELECT `name` FROM `devices` WHERE `devices`.`credential_id` = `ticket_events`.`actor`)
  WHERE `actor` IN (SELECT `credential_id` FROM `devices`);--> statement-breakpoint
UPDATE `ticket_events` SET `actor` = 'system:daily-close' WHERE `actor` = 'system';--> statement-breakpoint
UPDATE `ticket_events` SET `actor` = 'key:' || `actor`
  WHERE `actor` NOT LIKE 'device:%' AND `actor` NOT LIKE 'system:%';
