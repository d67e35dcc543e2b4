CREATE TABLE `sign_in_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`address` text DEFAULT 'unknown' NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sign_in_failures_username_at` ON `sign_in_failures` (`username`,`at`);--> statement-breakpoint
CREATE INDEX `sign_in_failures_address_at` ON `sign_in_failures` (`address`,`at`);--> statement-breakpoint
CREATE INDEX `sign_in_failures_at` ON `sign_in_failures` (`at`);--> statement-breakpoint
CREATE TABLE `user_sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `user_sessions_user` ON `user_sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `user_setup_codes` (
	`code_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `user_setup_codes_user` ON `user_setup_codes` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`username` text NOT NULL,
	`display_name` text NOT NULL,
	`role` text NOT NULL,
	`queue_units` text DEFAULT '[]' NOT NULL,
	`state` text DEFAULT 'active' NOT NULL,
	`password_hash` text,
	`pin_hash` text,
	`created_at` integer NOT NULL,
	`password_set_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username` ON `users` (`username`);