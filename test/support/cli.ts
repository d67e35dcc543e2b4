import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'lobby-test-'))
}

/** Runs `bun src/main.ts ...args` and returns exit code and output. */
export function runCli(args: string[], env: Record<string, string> = {}) {
  const result = Bun.spawnSync(['bun', MAIN, ...args], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() }
}
