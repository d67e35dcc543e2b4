import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, existsSync, linkSync, readdirSync, statSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { runCli, tempDir } from '../support/cli'
import { ensureBinary, startBinary, type RunningBinary } from '../support/binary'

const running: RunningBinary[] = []
afterAll(async () => {
  for (const r of running.splice(0)) if (r.proc.exitCode === null) await r.stop('SIGKILL')
})

async function serve(args: string[], cwd?: string): Promise<RunningBinary> {
  const server = await startBinary(args, {}, cwd)
  running.push(server)
  return server
}

/** Runs a command that should exit by itself; kills it after `ms` (then `timedOut`). */
async function runUntilExit(args: string[], ms: number) {
  const proc = Bun.spawn([ensureBinary(), ...args], { stdout: 'pipe', stderr: 'pipe' })
  const timer = setTimeout(() => proc.kill('SIGKILL'), ms)
  const code = await proc.exited
  clearTimeout(timer)
  return { code, timedOut: proc.signalCode === 'SIGKILL', stderr: await new Response(proc.stderr).text() }
}

const portOf = (url: string) => Number(new URL(url).port)

describe('one server per database (contract §13, issue 16)', () => {
  test('a second serve of the same database exits 2 with one line naming the database and the holder', async () => {
    const db = join(tempDir(), 'lobby.db')
    const first = await serve(['serve', '--port', '0', '--host', '127.0.0.1', '--db', db])
    const second = await runUntilExit(['serve', '--port', '0', '--host', '127.0.0.1', '--db', db], 10_000)
    expect(second.timedOut).toBe(false)
    expect(second.code).toBe(2)
    const lines = second.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(db)
    expect(lines[0]).toContain(`PID ${first.proc.pid}`)
    // The first one still serves, and the CLI still reads and writes the database beside it.
    expect((await fetch(`${first.url}/health`)).status).toBe(200)
    const keys = runCli(['keys', 'list', '--db', db])
    expect(keys.code).toBe(0)
    // Once the holder is gone (even killed), the database can be served again.
    await first.stop('SIGKILL')
    const third = await serve(['serve', '--port', '0', '--host', '127.0.0.1', '--db', db])
    expect((await fetch(`${third.url}/health`)).status).toBe(200)
  }, 30_000)

  test('a symlink or a hard link to a database in use is refused like the same path (contract §23)', async () => {
    const dir = tempDir()
    const db = join(dir, 'lobby.db')
    const first = await serve(['serve', '--port', '0', '--host', '127.0.0.1', '--db', db])
    symlinkSync(db, join(dir, 'symlink.db'))
    linkSync(db, join(dir, 'hardlink.db'))
    const elsewhere = tempDir()
    symlinkSync(dir, join(elsewhere, 'data'))
    for (const other of [join(dir, 'symlink.db'), join(dir, 'hardlink.db'), join(elsewhere, 'data', 'lobby.db'), `${dir}/./lobby.db`]) {
      const second = await runUntilExit(['serve', '--port', '0', '--host', '127.0.0.1', '--db', other], 10_000)
      expect({ other, code: second.code, timedOut: second.timedOut }).toEqual({ other, code: 2, timedOut: false })
      const lines = second.stderr.trim().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(other)
      expect(lines[0]).toContain(`PID ${first.proc.pid}`)
    }
    expect((await fetch(`${first.url}/health`)).status).toBe(200)
  }, 60_000)

  test('a first start makes the database directory and an owner-only database', async () => {
    const db = join(tempDir(), 'new', 'dir', 'lobby.db')
    const server = await serve(['serve', '--port', '0', '--host', '127.0.0.1', '--db', db])
    expect((await fetch(`${server.url}/health`)).status).toBe(200)
    expect(statSync(db).mode & 0o777).toBe(0o600)
  }, 30_000)

  test('an existing database readable by others is made owner-only at start, and the log says so (contract §23)', async () => {
    const dir = tempDir()
    const db = join(dir, 'lobby.db')
    expect(runCli(['migrate', '--db', db]).code).toBe(0)
    chmodSync(db, 0o644)
    const server = await serve(['serve', '--port', '0', '--host', '127.0.0.1', '--db', db])
    expect(statSync(db).mode & 0o777).toBe(0o600)
    const line = server.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find((e) => e.msg === 'database made owner-only')
    expect(line).toMatchObject({ level: 'info', path: db, was: '0644', now: '0600' })
    // Already owner-only: nothing to say at the next start.
    await server.stop()
    const again = await serve(['serve', '--port', '0', '--host', '127.0.0.1', '--db', db])
    expect(again.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).some((e) => e.msg === 'database made owner-only')).toBe(false)
  }, 30_000)

  test('a port in use is an error, never a second listener on it', async () => {
    const first = await serve(['serve', '--port', '0', '--host', '127.0.0.1', '--db', join(tempDir(), 'a.db')])
    const port = portOf(first.url)
    const dir = tempDir()
    const second = await runUntilExit(['serve', '--port', String(port), '--host', '127.0.0.1', '--db', join(dir, 'data', 'b.db')], 10_000)
    expect(second.timedOut).toBe(false)
    expect(second.code).toBe(2)
    expect(second.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`)
    // The port is checked before the database is created or migrated: nothing is left behind.
    expect(readdirSync(dir)).toEqual([])
    expect(existsSync(join(dir, 'data', 'b.db'))).toBe(false)
  }, 30_000)

  test('the start log names the address actually bound: a wildcard says so, with the local URL beside it', async () => {
    const server = await serve(['serve', '--port', '0', '--host', '0.0.0.0', '--db', join(tempDir(), 'lobby.db')])
    const line = server.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find((e) => e.msg === 'listening')
    const port = portOf(server.url)
    expect(line.url).toBe(`http://0.0.0.0:${port}`)
    expect(line.on).toBe('every network interface')
    expect(line.localUrl).toBe(`http://127.0.0.1:${port}`)
  }, 30_000)
})

describe('TLS 1.2 offers forward-secret suites only (issue 16)', () => {
  const openssl = Bun.which('openssl')
  test.skipIf(openssl === null)('ECDHE suites are accepted; static-RSA suites are refused', async () => {
    const dir = tempDir()
    const cert = join(dir, 'cert.pem')
    const key = join(dir, 'key.pem')
    const made = Bun.spawnSync([openssl!, 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'], { stdout: 'ignore', stderr: 'pipe' })
    expect(made.exitCode).toBe(0)
    const server = await serve(['serve', '--port', '0', '--host', '127.0.0.1', '--db', join(dir, 'lobby.db'), '--tls-cert', cert, '--tls-key', key])
    const port = portOf(server.url)
    const handshake = async (cipher: string) => {
      const proc = Bun.spawn([openssl!, 's_client', '-connect', `127.0.0.1:${port}`, '-tls1_2', '-cipher', cipher], { stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' })
      proc.stdin.end()
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000)
      const [code, out] = await Promise.all([proc.exited, new Response(proc.stdout).text()])
      clearTimeout(timer)
      return { code, cipher: /Cipher is (\S+)/.exec(out)?.[1] ?? null }
    }
    for (const fs of ['ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES256-GCM-SHA384', 'ECDHE-RSA-CHACHA20-POLY1305']) {
      expect(await handshake(fs)).toEqual({ code: 0, cipher: fs })
    }
    for (const plain of ['AES128-GCM-SHA256', 'AES256-GCM-SHA384', 'AES128-SHA', 'AES256-SHA', 'ECDHE-RSA-AES128-SHA']) {
      const result = await handshake(plain)
      // No handshake: openssl exits 1 and reports "Cipher is (NONE)" (or no cipher line at all).
      expect({ plain, failed: result.code !== 0, cipher: result.cipher === '(NONE)' ? null : result.cipher }).toEqual({ plain, failed: true, cipher: null })
    }
  }, 60_000)
})

describe('lobby demo --host (issue 16)', () => {
  test('serves the demo on the given address and prints URLs on it', async () => {
    const dir = tempDir()
    const proc = Bun.spawn([ensureBinary(), 'demo', '--port', '0', '--host', '127.0.0.2', '--db', join(dir, 'demo.db')], { cwd: dir, stdout: 'pipe', stderr: 'pipe' })
    try {
      const reader = proc.stdout.getReader()
      let text = ''
      const deadline = Date.now() + 20_000
      while (!text.includes('Stop with Ctrl-C') && Date.now() < deadline) {
        const { done, value } = await reader.read()
        if (done) break
        text += new TextDecoder().decode(value)
      }
      const base = /Lobby demo on (\S+)/.exec(text)?.[1]
      expect(base).toStartWith('http://127.0.0.2:')
      expect((await fetch(`${base}/health`)).status).toBe(200)
      expect(text).toContain(`${base}/screens/queue/qu_main?token=`)
    } finally {
      proc.kill('SIGKILL')
      await proc.exited
    }
  }, 30_000)
})
