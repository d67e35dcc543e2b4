/**
 * Bun macro (imported `with { type: 'macro' }` by ./assets.ts): runs while the code is bundled
 * (`bun build --compile` for dist/lobby, the transpiler for `bun src/main.ts` and tests), so
 * the gzip and brotli forms of each embedded text asset are made at build time, at the highest
 * levels, and the binary carries them as base64 text. Never imported at run time.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const ROOT = join(import.meta.dir, '..', '..')

export interface Precompressed {
  /** Bun.hash of the text the forms were made from (the asset checks it is its own body). */
  hash: string
  br: string
  gzip: string
}

/** The files' text, joined with a newline (the reports stylesheet is uPlot's then its own), compressed both ways. */
export function precompress(...paths: string[]): Precompressed {
  const text = paths.map((p) => readFileSync(p.startsWith('/') ? p : join(ROOT, p), 'utf8')).join('\n')
  const bytes = Buffer.from(text, 'utf8')
  return {
    hash: Bun.hash(text).toString(16),
    br: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).toString('base64'),
    gzip: gzipSync(bytes, { level: 9 }).toString('base64'),
  }
}
