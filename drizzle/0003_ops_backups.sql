CREATE TABLE `ops_backups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`path` text NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer NOT NULL
);
