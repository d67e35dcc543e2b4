import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { formatLogLine } from '../../src/platform/log'
import { tempDir } from '../support/cli'

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname

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
    const proc = Bun.spawn(['bun', MAIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--db', db], { stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' })
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
    const answers = await Promise.all(ids.map((id) => fetch(`${url}/health`, { headers: { 'x-correlation-id': id } }).then((r) => r.status)))
    expect(answers.every((s) => s === 200)).toBe(true)
    proc.kill('SIGTERM')
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
    expect(await proc.exited).toBe(0)
    const lines = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
    const logged = new Set(lines.filter((l) => l.msg === 'request').map((l) => l.correlationId))
    expect(ids.filter((id) => !logged.has(id))).toEqual([])
    expect(lines.at(-1)?.msg).toBe('stopped')
  }, 30_000)
})
