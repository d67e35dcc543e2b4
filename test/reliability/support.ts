/**
 * Support for the reliability and security suite (issue 12): a branch provisioned with the
 * CLI, request builders, a raw TCP client, a /health poller in its own process, envelope
 * checks, and the reporter that writes LAST_RUN.md. Every scenario runs `dist/lobby` on
 * 127.0.0.1 only.
 */
import { Database } from 'bun:sqlite'
import { afterAll, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { randomUUID } from 'node:crypto'
import { ROOT, ensureBinary, startBinary, type RunningBinary } from '../support/binary'
import { tempDir } from '../support/cli'

export const HOST = '127.0.0.1'
export const HERE = join(ROOT, 'test', 'reliability')
export const PROVISIONING_FILE = join(HERE, 'provisioning.json')
/**
 * Where a run writes its figures: a temporary file, so a run (CI's too) never rewrites a file of
 * the checkout; `RELIABILITY_REPORT=test/reliability/LAST_RUN.md` refreshes the committed one.
 */
export const LAST_RUN_FILE = process.env.RELIABILITY_REPORT ?? join(tmpdir(), 'lobby-reliability-LAST_RUN.md')

/** IDs of the reliability provisioning file. */
export const IDS = {
  workspace: 'ws_rel',
  unit: 'qu_rel',
  hall: 'loc_hall',
  annex: 'loc_annex',
  accounts: 'svc_accounts',
  loans: 'svc_loans',
  counters: ['cnt_1', 'cnt_2', 'cnt_3', 'cnt_4', 'cnt_5', 'cnt_6', 'cnt_7', 'cnt_8'],
  crashWidgets: ['wdg_crash_0', 'wdg_crash_1', 'wdg_crash_2'],
  raceWidget: 'wdg_race',
  lobbyWidget: 'wdg_lobby',
  fuzzWidgets: {
    ANNOUNCEMENTS: 'wdg_fuzz_announcements',
    TODAYS_SCHEDULE: 'wdg_fuzz_schedule',
    EVENTS: 'wdg_fuzz_events',
    TRANSPORT_BOARD: 'wdg_fuzz_transport',
  },
  source: 'psrc_reliability-0001-central',
  sourceTimezone: 'Europe/London',
  otherWorkspace: 'ws_other',
  otherUnit: 'qu_other',
} as const

export const QUEUE = '/api/public/v1/queue'
export const widgetPushPath = (widgetId: string) => `/api/public/v1/widgets/${widgetId}/data/push`
export const monthsPath = (sourceId: string) => `/api/public/v1/prayer-schedules/sources/${sourceId}/months`

// ───────────────────────────── the CLI and the branch ─────────────────────────────

/** Runs `dist/lobby <args>` to completion. */
export function lobby(args: string[], env: Record<string, string> = {}) {
  const result = Bun.spawnSync([ensureBinary(), ...args], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() }
}

export interface Secrets {
  queue: { main: string; revoked: string; rotated: string; operator: string; other: string }
  workspace: { cms: string; revoked: string; rotated: string; other: string }
  display: { screens: string; revoked: string; rotated: string; other: string }
  webhook: string
}

export interface Branch {
  dir: string
  db: string
  secrets: Secrets
  /** `dist/lobby serve` on 127.0.0.1, a free port, this branch's database, `--durability full`. */
  serve(extraArgs?: string[], env?: Record<string, string>): Promise<RunningBinary>
}

const running: RunningBinary[] = []
afterAll(async () => {
  for (const r of running.splice(0)) if (r.proc.exitCode === null && r.proc.signalCode === null) await r.stop('SIGKILL')
})

/** A fresh database provisioned with the CLI from the reliability file; the secrets come from its JSON output. */
export function provisionBranch(): Branch {
  const dir = tempDir()
  const db = join(dir, 'lobby.db')
  const out = lobby(['provision', '--db', db, '--file', PROVISIONING_FILE])
  if (out.code !== 0) throw new Error(`provision failed (${out.code}): ${out.stderr}`)
  const printed = JSON.parse(out.stdout).secrets as { kind: string; owner: string; name: string; secret: string }[]
  const secret = (kind: string, owner: string, name: string) => {
    const found = printed.find((s) => s.kind === kind && s.owner === owner && s.name === name)
    if (!found) throw new Error(`provision printed no ${kind} secret for ${owner}/${name}`)
    return found.secret
  }
  const secrets: Secrets = {
    queue: {
      main: secret('queue', IDS.unit, 'main'),
      revoked: secret('queue', IDS.unit, 'revoked'),
      rotated: secret('queue', IDS.unit, 'rotated'),
      operator: secret('queue', IDS.unit, 'operator'),
      other: secret('queue', IDS.otherUnit, 'main'),
    },
    workspace: {
      cms: secret('workspace', IDS.workspace, 'cms'),
      revoked: secret('workspace', IDS.workspace, 'revoked'),
      rotated: secret('workspace', IDS.workspace, 'rotated'),
      other: secret('workspace', IDS.otherWorkspace, 'cms'),
    },
    display: {
      screens: secret('display', IDS.workspace, 'screens'),
      revoked: secret('display', IDS.workspace, 'revoked'),
      rotated: secret('display', IDS.workspace, 'rotated'),
      other: secret('display', IDS.otherWorkspace, 'screens'),
    },
    webhook: secret('webhook', 'whk_rel', 'whk_rel'),
  }
  return {
    dir,
    db,
    secrets,
    async serve(extraArgs = [], env = {}) {
      const server = await startBinary(['serve', '--port', '0', '--host', HOST, '--db', db, '--durability', 'full', ...extraArgs], env)
      if (!server.url.startsWith(`http://${HOST}:`)) throw new Error(`server is not on ${HOST}: ${server.url}`)
      running.push(server)
      return server
    },
  }
}

/** Whether the server process is still alive. */
export const alive = (server: RunningBinary) => server.proc.exitCode === null && server.proc.signalCode === null

// ───────────────────────────── requests ─────────────────────────────

export const ticketBody = (locationId: string = IDS.hall, serviceId: string = IDS.accounts, externalReference?: string) =>
  JSON.stringify(externalReference === undefined ? { locationId, serviceId } : { locationId, serviceId, externalReference })

export interface TicketOptions {
  /** X-Request-Timestamp (default: now). */
  timestamp?: string
  nonce?: string
  headers?: Record<string, string>
  signal?: AbortSignal
}

/** POST a ticket the way an integrator does: a fresh nonce and timestamp, the given key and body. */
export function issueTicket(base: string, secret: string, idempotencyKey: string, body: string, options: TicketOptions = {}) {
  return fetch(`${base}${QUEUE}/tickets`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${secret}`,
      'content-type': 'application/json',
      'x-request-timestamp': options.timestamp ?? new Date().toISOString(),
      'x-request-nonce': options.nonce ?? randomUUID(),
      'idempotency-key': idempotencyKey,
      ...options.headers,
    },
    body,
    signal: options.signal,
  })
}

/** POST a widget snapshot; `body` is sent byte for byte. */
export function pushWidget(base: string, secret: string, widgetId: string, idempotencyKey: string | null, body: string, signal?: AbortSignal) {
  const headers: Record<string, string> = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }
  if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey
  return fetch(`${base}${widgetPushPath(widgetId)}`, { method: 'POST', headers, body, signal })
}

/** A valid ANNOUNCEMENTS push with `source.sequence`. */
export function announcementsPush(sequence: number, tag: string, items = 2): string {
  return JSON.stringify({
    pushVersion: 1,
    widgetType: 'ANNOUNCEMENTS',
    writeMode: 'REPLACE_SNAPSHOT',
    source: { eventId: `evt-${tag}-${sequence}`, sequence },
    data: {
      schemaVersion: 2,
      title: `Notices ${tag}`,
      items: Array.from({ length: items }, (_, i) => ({ id: `n-${i}`, title: `Notice ${i} of ${tag}`, body: `Sequence ${sequence}.` })),
    },
  })
}

/** POST a prayer month; `body` is sent byte for byte. */
export function pushMonth(base: string, secret: string, sourceId: string, idempotencyKey: string, body: string) {
  return fetch(`${base}${monthsPath(sourceId)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body,
  })
}

/** `YYYY-MM` of now in the prayer source's time zone (what the display `today` read needs). */
export function currentPeriod(timeZone: string = IDS.sourceTimezone): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).format(new Date()).slice(0, 7)
}

// ───────────────────────────── the database ─────────────────────────────

export interface RowCounts {
  tickets: number
  ticketSequenceSum: number
  widgetSnapshots: number
  widgetRevisionSum: number
  prayerMonths: number
  prayerRevisionSum: number
  idempotencyRecords: number
}

/** Reads the database file directly (WAL: safe beside the running server). */
export function withDb<T>(path: string, read: (db: Database) => T): T {
  const db = new Database(path)
  try {
    db.exec('PRAGMA busy_timeout = 5000')
    return read(db)
  } finally {
    db.close()
  }
}

export function rowCounts(path: string): RowCounts {
  return withDb(path, (db) => {
    const one = (sql: string) => (db.query(sql).get() as { n: number | null }).n ?? 0
    return {
      tickets: one('SELECT count(*) AS n FROM tickets'),
      ticketSequenceSum: one('SELECT sum(last_seq) AS n FROM ticket_sequences'),
      widgetSnapshots: one('SELECT count(*) AS n FROM widget_snapshots'),
      widgetRevisionSum: one('SELECT sum(data_revision) AS n FROM widget_snapshots'),
      prayerMonths: one('SELECT count(*) AS n FROM prayer_months'),
      prayerRevisionSum: one('SELECT sum(revision) AS n FROM prayer_months'),
      idempotencyRecords: one('SELECT count(*) AS n FROM idempotency_records'),
    }
  })
}

export function integrityCheck(path: string): string {
  return withDb(path, (db) => (db.query('PRAGMA integrity_check').all() as { integrity_check: string }[]).map((r) => r.integrity_check).join('; '))
}

/** Ticket numbers that occur more than once per location, prefix and business day. */
export function duplicateTicketNumbers(path: string): { location_id: string; prefix: string; business_day: string; ticket_number: string; n: number }[] {
  return withDb(path, (db) => db.query(
    `SELECT location_id, prefix, business_day, ticket_number, count(*) AS n FROM tickets
     GROUP BY location_id, prefix, business_day, ticket_number HAVING count(*) > 1`,
  ).all() as never)
}

// ───────────────────────────── envelope checks ─────────────────────────────

const CORRELATION = /^[A-Za-z0-9_.:-]{1,120}$/

/**
 * What is wrong with a response against contract §2: a 5xx; no valid X-Correlation-ID; a
 * non-2xx (other than 304) that is not `{"error":{"code","message"}}` JSON, or whose
 * `correlationId` differs from the header. Empty when the response is fine.
 */
export function envelopeProblems(status: number, headers: Headers | Record<string, string>, text: string): string[] {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name.toLowerCase()] ?? null)
  const problems: string[] = []
  if (status >= 500) problems.push(`status ${status}`)
  const correlationId = get('x-correlation-id')
  if (correlationId === null || !CORRELATION.test(correlationId)) problems.push(`X-Correlation-ID missing or invalid (${correlationId})`)
  if (status >= 300 && status !== 304) {
    if (!(get('content-type') ?? '').includes('application/json')) problems.push(`content-type ${get('content-type')}`)
    let body: any
    try {
      body = JSON.parse(text)
    } catch {
      problems.push(`body is not JSON: ${text.slice(0, 120)}`)
      return problems
    }
    if (typeof body?.error?.code !== 'string' || typeof body?.error?.message !== 'string') problems.push(`not the error envelope: ${text.slice(0, 160)}`)
    else if (body.error.correlationId !== undefined && body.error.correlationId !== correlationId) problems.push('error.correlationId differs from the header')
  }
  return problems
}

/** Asserts a refusal: status, code, envelope and correlation ID. Returns the parsed body. */
export async function expectRefusal(response: Response, status: number, code: string, what = ''): Promise<any> {
  const text = await response.text()
  const problems = envelopeProblems(response.status, response.headers, text)
  let body: any = null
  try {
    body = JSON.parse(text)
  } catch {}
  if (response.status !== status || body?.error?.code !== code || problems.length > 0) {
    throw new Error(`${what}: expected ${status} ${code}, got ${response.status} ${text.slice(0, 200)} ${problems.join('; ')}`)
  }
  return body
}

// ───────────────────────────── concurrency ─────────────────────────────

/** Runs `fn` over `items` with at most `concurrency` in flight. */
export async function pool<T>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      await fn(items[i]!, i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
}

// ───────────────────────────── raw TCP ─────────────────────────────

export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * One TCP connection to the server (`Bun.connect`), for what `fetch` cannot send: lying
 * Content-Length, byte-by-byte bodies, invalid header bytes, header floods.
 */
export class RawConnection {
  private chunks: Uint8Array[] = []
  private size = 0
  closed = false
  closedAt: number | null = null
  readonly openedAt = performance.now()
  private drainWaiters: (() => void)[] = []
  private socket!: Awaited<ReturnType<typeof Bun.connect>>

  static async open(base: string): Promise<RawConnection> {
    const url = new URL(base)
    if (url.hostname !== HOST) throw new Error(`raw connections go to ${HOST} only`)
    const conn = new RawConnection()
    conn.socket = await Bun.connect({
      hostname: url.hostname,
      port: Number(url.port),
      socket: {
        data: (_s, data) => {
          conn.chunks.push(new Uint8Array(data))
          conn.size += data.byteLength
        },
        drain: () => conn.wake(),
        close: () => conn.markClosed(),
        error: () => conn.markClosed(),
        end: () => conn.markClosed(),
      },
    })
    return conn
  }

  private markClosed() {
    if (!this.closed) {
      this.closed = true
      this.closedAt = performance.now()
    }
    this.wake()
  }

  private wake() {
    for (const w of this.drainWaiters.splice(0)) w()
  }

  /** Writes all of `data` (waiting for the socket to drain); false when the connection closed first. */
  async write(data: string | Uint8Array): Promise<boolean> {
    let bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data
    while (bytes.byteLength > 0) {
      if (this.closed) return false
      const n = this.socket.write(bytes)
      if (n < 0) return false
      bytes = bytes.subarray(n)
      if (bytes.byteLength > 0) await new Promise<void>((resolve) => {
        this.drainWaiters.push(resolve)
        setTimeout(resolve, 50)
      })
    }
    return true
  }

  received(): Uint8Array {
    if (this.chunks.length !== 1) {
      const all = new Uint8Array(this.size)
      let offset = 0
      for (const c of this.chunks) {
        all.set(c, offset)
        offset += c.byteLength
      }
      this.chunks = [all]
    }
    return this.chunks[0] ?? new Uint8Array(0)
  }

  /** Complete responses received so far, in order. */
  responses(): RawResponse[] {
    return parseResponses(this.received()).responses
  }

  /** Waits until `predicate` holds or `timeoutMs` passes; returns whether it held. */
  async until(predicate: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs
    while (!predicate()) {
      if (performance.now() > deadline) return false
      await Bun.sleep(5)
    }
    return true
  }

  end(): void {
    try {
      this.socket.end()
    } catch {}
    this.markClosed()
  }
}

/** Parses HTTP/1.1 responses (Content-Length or chunked bodies, or none) from raw bytes. */
export function parseResponses(buf: Uint8Array): { responses: RawResponse[]; incomplete: boolean } {
  const text = Buffer.from(buf).toString('latin1')
  const responses: RawResponse[] = []
  let at = 0
  while (at < text.length) {
    const headEnd = text.indexOf('\r\n\r\n', at)
    if (headEnd < 0) return { responses, incomplete: true }
    const [statusLine, ...lines] = text.slice(at, headEnd).split('\r\n')
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? NaN)
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(':')
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
    }
    let bodyStart = headEnd + 4
    let body = ''
    if (headers['transfer-encoding']?.includes('chunked')) {
      for (;;) {
        const lineEnd = text.indexOf('\r\n', bodyStart)
        if (lineEnd < 0) return { responses, incomplete: true }
        const size = parseInt(text.slice(bodyStart, lineEnd), 16)
        if (text.length < lineEnd + 2 + size + 2) return { responses, incomplete: true }
        body += text.slice(lineEnd + 2, lineEnd + 2 + size)
        bodyStart = lineEnd + 2 + size + 2
        if (size === 0) break
      }
      at = bodyStart
    } else {
      const length = Number(headers['content-length'] ?? 0)
      if (text.length < bodyStart + length) return { responses, incomplete: true }
      body = text.slice(bodyStart, bodyStart + length)
      at = bodyStart + length
    }
    responses.push({ status, headers, body: Buffer.from(body, 'latin1').toString('utf8') })
  }
  return { responses, incomplete: false }
}

// ───────────────────────────── /health poller ─────────────────────────────

export interface PollStats {
  /** Epoch milliseconds of the first poll; `slowest[].at` counts from it. */
  startedAt: number
  samples: number
  failures: number
  maxMs: number
  p50Ms: number
  p99Ms: number
  slowest: { at: number; ms: number; error?: string }[]
}

/**
 * Polls `GET /health` from a separate process (so the attack traffic of this process does not
 * delay the measurement) every `intervalMs` for `durationMs`; resolves with latency figures.
 */
export function pollHealth(base: string, durationMs: number, intervalMs = 20): { done: Promise<PollStats>; ready: Promise<void> } {
  // Raised priority where allowed (root): on a 2-core box the attackers would otherwise delay the poller itself.
  const nice = process.getuid?.() === 0 ? ['nice', '-n', '-10'] : []
  const proc = Bun.spawn([...nice, process.execPath, join(HERE, 'health-poller.ts'), base, String(durationMs), String(intervalMs)], { stdout: 'pipe', stderr: 'pipe' })
  const output = new Response(proc.stdout).text()
  const ready = (async () => {
    // The poller prints nothing until done; give it time to load and open its connection.
    await Bun.sleep(300)
  })()
  const done = (async () => {
    const [text, code] = await Promise.all([output, proc.exited])
    if (code !== 0) throw new Error(`health poller failed (${code}): ${await new Response(proc.stderr).text()}`)
    return JSON.parse(text) as PollStats
  })()
  return { done, ready }
}

// ───────────────────────────── figures and LAST_RUN.md ─────────────────────────────

type Outcome = 'passed' | 'failed' | 'skipped' | 'did not finish'

interface TestRecord {
  title: string
  outcome: Outcome
  ms: number
  detail?: string
}

/** The figures one scenario collects; written to LAST_RUN.md when its file finishes. */
export class Scenario {
  readonly figures = new Map<string, number | string>()
  readonly tests: TestRecord[] = []
  readonly notes: string[] = []
  readonly startedAt = performance.now()
  endedAt: number | null = null

  constructor(readonly name: string, readonly summary: string) {}

  add(figure: string, n = 1): void {
    const current = this.figures.get(figure)
    this.figures.set(figure, (typeof current === 'number' ? current : 0) + n)
  }

  set(figure: string, value: number | string): void {
    this.figures.set(figure, value)
  }

  note(text: string): void {
    this.notes.push(text)
  }

  /** A bun test whose outcome and time are recorded for LAST_RUN.md. */
  test(title: string, fn: () => Promise<void>, timeoutMs: number): void {
    test(title, async () => {
      const record: TestRecord = { title, outcome: 'did not finish', ms: 0 }
      this.tests.push(record)
      const t0 = performance.now()
      try {
        await fn()
        record.outcome = 'passed'
      } catch (error) {
        record.outcome = 'failed'
        record.detail = String((error as Error)?.message ?? error).split('\n').slice(0, 6).join(' ').slice(0, 600)
        throw error
      } finally {
        record.ms = performance.now() - t0
      }
    }, timeoutMs)
  }

  /** A test skipped because what it needs is not built; the reason goes to LAST_RUN.md. */
  skip(title: string, reason: string): void {
    this.tests.push({ title, outcome: 'skipped', ms: 0, detail: reason })
    test.skip(`${title} — SKIPPED: ${reason}`, () => {})
  }
}

const RUN = {
  startedAt: new Date(),
  t0: performance.now(),
  scenarios: [] as Scenario[],
}

/** Declares a scenario file; its figures are written to LAST_RUN.md once the file's tests end. */
export function scenario(name: string, summary: string): Scenario {
  const s = new Scenario(name, summary)
  RUN.scenarios.push(s)
  afterAll(() => {
    s.endedAt = performance.now()
    writeLastRun()
  })
  return s
}

function git(...args: string[]): string {
  const r = Bun.spawnSync(['git', ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'ignore' })
  return r.stdout.toString().trim()
}

const fmt = (v: number | string) => (typeof v === 'number' ? v.toLocaleString('en-US') : v)

/** A figure summed over the scenarios of this run. */
const total = (figure: string) => RUN.scenarios.reduce((n, s) => n + (typeof s.figures.get(figure) === 'number' ? (s.figures.get(figure) as number) : 0), 0)

export function writeLastRun(): void {
  const wall = (performance.now() - RUN.t0) / 1000
  const commit = git('rev-parse', '--short', 'HEAD') || 'unknown'
  const dirty = git('status', '--porcelain', '--', 'src').length > 0 ? ' (with uncommitted changes in src/)' : ''
  const all = RUN.scenarios.flatMap((s) => s.tests)
  const count = (o: Outcome) => all.filter((t) => t.outcome === o).length
  const lines: string[] = [
    '# Reliability suite: last run',
    '',
    'Written by `bun run test:reliability` (test/reliability/support.ts); do not edit by hand.',
    '',
    `- Run: ${RUN.startedAt.toISOString()}, commit ${commit}${dirty}, Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores`,
    `- Against: dist/lobby on ${HOST}, \`--durability full\``,
    `- Wall time of the scenarios: ${wall.toFixed(1)} s (the build before them not included)`,
    `- Tests: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped${count('did not finish') ? `, ${count('did not finish')} did not finish` : ''}`,
    `- Totals: ${(['requests sent', 'crashes survived', 'inputs tried', 'records lost'] as const).map((f) => `${f} ${fmt(total(f))}`).join(', ')}`,
    '',
    '| scenario | tests | time | figures |',
    '|---|---|---|---|',
  ]
  for (const s of RUN.scenarios) {
    const ok = s.tests.filter((t) => t.outcome === 'passed').length
    const time = ((s.endedAt ?? performance.now()) - s.startedAt) / 1000
    const figures = [...s.figures].filter(([k]) => !k.startsWith('_')).map(([k, v]) => `${k}: ${fmt(v)}`).join('; ')
    lines.push(`| ${s.name} | ${ok}/${s.tests.length} passed | ${time.toFixed(1)} s | ${figures} |`)
  }
  for (const s of RUN.scenarios) {
    lines.push('', `## ${s.name}`, '', s.summary, '')
    for (const t of s.tests) {
      lines.push(`- ${t.outcome === 'passed' ? 'passed' : t.outcome.toUpperCase()}: ${t.title} (${(t.ms / 1000).toFixed(1)} s)${t.detail ? ` — ${t.detail.replace(/\|/g, '\\|')}` : ''}`)
    }
    for (const n of s.notes) lines.push(`- note: ${n}`)
  }
  // The secrets of a run's throwaway database are still secrets in form: never write one into the repository.
  writeFileSync(LAST_RUN_FILE, lines.join('\n').replace(/\b(lb[qwdh]_)[A-Za-z0-9_-]{8,}/g, '$1…') + '\n')
  console.log(`reliability figures: ${LAST_RUN_FILE}`)
}
