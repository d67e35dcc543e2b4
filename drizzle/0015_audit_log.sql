CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`entity_type` text NOT NULL,
	`entity_id` text NOT NULL,
	`before` text,
	`after` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_by_time` ON `audit_log` (`at`);--> statement-breakpoint
CREATE INDEX `audit_log_by_entity` ON `audit_log` (`entity_type`,`entity_id`);