import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { ensureBinary } from './binary'

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

/**
 * Runs `dist/lobby ...args` (rebuilt first when stale) and returns exit code and output. The
 * binary, not `bun src/main.ts`: it starts in a third of the time, and it is what ships. `cwd`:
 * where it runs, for relative paths (the operator's).
 */
export function runCli(args: string[], env: Record<string, string> = {}, cwd?: string) {
  const result = Bun.spawnSync([ensureBinary(), ...args], { env: { ...process.env, ...env }, cwd, stdout: 'pipe', stderr: 'pipe' })
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() }
}
