/**
 * Lints the OpenAPI document Lobby serves at /swagger/json with @redocly/cli (redocly.yaml).
 *
 *   bun run lint:openapi                      the document of the app built from source (app.handle)
 *   bun run lint:openapi --binary dist/lobby  the document the compiled binary serves (CI)
 *   bun run lint:openapi --hq                 the head-office server's own document (`lobby hq serve`, contract §26)
 *
 * Offline: Redocly's telemetry and update check are turned off; the document has no remote $ref.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')

async function fromSource(): Promise<string> {
  const { openDatabase } = await import('../src/db/open')
  const { migrateDatabase } = await import('../src/root/migrate')
  const { createApp } = await import('../src/app')
  const db = openDatabase(':memory:')
  migrateDatabase(db.$client)
  const app = createApp({ db, log: () => {} })
  const res = await app.handle(new Request('http://localhost/swagger/json'))
  if (res.status !== 200) throw new Error(`/swagger/json answered ${res.status}`)
  return await res.text()
}

/** `lobby hq serve`'s document: building it reads no database (the client connects on its first query, never made here). */
async function fromHqSource(): Promise<string> {
  const { SQL } = await import('bun')
  const { createHqApp } = await import('../src/hq/app')
  const sql = new SQL('postgres://nobody@127.0.0.1:1/none')
  const app = createHqApp({ sql, log: () => {}, clock: { now: () => Date.now() }, publicOrigin: null })
  const res = await app.handle(new Request('http://localhost/swagger/json'))
  if (res.status !== 200) throw new Error(`/swagger/json answered ${res.status}`)
  return await res.text()
}

async function fromBinary(binary: string, dir: string): Promise<string> {
  const proc = Bun.spawn([binary, 'serve', '--port', '0', '--host', '127.0.0.1', '--db', join(dir, 'lobby.db')], { stdout: 'pipe', stderr: 'inherit' })
  try {
    const reader = proc.stdout.getReader()
    const decoder = new TextDecoder()
    let buffer = ''
    const deadline = Date.now() + 15_000
    for (;;) {
      if (Date.now() > deadline) throw new Error('the binary did not start listening within 15 s')
      const { done, value } = await reader.read()
      if (done) throw new Error('the binary exited before listening')
      buffer += decoder.decode(value, { stream: true })
      const match = buffer.match(/"msg":"listening","url":"([^"]+)"/)
      if (match) {
        const res = await fetch(`${match[1]}/swagger/json`)
        if (res.status !== 200) throw new Error(`/swagger/json answered ${res.status}`)
        return await res.text()
      }
    }
  } finally {
    proc.kill('SIGTERM')
    await proc.exited
  }
}

const args = process.argv.slice(2)
const binaryAt = args.indexOf('--binary')
const dir = mkdtempSync(join(tmpdir(), 'lobby-openapi-'))
try {
  const document = binaryAt >= 0 ? await fromBinary(resolve(args[binaryAt + 1] ?? 'dist/lobby'), dir) : args.includes('--hq') ? await fromHqSource() : await fromSource()
  const file = join(dir, 'openapi.json')
  await Bun.write(file, document)
  const lint = Bun.spawn([join(ROOT, 'node_modules', '.bin', 'redocly'), 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'codeframe'], {
    cwd: ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' },
    stdout: 'inherit',
    stderr: 'inherit',
  })
  process.exitCode = await lint.exited
} finally {
  rmSync(dir, { recursive: true, force: true })
}
