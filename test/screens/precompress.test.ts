import { describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { precompress } from '../../src/screens/precompress'
import { tempDir } from '../support/cli'

/*
 * The assets' build-time compression (src/screens/precompress.ts) keeps what it made in
 * node_modules/.cache/lobby-precompress/, so a process that loads the pages' registry from source
 * does not compress ~600 KB at brotli's highest level again. Each test compresses a file of its
 * own (a random text), so its kept forms are its own.
 */
const KEPT = join(import.meta.dir, '..', '..', 'node_modules', '.cache', 'lobby-precompress')

function keptNames(): Set<string> {
  return new Set(existsSync(KEPT) ? readdirSync(KEPT) : [])
}

function textFile(): { path: string; text: string } {
  const path = join(tempDir(), 'asset.js')
  const text = `/* ${crypto.randomUUID()} */\n${'console.log("a board");\n'.repeat(200)}`
  writeFileSync(path, text)
  return { path, text }
}

describe('precompress', () => {
  test('the forms decompress to the text; they are kept, and the next call reads them', () => {
    const { path, text } = textFile()
    const before = keptNames()
    const made = precompress(path)
    expect(brotliDecompressSync(Buffer.from(made.br, 'base64')).toString('utf8')).toBe(text)
    expect(gunzipSync(Buffer.from(made.gzip, 'base64')).toString('utf8')).toBe(text)
    const added = [...keptNames()].filter((name) => !before.has(name))
    expect(added).toHaveLength(1)
    expect(JSON.parse(readFileSync(join(KEPT, added[0]!), 'utf8'))).toEqual(made)
    // What is kept is what is used: a kept form changed on disk comes back as it is now.
    writeFileSync(join(KEPT, added[0]!), JSON.stringify({ ...made, gzip: 'a2VwdA==' }))
    expect(precompress(path).gzip).toBe('a2VwdA==')
  })

  test('a kept file of another text, or not JSON, is not used: the forms are made again', () => {
    const { path, text } = textFile()
    const before = keptNames()
    const made = precompress(path)
    const name = [...keptNames()].find((n) => !before.has(n))!
    for (const spoiled of [JSON.stringify({ ...made, hash: '0' }), 'not json']) {
      writeFileSync(join(KEPT, name), spoiled)
      const again = precompress(path)
      expect(brotliDecompressSync(Buffer.from(again.br, 'base64')).toString('utf8')).toBe(text)
      expect(again).toEqual(made)
    }
  })
})
