import { sqliteTable, text, integer, blob, primaryKey } from 'drizzle-orm/sqlite-core'

/**
 * Recorded voice clips for spoken calls (contract §11), per language: `ticket`,
 * `please-go-to`, `0`…`9`, `A`…`Z` and `counter-<counterId>`. Imported by `lobby voice import`
 * and served to queue boards; the bytes live in the database so a backup carries them.
 */
export const voiceClips = sqliteTable(
  'voice_clips',
  {
    /** Canonical BCP 47 tag given at import (`ar`, `ar-EG`). */
    lang: text('lang').notNull(),
    name: text('name').notNull(),
    contentType: text('content_type', { enum: ['audio/wav', 'audio/mpeg', 'audio/ogg'] }).notNull(),
    audio: blob('audio', { mode: 'buffer' }).notNull(),
    /** SHA-256 of the bytes (hex): the clip's version in its URL and its ETag. */
    sha256: text('sha256').notNull(),
    importedAt: integer('imported_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.lang, t.name] })],
)
