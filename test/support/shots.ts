import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { ROOT } from './binary'

/**
 * Where browser tests put their screenshots: SCREENSHOTS_DIR when it is set (the docs' images
 * are made with SCREENSHOTS_DIR=docs/images, on purpose, by hand), else a directory under the
 * system's temp directory, so a plain `bun run test` never writes into the checkout.
 * Kept after the run (not a `tempDir`) so the pictures can be looked at.
 */
export const SHOTS = process.env.SCREENSHOTS_DIR
  ? (isAbsolute(process.env.SCREENSHOTS_DIR) ? process.env.SCREENSHOTS_DIR : join(ROOT, process.env.SCREENSHOTS_DIR))
  : join(tmpdir(), 'lobby-screenshots')

/** A sub-directory of the temp screenshots (failures, diagnostics): never the docs, even with SCREENSHOTS_DIR. */
export function scratchShots(name: string): string {
  const dir = join(tmpdir(), 'lobby-screenshots', name)
  mkdirSync(dir, { recursive: true })
  return dir
}
