import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { ROOT } from './binary'

/**
 * Where browser tests put their screenshots: SCREENSHOTS_DIR when it is set (the docs' images
 * are made with SCREENSHOTS_DIR=docs/images, on purpose, by hand), else a directory under the
 * system's temp directory for the few pictures a test reads back or writes on a failure, so a
 * plain `bun run test` never writes into the checkout. Kept after the run (not a `tempDir`).
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

/** True when SCREENSHOTS_DIR is set: only then do browser tests take their screenshots. */
export const TAKING_SHOTS = Boolean(process.env.SCREENSHOTS_DIR)

/** A page or locator that can take its own screenshot (playwright-core's Page and Locator). */
interface Shootable {
  screenshot(options: { path: string; fullPage?: boolean; animations?: 'disabled' | 'allow'; timeout?: number }): Promise<unknown>
}

/**
 * Takes the screenshot `name` into SHOTS when SCREENSHOTS_DIR is set, else nothing: a plain
 * `bun run test` spends no time on pictures nobody looks at (89 of them took ~20 s a run).
 */
export async function shoot(target: Shootable, name: string, options: { fullPage?: boolean; animations?: 'disabled' | 'allow' } = {}): Promise<void> {
  if (!TAKING_SHOTS) return
  mkdirSync(SHOTS, { recursive: true })
  await target.screenshot({ ...options, path: join(SHOTS, name) })
}
