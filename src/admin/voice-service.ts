import type { Db } from '../db/open'
import { canonicalLang } from '../screens'
import {
  isClipName, listClips, looksLike, MAX_CLIP_BYTES, readClip, removeClips, REQUIRED_CLIPS, storeClips, type ClipType,
} from '../voice'
import { MAX_ANY_BODY } from '../platform/http'

/*
 * The console's voice-clips section (contract §17, §11) over src/voice/service.ts, the
 * service `lobby voice` uses: the same names, types, sniffing and size bound; one clip per
 * upload. What is missing is said per language: the clips without which no call can be said,
 * and those this branch's calls would use (its active services' prefix letters, its active
 * counters). Free of HTTP.
 */

/**
 * One upload's bound: a clip's (2 MiB) or the app's largest body (1 MiB, refused before any
 * route runs), whichever is smaller. A word or two of speech is far below either.
 */
export const MAX_UPLOAD_BYTES = Math.min(MAX_CLIP_BYTES, MAX_ANY_BODY)

/** The media types an upload may be sent as, and the clip type each is stored as. */
const UPLOAD_TYPES: Record<string, ClipType> = {
  'audio/wav': 'audio/wav', 'audio/wave': 'audio/wav', 'audio/x-wav': 'audio/wav', 'audio/vnd.wave': 'audio/wav',
  'audio/mpeg': 'audio/mpeg', 'audio/mp3': 'audio/mpeg',
  'audio/ogg': 'audio/ogg', 'application/ogg': 'audio/ogg',
}

/** The clip type of an upload's Content-Type (parameters ignored), or null. */
export function uploadType(contentType: string | null): ClipType | null {
  if (contentType === null) return null
  return UPLOAD_TYPES[contentType.split(';')[0]!.trim().toLowerCase()] ?? null
}

/** A clip name as stored (`a` → `A`, as `lobby voice import` does), or null when contract §11 has no such name. */
export function clipName(name: string): string | null {
  const stored = /^[a-z]$/.test(name) ? name.toUpperCase() : name
  return isClipName(stored) ? stored : null
}

export { canonicalLang, looksLike }

export interface LanguageClips {
  lang: string
  clips: { name: string; contentType: ClipType; bytes: number; sha256: string; importedAt: string }[]
  /** Without these no call can be said in this language: the board falls back to speech synthesis. */
  missing: string[]
  /** Letters and counters this branch's calls would say that have no clip (each then spoken by synthesis). */
  missingForBranch: string[]
}

export class AdminVoice {
  constructor(private readonly db: Db) {}

  /** The branch's languages (every unit's) and every language with clips; `lang` narrows to one. */
  languages(lang?: string): LanguageClips[] {
    const sql = this.db.$client
    const langs = new Set<string>()
    if (lang !== undefined) langs.add(lang)
    else {
      for (const row of sql.query<{ languages: string }, []>('SELECT languages FROM queue_units').all()) {
        for (const tag of JSON.parse(row.languages) as string[]) langs.add(canonicalLang(tag) ?? tag)
      }
      for (const clip of listClips(this.db)) langs.add(clip.lang)
    }
    const letters = new Set<string>()
    for (const { prefix } of sql.query<{ prefix: string }, []>('SELECT prefix FROM services WHERE active = 1').all()) {
      for (const c of prefix.toUpperCase()) if (isClipName(c)) letters.add(c)
    }
    const counters = sql.query<{ id: string }, []>('SELECT id FROM counters WHERE active = 1 ORDER BY id').all().map((r) => `counter-${r.id}`)
    const wanted = [...[...letters].sort(), ...counters]
    return [...langs].sort().map((l) => {
      const clips = listClips(this.db, l)
      const have = new Set(clips.map((c) => c.name))
      return {
        lang: l,
        clips: clips.map(({ name, contentType, bytes, sha256, importedAt }) => ({ name, contentType, bytes, sha256, importedAt: new Date(importedAt).toISOString() })),
        missing: REQUIRED_CLIPS.filter((n) => !have.has(n)),
        missingForBranch: wanted.filter((n) => !have.has(n)),
      }
    })
  }

  /** Stores one clip (replacing one of the same name); returns what was stored and what it replaced. */
  upload(lang: string, name: string, contentType: ClipType, bytes: Uint8Array, now: number) {
    const before = listClips(this.db, lang).find((c) => c.name === name) ?? null
    const [stored] = storeClips(this.db, lang, [{ name, contentType, bytes }], now)
    return { before, stored: stored! }
  }

  read(lang: string, name: string) {
    return readClip(this.db, lang, name)
  }

  remove(lang: string, name: string): number {
    return removeClips(this.db, lang, [name])
  }
}
