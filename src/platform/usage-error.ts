/** A bad flag or file: one line on stderr, exit 2, nothing half-applied (the CLI's commands and the options they parse). */
export class UsageError extends Error {}
