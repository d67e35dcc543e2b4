import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname

const created: string[] = []
// Every directory a test made is removed when the test process ends (one hook for the whole
// run: an afterAll here would belong only to the first test file importing this module).
process.on('exit', () => {
  for (const dir of created.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true })
    } catch {}
  }
})

/** A new temporary directory, deleted when the test process exits. */
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
