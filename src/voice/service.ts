import type { Db } from '../db/open'
// Bun's hasher, not node:crypto: importing node:crypto costs ~7 ms of every server start.
import { sha256Hex } from '../platform/idempotency'

/**
 * Spoken calls (contract §11): the clips a branch recorded, per language. A call is said as
 * `ticket`, the ticket number letter by letter and digit by digit, `please-go-to`, then
 * `counter-<counterId>`. This file never sees HTTP; routes.ts serves what it reads.
 */

/** The media types a clip is stored and served as (its Content-Type; the document lists each). */
export const CLIP_TYPES = ['audio/wav', 'audio/mpeg', 'audio/ogg'] as const
export type ClipType = (typeof CLIP_TYPES)[number]

/** A counter ID as provisioning allows it (src/provisioning/model.ts `Id`), in a clip's name. */
const COUNTER_CLIP = /^counter-([A-Za-z0-9_.:-]{1,120})$/
/** The words, digits and letters of contract §11. */
export const WORD_CLIPS = ['ticket', 'please-go-to'] as const
export const DIGIT_CLIPS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'] as const
export const LETTER_CLIPS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('')
/** Without these a language's clips cannot say any call. */
export const REQUIRED_CLIPS: readonly string[] = [...WORD_CLIPS, ...DIGIT_CLIPS]
/** A clip is a word or two: more than this is not a clip (and would bloat every backup). */
export const MAX_CLIP_BYTES = 2 * 1024 * 1024

const EXTENSIONS: Record<string, ClipType> = { wav: 'audio/wav', mp3: 'audio/mpeg', ogg: 'audio/ogg', oga: 'audio/ogg' }

/** True for a name contract §11 lists: `ticket`, `please-go-to`, `0`…`9`, `A`…`Z`, `counter-<counterId>`. */
export function isClipName(name: string): boolean {
  return (WORD_CLIPS as readonly string[]).includes(name) || (DIGIT_CLIPS as readonly string[]).includes(name) || LETTER_CLIPS.includes(name) || COUNTER_CLIP.test(name)
}

/** The clip type of a file name's extension (`.wav`, `.mp3`, `.ogg`), or null. */
export function clipTypeOf(fileName: string): ClipType | null {
  const dot = fileName.lastIndexOf('.')
  return dot > 0 ? (EXTENSIONS[fileName.slice(dot + 1).toLowerCase()] ?? null) : null
}

/** True when the bytes start the way files of `type` start (RIFF…WAVE, an MP3 frame or ID3 tag, OggS). */
export function looksLike(type: ClipType, bytes: Uint8Array): boolean {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to))
  if (type === 'audio/wav') return bytes.length > 44 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE'
  if (type === 'audio/ogg') return bytes.length > 27 && ascii(0, 4) === 'OggS'
  return bytes.length > 4 && (ascii(0, 3) === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0))
}

/** The clip names that say `ticketNumber` (`A012` → `A`, `0`, `1`, `2`); null when a character has no clip name. */
export function numberClips(ticketNumber: string): string[] | null {
  const names = [...ticketNumber.toUpperCase()].filter((c) => c.trim() !== '')
  return names.every(isClipName) ? names : null
}

export interface ClipFile {
  name: string
  contentType: ClipType
  bytes: Uint8Array
}

export interface StoredClip {
  lang: string
  name: string
  contentType: ClipType
  bytes: number
  sha256: string
  importedAt: number
}

interface ClipRow {
  lang: string
  name: string
  contentType: ClipType
  bytes: number
  sha256: string
  importedAt: number
}

/**
 * Stores the clips of one language in one transaction: a clip of the same name is replaced,
 * the language's other clips stay. Returns what was written.
 */
export function storeClips(db: Db, lang: string, files: ClipFile[], now: number): StoredClip[] {
  const upsert = db.$client.query(
    `INSERT INTO voice_clips (lang, name, content_type, audio, sha256, imported_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
     ON CONFLICT (lang, name) DO UPDATE SET content_type = excluded.content_type, audio = excluded.audio, sha256 = excluded.sha256, imported_at = excluded.imported_at`,
  )
  return db.$client.transaction(() =>
    files.map((file) => {
      const sha256 = sha256Hex(file.bytes)
      upsert.run(lang, file.name, file.contentType, file.bytes, sha256, now)
      return { lang, name: file.name, contentType: file.contentType, bytes: file.bytes.byteLength, sha256, importedAt: now }
    }),
  )()
}

/** Every stored clip (without its bytes), by language and name. */
export function listClips(db: Db, lang?: string): StoredClip[] {
  const columns = 'lang, name, content_type AS contentType, length(audio) AS bytes, sha256, imported_at AS importedAt'
  return lang === undefined
    ? db.$client.query<ClipRow, []>(`SELECT ${columns} FROM voice_clips ORDER BY lang, name`).all()
    : db.$client.query<ClipRow, [string]>(`SELECT ${columns} FROM voice_clips WHERE lang = ?1 ORDER BY name`).all(lang)
}

/** Deletes a language's clips (all, or the named ones); returns how many went. */
export function removeClips(db: Db, lang: string, names?: string[]): number {
  if (names === undefined) return db.$client.query('DELETE FROM voice_clips WHERE lang = ?1').run(lang).changes
  const remove = db.$client.query('DELETE FROM voice_clips WHERE lang = ?1 AND name = ?2')
  return db.$client.transaction(() => names.reduce((n, name) => n + remove.run(lang, name).changes, 0))()
}

/** One clip's bytes, or null. */
export function readClip(db: Db, lang: string, name: string): { contentType: ClipType; audio: Uint8Array; sha256: string } | null {
  return db.$client
    .query<{ contentType: ClipType; audio: Uint8Array; sha256: string }, [string, string]>(
      'SELECT content_type AS contentType, audio, sha256 FROM voice_clips WHERE lang = ?1 AND name = ?2',
    )
    .get(lang, name)
}

/**
 * The language whose clips a board in `lang` uses: the same tag (`ar-EG`), else its language
 * (`ar`), else any stored tag of that language; null when none has clips.
 */
export function clipLanguageFor(db: Db, lang: string): string | null {
  const langs = db.$client.query<{ lang: string }, []>('SELECT DISTINCT lang FROM voice_clips').all().map((r) => r.lang)
  const base = lang.split('-')[0]!.toLowerCase()
  return (
    langs.find((l) => l.toLowerCase() === lang.toLowerCase()) ??
    langs.find((l) => l.toLowerCase() === base) ??
    langs.find((l) => l.split('-')[0]!.toLowerCase() === base) ??
    null
  )
}

export interface UnitCounter {
  id: string
  name: string
  locationId: string
}

/**
 * The counters of a queue unit of `workspaceId` (null for an unknown unit or another
 * workspace's): a board names a call's counter by its name and location, a clip by its ID.
 * Read-only over configuration rows (no ticket state).
 */
export function unitCounters(db: Db, queueUnitId: string, workspaceId: string): UnitCounter[] | null {
  const unit = db.$client.query<{ workspaceId: string }, [string]>('SELECT workspace_id AS workspaceId FROM queue_units WHERE id = ?1').get(queueUnitId)
  if (unit === null || unit.workspaceId !== workspaceId) return null
  return db.$client
    .query<UnitCounter, [string]>('SELECT id, name, location_id AS locationId FROM counters WHERE queue_unit_id = ?1 ORDER BY id')
    .all(queueUnitId)
}

/** The clips a board can say calls with: what it needs to map a call to clip names and fetch them. */
export interface VoiceManifest {
  /** The board's language as asked. */
  lang: string
  /** The stored language whose clips these are, or null when there are none for this language. */
  clipLang: string | null
  /** True when `ticket`, `please-go-to` and every digit are present. */
  complete: boolean
  clips: { name: string; contentType: ClipType; bytes: number; href: string }[]
  counters: UnitCounter[]
}

/** The manifest for a board of `queueUnitId` in `lang`; null for an unknown unit. `hrefOf` builds a clip's URL. */
export function voiceManifest(
  db: Db,
  queueUnitId: string,
  workspaceId: string,
  lang: string,
  hrefOf: (clip: StoredClip) => string,
): VoiceManifest | null {
  const counters = unitCounters(db, queueUnitId, workspaceId)
  if (counters === null) return null
  const clipLang = clipLanguageFor(db, lang)
  const ids = new Set(counters.map((c) => `counter-${c.id}`))
  // Another unit's counter clips are none of this board's business.
  const stored = clipLang === null ? [] : listClips(db, clipLang).filter((c) => !c.name.startsWith('counter-') || ids.has(c.name))
  const names = new Set(stored.map((c) => c.name))
  return {
    lang,
    clipLang,
    complete: REQUIRED_CLIPS.every((n) => names.has(n)),
    clips: stored.map((c) => ({ name: c.name, contentType: c.contentType, bytes: c.bytes, href: hrefOf(c) })),
    counters,
  }
}
