CREATE TABLE `hq_applied` (
	`queue_unit_id` text PRIMARY KEY NOT NULL,
	`profile_id` text,
	`profile_name` text,
	`revision` integer,
	`content` text,
	`applied_at` integer,
	`error_revision` integer,
	`error` text,
	`error_at` integer,
	`reported` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL
);
