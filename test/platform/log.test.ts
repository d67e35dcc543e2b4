import { describe, expect, test } from 'bun:test'
import { closeSync, constants, openSync, readFileSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { BufferedLineWriter, formatLogLine } from '../../src/platform/log'
import { tempDir } from '../support/cli'
import { ensureBinary } from '../support/binary'


describe('the access log', () => {
  test('a line is the entry as JSON with `time` first', () => {
    const ms = Date.parse('2026-11-25T09:30:00.123Z')
    expect(formatLogLine({ level: 'info', msg: 'request', status: 200, path: '/x"y' }, ms))
      .toBe('{"time":"2026-11-25T09:30:00.123Z","level":"info","msg":"request","status":200,"path":"/x\\"y"}\n')
    expect(JSON.parse(formatLogLine({}, ms))).toEqual({ time: '2026-11-25T09:30:00.123Z' })
    // An entry's own `time` wins, as the spread always did.
    expect(JSON.parse(formatLogLine({ time: 'given' }, ms))).toEqual({ time: 'given' })
  })

  test('SIGTERM right after a burst of requests: every request has its line, and the server logs its stop', async () => {
    const db = join(tempDir(), 'lobby.db')
    // stdout is a pipe nobody reads until the server stopped: lines must not depend on the reader.
    const proc = Bun.spawn([ensureBinary(), 'serve', '--port', '0', '--host', '127.0.0.1', '--db', db], { stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' })
    const reader = proc.stdout.getReader()
    const decoder = new TextDecoder()
    let text = ''
    let url: string | undefined
    while (url === undefined) {
      const { done, value } = await reader.read()
      if (done) throw new Error(`server exited: ${text} ${await new Response(proc.stderr).text()}`)
      text += decoder.decode(value, { stream: true })
      url = /"msg":"listening","url":"([^"]+)"/.exec(text)?.[1]
    }
    const requests = 300
    const ids = Array.from({ length: requests }, (_, i) => `burst-${i}`)
    // Each answer is read before the signal, so each request's line was due before it.
    // Failed requests are logged one by one (a GET that succeeds is only counted: docs/decisions.md).
    const answers = await Promise.all(ids.map((id) => fetch(`${url}/no-such-route`, { headers: { 'x-correlation-id': id } }).then((r) => r.status)))
    expect(answers.every((s) => s === 404)).toBe(true)
    proc.kill('SIGTERM')
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
    expect(await proc.exited).toBe(0)
    // The log's lines (a first start also prints the first administrator's link as plain text).
    const lines = text.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>)
    const logged = new Set(lines.filter((l) => l.msg === 'request').map((l) => l.correlationId))
    expect(ids.filter((id) => !logged.has(id))).toEqual([])
    expect(lines.at(-1)?.msg).toBe('stopped')
  }, 30_000)

  /** A FIFO with both ends open non-blocking, as Bun leaves a piped stdout: the pipe holds 64 KiB. */
  function fifo(): { path: string; reader: number; writer: number } {
    const path = join(tempDir(), 'stdout.fifo')
    expect(Bun.spawnSync(['mkfifo', path]).exitCode).toBe(0)
    const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
    const writer = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK)
    return { path, reader, writer }
  }

  /** The longest the event loop went without turning while `ms` passed. */
  async function longestStall(ms: number): Promise<number> {
    let last = performance.now()
    let longest = 0
    const end = last + ms
    while (performance.now() < end) {
      await Bun.sleep(1)
      const now = performance.now()
      longest = Math.max(longest, now - last)
      last = now
    }
    return longest
  }

  test('a reader slower than the log does not stop the event loop, and gets every line in order', async () => {
    const pipe = fifo()
    const out = join(tempDir(), 'read.txt')
    // The reader starts taking lines after 800 ms, as a busy journald might.
    const reader = Bun.spawn(['sh', '-c', `sleep 0.8; cat < '${pipe.path}' > '${out}'`])
    const writer = new BufferedLineWriter(pipe.writer)
    const line = (i: number) => `{"n":${i},"pad":"${'x'.repeat(200)}"}\n`
    const lines = 2_000 // ≈ 420 KB, far beyond the pipe's 64 KiB
    for (let i = 0; i < lines; i++) writer.write(line(i))
    expect(await longestStall(400)).toBeLessThan(100)
    // Once the reader reads, the held lines follow on their own.
    for (let i = 0; i < 300 && writer.heldBytes > 0; i++) await Bun.sleep(10)
    expect(writer.heldBytes).toBe(0)
    closeSync(pipe.writer)
    closeSync(pipe.reader)
    await reader.exited
    const got = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { n: number }).n)
    expect(got).toEqual(Array.from({ length: lines }, (_, i) => i))
  }, 10_000)

  test('lines beyond the held bound are dropped, counted, and a warning says how many', async () => {
    const pipe = fifo()
    const writer = new BufferedLineWriter(pipe.writer, { maxHeldBytes: 10_000, retryMs: 1 })
    const line = (i: number) => `{"n":${i},"pad":"${'x'.repeat(1_000)}"}\n`
    const lines = 200
    for (let i = 0; i < lines; i++) {
      writer.write(line(i))
      // Let each turn's flush fill the pipe, so what is held is what the pipe refused.
      if (i % 20 === 19) await Bun.sleep(2)
    }
    let text = ''
    const buffer = Buffer.alloc(65_536)
    for (let idle = 0; idle < 50; ) {
      let n = 0
      try {
        n = readSync(pipe.reader, buffer, 0, buffer.length, null)
      } catch {
        // EAGAIN: nothing to read yet.
      }
      if (n > 0) {
        text += buffer.toString('utf8', 0, n)
        idle = 0
      } else idle++
      await Bun.sleep(2)
    }
    closeSync(pipe.writer)
    closeSync(pipe.reader)
    const parsed = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { n?: number; msg?: string; dropped?: number })
    const kept = parsed.filter((l) => l.n !== undefined).map((l) => l.n!)
    const warnings = parsed.filter((l) => l.msg !== undefined)
    expect(warnings.length).toBeGreaterThan(0)
    expect(warnings.every((w) => w.msg === 'log lines dropped: stdout was not read fast enough')).toBe(true)
    const dropped = warnings.reduce((sum, w) => sum + w.dropped!, 0)
    expect(kept.length).toBeLessThan(lines)
    expect(kept.length + dropped).toBe(lines)
    // What is kept stays in order.
    expect(kept).toEqual([...kept].sort((a, b) => a - b))
  }, 10_000)
})
