CREATE TABLE `notification_contacts` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`channel` text NOT NULL,
	`address` text NOT NULL,
	`p256dh` text,
	`auth` text,
	`language` text NOT NULL,
	`consent_at` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `notification_contacts_ticket` ON `notification_contacts` (`ticket_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `notification_contacts_unique` ON `notification_contacts` (`ticket_id`,`channel`,`address`);--> statement-breakpoint
CREATE TABLE `notification_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`kind` text NOT NULL,
	`channel` text NOT NULL,
	`contact_id` text,
	`ticket_id` text,
	`appointment_id` text,
	`recipient_hash` text,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`calendar` text,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`sent_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_messages_dedupe` ON `notification_messages` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `notification_messages_due` ON `notification_messages` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `notification_messages_ticket` ON `notification_messages` (`ticket_id`,`channel`);--> statement-breakpoint
CREATE INDEX `notification_messages_recent` ON `notification_messages` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notification_messages_recipient` ON `notification_messages` (`recipient_hash`,`created_at`);--> statement-breakpoint
CREATE TABLE `notification_settings` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`settings` text NOT NULL,
	`secrets` text NOT NULL,
	`vapid_public_key` text,
	`vapid_private_key` text,
	`cap_reached_month` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
