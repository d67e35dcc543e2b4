CREATE TABLE `voice_clips` (
	`lang` text NOT NULL,
	`name` text NOT NULL,
	`content_type` text NOT NULL,
	`audio` blob NOT NULL,
	`sha256` text NOT NULL,
	`imported_at` integer NOT NULL,
	PRIMARY KEY(`lang`, `name`)
);
