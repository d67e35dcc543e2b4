import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname

const created: string[] = []

/**
 * Removes every directory `tempDir` made. test/support/cleanup.ts, preloaded by bunfig.toml,
 * calls it once after all test files (bun test fires no process exit hooks).
 */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true })
    } catch {}
  }
}

/** A new temporary directory, deleted after the test run. */
export function tempDir(prefix = 'lobby-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  created.push(dir)
  return dir
}

/** Runs `bun src/main.ts ...args` and returns exit code and output. */
export function runCli(args: string[], env: Record<string, string> = {}) {
  const result = Bun.spawnSync(['bun', MAIN, ...args], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() }
}
