import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { canonicalLang } from '../screens'
import {
  clipTypeOf, isClipName, listClips, looksLike, MAX_CLIP_BYTES, removeClips, REQUIRED_CLIPS, storeClips, type ClipFile,
} from '../voice'
import { dbPath, openExistingDatabase, openWritableDatabase, parseFlags, printJson, required, UsageError } from './args'
import { auditedCliChange } from './actor'

/** What the audit log keeps of a clip (as the console's voice section writes it): never the audio. */
const clipView = (c: { contentType: string; bytes: number; sha256: string }) => ({ contentType: c.contentType, bytes: c.bytes, sha256: c.sha256 })

export const voiceHelp = `lobby voice import|list|remove --db PATH …

Recorded clips for spoken calls on queue boards (&voice=1), per language:
  lobby voice import --db PATH --lang ar --dir DIR
      stores every clip in DIR: files named ticket, please-go-to, 0…9, A…Z and
      counter-<counterId>, each .wav, .mp3 or .ogg (at most 2 MiB). A clip of the same
      name is replaced; the language's other clips stay. Any other file is an error and
      nothing is stored. Prints what was stored and which required clips are missing.
  lobby voice list --db PATH [--lang ar]
  lobby voice remove --db PATH --lang ar [--name NAME]   (all of the language's clips without --name)
A board says "ticket A 0 1 2, please go to counter 3" with the clips of its language when
they are all there, else with the browser's speech synthesis, else it plays the chime alone.`

function langFlag(value: string | undefined): string {
  const lang = canonicalLang(required(value, 'lang'))
  if (lang === null) throw new UsageError('--lang must be a BCP 47 language tag (ar, en-GB, …)')
  return lang
}

/** Reads and checks every file of `dir`; throws (storing nothing) on the first list of problems. */
export function readClipDirectory(dir: string): ClipFile[] {
  let entries: string[]
  try {
    entries = readdirSync(dir).filter((name) => !name.startsWith('.') && statSync(join(dir, name)).isFile()).sort()
  } catch (error) {
    throw new UsageError(`cannot read --dir ${dir}: ${(error as Error).message}`)
  }
  const problems: string[] = []
  const files: ClipFile[] = []
  const seen = new Map<string, string>()
  for (const file of entries) {
    const dot = file.lastIndexOf('.')
    const name = dot > 0 ? file.slice(0, dot) : file
    const contentType = clipTypeOf(file)
    if (contentType === null) {
      problems.push(`${file}: not .wav, .mp3 or .ogg`)
      continue
    }
    // Letters are stored upper case (a ticket number's prefix is).
    const clipName = /^[a-z]$/.test(name) ? name.toUpperCase() : name
    if (!isClipName(clipName)) {
      problems.push(`${file}: "${name}" is not a clip name (ticket, please-go-to, 0…9, A…Z, counter-<counterId>)`)
      continue
    }
    const other = seen.get(clipName)
    if (other !== undefined) {
      problems.push(`${file}: a second file for "${clipName}" (also ${other})`)
      continue
    }
    seen.set(clipName, file)
    const size = statSync(join(dir, file)).size
    if (size > MAX_CLIP_BYTES) {
      problems.push(`${file}: ${size} bytes, more than ${MAX_CLIP_BYTES}`)
      continue
    }
    const bytes = new Uint8Array(readFileSync(join(dir, file)))
    if (!looksLike(contentType, bytes)) {
      problems.push(`${file}: not a ${contentType} file (its first bytes say otherwise)`)
      continue
    }
    files.push({ name: clipName, contentType, bytes })
  }
  if (problems.length > 0) throw new UsageError(`nothing imported:\n  ${problems.join('\n  ')}`)
  if (files.length === 0) throw new UsageError(`no clips in ${dir}`)
  return files
}

export async function voiceCommand(argv: string[]): Promise<number> {
  const [action, ...rest] = argv
  if (action === undefined || action === '--help' || action === '-h') {
    console.log(voiceHelp)
    return 0
  }
  const flags = parseFlags(rest, { db: { type: 'string' }, lang: { type: 'string' }, dir: { type: 'string' }, name: { type: 'string' } })
  if (flags.help) {
    console.log(voiceHelp)
    return 0
  }
  if (action === 'import') {
    const lang = langFlag(flags.lang)
    const files = readClipDirectory(required(flags.dir, 'dir'))
    const db = openWritableDatabase(dbPath(flags.db))
    try {
      const now = Date.now()
      // One `voice.upload` entry per clip stored, in the import's transaction.
      const stored = auditedCliChange(db, now, () => {
        const before = new Map(listClips(db, lang).map((c) => [c.name, c]))
        const done = storeClips(db, lang, files, now)
        return {
          result: done,
          audit: done.map((c) => ({ action: 'voice.upload', entity: { type: 'voice-clip', id: `${lang}/${c.name}` }, before: before.has(c.name) ? clipView(before.get(c.name)!) : null, after: clipView(c) })),
        }
      })
      const have = new Set(listClips(db, lang).map((c) => c.name))
      printJson({
        lang,
        imported: stored.map(({ name, contentType, bytes }) => ({ name, contentType, bytes })),
        clips: have.size,
        missing: REQUIRED_CLIPS.filter((n) => !have.has(n)),
      })
    } finally {
      db.$client.close()
    }
    return 0
  }
  if (action === 'list') {
    const db = openExistingDatabase(dbPath(flags.db))
    try {
      const lang = flags.lang === undefined ? undefined : langFlag(flags.lang)
      printJson(listClips(db, lang).map(({ lang, name, contentType, bytes, importedAt }) => ({ lang, name, contentType, bytes, importedAt: new Date(importedAt).toISOString() })))
    } finally {
      db.$client.close()
    }
    return 0
  }
  if (action === 'remove') {
    const lang = langFlag(flags.lang)
    const db = openWritableDatabase(dbPath(flags.db))
    try {
      const names = flags.name === undefined ? undefined : [flags.name]
      // One `voice.remove` entry per clip removed, in the removal's transaction.
      const removed = auditedCliChange(db, Date.now(), () => {
        const gone = listClips(db, lang).filter((c) => names === undefined || names.includes(c.name))
        return { result: removeClips(db, lang, names), audit: gone.map((c) => ({ action: 'voice.remove', entity: { type: 'voice-clip', id: `${lang}/${c.name}` }, before: clipView(c) })) }
      })
      printJson({ lang, removed })
    } finally {
      db.$client.close()
    }
    return 0
  }
  throw new UsageError(`unknown voice action "${action}" (import, list or remove)`)
}
