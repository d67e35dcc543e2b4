/**
 * Bun macro (imported `with { type: 'macro' }` by ./assets.ts): runs while the code is bundled
 * (`bun build --compile` for dist/lobby, the transpiler for `bun src/main.ts` and tests), so
 * the gzip and brotli forms of each embedded text asset are made at build time, at the highest
 * levels, and the binary carries them as base64 text. Never imported at run time.
 *
 * Brotli at quality 11 takes ~0.85 CPU-s for the pages' ~600 KB, and the transpiler runs the
 * macro in every process that loads ./assets.ts from source (each test file, each
 * `bun src/main.ts`). The forms are therefore kept in node_modules/.cache/lobby-precompress/,
 * named by a hash of the text and of these settings: the same text always compresses to the same
 * bytes, so a kept form is the form this would make; a changed file gets a new name.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const ROOT = join(import.meta.dir, '..', '..')
const CACHE = join(ROOT, 'node_modules', '.cache', 'lobby-precompress')
/** Part of every kept form's name: change it when the settings below change. */
const SETTINGS = 'br11-text-sizehint gzip9 v1'

export interface Precompressed {
  /** Bun.hash of the text the forms were made from (the asset checks it is its own body). */
  hash: string
  br: string
  gzip: string
}

/** The files' text, joined with a newline (the reports stylesheet is uPlot's then its own), compressed both ways. */
export function precompress(...paths: string[]): Precompressed {
  const text = paths.map((p) => readFileSync(p.startsWith('/') ? p : join(ROOT, p), 'utf8')).join('\n')
  const hash = Bun.hash(text).toString(16)
  const kept = join(CACHE, `${Bun.hash(`${SETTINGS}\n${text}`).toString(16)}.json`)
  try {
    const forms = JSON.parse(readFileSync(kept, 'utf8')) as Precompressed
    if (forms.hash === hash && typeof forms.br === 'string' && typeof forms.gzip === 'string') return forms
  } catch {
    // Not kept yet (or unreadable): made below.
  }
  const bytes = Buffer.from(text, 'utf8')
  const forms: Precompressed = {
    hash,
    br: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).toString('base64'),
    gzip: gzipSync(bytes, { level: 9 }).toString('base64'),
  }
  try {
    // Written whole under another name, then renamed: a process reading it never sees half a file.
    mkdirSync(CACHE, { recursive: true })
    const partial = `${kept}.${process.pid}.tmp`
    writeFileSync(partial, JSON.stringify(forms))
    renameSync(partial, kept)
  } catch {
    // A read-only tree keeps nothing: the next process compresses again.
  }
  return forms
}
