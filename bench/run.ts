#!/usr/bin/env bun
/**
 * `bun run bench`: Lobby against the bare runtime, in one run, on this machine.
 *
 * Builds dist/lobby, installs wrk when missing, provisions a temporary database with the CLI
 * from bench/provision.json (raised rate limits), starts `dist/lobby serve` at the default
 * durability (full) and two baselines (a bare Bun.serve answering the state read's bytes, a
 * bare Bun.serve + bun:sqlite server doing one INSERT per request in one transaction at
 * `synchronous = FULL`), and drives them with wrk through bench/lua/*.lua. Servers run on
 * core 1, wrk and this script on core 0. Every scenario: a warm-up, then the median of 3
 * runs. Writes bench/RESULTS.md (the measured part, then bench/analysis.md verbatim).
 *
 * Environment (for quick looks while optimising; the defaults are what RESULTS.md reports):
 *   BENCH_DURATION=10      seconds per measured run      BENCH_WARMUP=2   seconds of warm-up
 *   BENCH_RUNS=3           measured runs per scenario    BENCH_SEED=1000000 tickets for the big database
 *   BENCH_ISSUE_RUNS=5     measured runs of ticket issue (with the bare insert server, its twin and its A/A control)
 *   BENCH_QUIET_WAIT=600   longest wait, in seconds, for the 1-minute load average to drop below 0.7
 *   BENCH_ONLY=reads,writes,push,big,reports   run only these phases (`reports`: bench/reports.ts,
 *                          which writes its own section of RESULTS.md; the others keep it)
 *   BENCH_ONLY=replication  alone: bench/replication.ts, ticket issue with head-office
 *                          replication on and off (its own section of RESULTS.md, kept likewise)
 *   BENCH_ONLY=estimates    alone: bench/simulate.ts, wait estimates against simulated branch days
 *                          (contract §19; no build, no server; its own section of RESULTS.md, kept likewise)
 *   BENCH_OUT=path         write the report elsewhere    BENCH_NO_BUILD=1 use the dist/lobby there is
 *   BENCH_DATA=path        where the measurements go (bench/results.json)
 *   BENCH_BEFORE=450c735   the code "before" (part one's last commit): built from git into a
 *                          temporary directory and run beside this code in the same rounds, so
 *                          each scenario also has its ratio to itself before; `none` turns it off
 *   BENCH_REPORT_ONLY=1    write the report again from BENCH_DATA, measuring nothing
 */
import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedTicketHistory } from './seed'
import { reportsBench, currentReportsSection } from './reports'
import { replicationBench, currentReplicationSection } from './replication'
import { currentManageSection } from './manage'
import { currentAppointmentsSection } from './appointments'
import { currentHqChainSection } from './hq-chain-section'
import { buildBaselines, coldStartMs, idleMemory, lobbyServe } from './start'
import { buildFloors } from './floors'
import { runEstimateBench, currentEstimatesSection } from './simulate'
import { addPartThreeData, DAYS, STAFF } from './part-three'
import { freePort } from './processes'

const ROOT = join(import.meta.dir, '..')
const BENCH = import.meta.dir
const BINARY = join(ROOT, 'dist', 'lobby')
const LUA = join(BENCH, 'lua')

const env = (name: string, fallback: number) => (process.env[name] === undefined ? fallback : Number(process.env[name]))
const CONFIG = {
  duration: env('BENCH_DURATION', 10),
  warmup: env('BENCH_WARMUP', 2),
  runs: env('BENCH_RUNS', 3),
  /** Ticket issue's rounds: its per-round ratios spread ±20 % here (fsync and CPU share), so it gets more. */
  issueRuns: env('BENCH_ISSUE_RUNS', 5),
  seedTickets: env('BENCH_SEED', 1_000_000),
  seedDays: 1000,
  quietWait: env('BENCH_QUIET_WAIT', 600),
  quietLoad: 0.7,
  connections: 16,
  threads: 2,
  coldStarts: 15,
  /** Appointments in the main database (Part three's data, bench/part-three.ts). */
  bookings: env('BENCH_BOOKINGS', 10_000),
  serverCore: '1',
  clientCore: '0',
  out: process.env.BENCH_OUT ?? join(BENCH, 'RESULTS.md'),
  data: process.env.BENCH_DATA ?? join(BENCH, 'results.json'),
  only: new Set((process.env.BENCH_ONLY ?? 'reads,writes,push,big,reports').split(',')),
  build: process.env.BENCH_NO_BUILD !== '1',
  before: process.env.BENCH_BEFORE ?? '450c735',
}

const QUEUE = '/api/public/v1/queue'
const PUSH_PATH = '/api/public/v1/widgets/wdg_bench_schedule/data/push'
const ISSUE_BODY = JSON.stringify({ locationId: 'loc_hall', serviceId: 'svc_accounts', externalReference: 'bench' })

// ---------------------------------------------------------------------------------------------
// Processes, ports, memory, load

const started: Proc[] = []

interface Proc {
  name: string
  pid: number
  url: string
  proc: ReturnType<typeof Bun.spawn>
}

function say(line: string): void {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`)
}

function run(argv: string[], options: { timeoutMs?: number; inherit?: boolean; cwd?: string } = {}): string {
  const result = Bun.spawnSync(argv, {
    cwd: options.cwd ?? ROOT,
    stdout: options.inherit ? 'inherit' : 'pipe',
    stderr: options.inherit ? 'inherit' : 'pipe',
    timeout: options.timeoutMs ?? 600_000,
  })
  if (result.exitCode !== 0) {
    throw new Error(`${argv.join(' ')} exited ${result.exitCode}: ${result.stderr?.toString() ?? ''}`)
  }
  return result.stdout?.toString() ?? ''
}

function tryRun(argv: string[]): string {
  try {
    return run(argv, { timeoutMs: 30_000 }).trim()
  } catch (error) {
    return `(${argv[0]} failed: ${String((error as Error).message).split('\n')[0]})`
  }
}


async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url)
      await response.arrayBuffer()
      if (response.ok) return
    } catch {}
    await Bun.sleep(20)
  }
  throw new Error(`no answer from ${url} within ${timeoutMs} ms`)
}

/** Starts a server pinned to the server core, its output in `logFile`, and waits until `readyPath` answers. */
async function startServer(name: string, argv: string[], port: number, logFile: string, readyPath: string): Promise<Proc> {
  const fd = openSync(logFile, 'a')
  const childEnv: Record<string, string | undefined> = { ...process.env }
  delete childEnv.LOBBY_DURABILITY
  const proc = Bun.spawn(['taskset', '-c', CONFIG.serverCore, ...argv], { cwd: ROOT, stdout: fd, stderr: fd, stdin: 'ignore', env: childEnv })
  closeSync(fd)
  const server: Proc = { name, pid: proc.pid, url: `http://127.0.0.1:${port}`, proc }
  started.push(server)
  await waitForHttp(server.url + readyPath, 15_000)
  return server
}

async function stopServer(server: Proc): Promise<void> {
  server.proc.kill('SIGTERM')
  const exited = await Promise.race([server.proc.exited, Bun.sleep(15_000).then(() => null)])
  if (exited === null) server.proc.kill('SIGKILL')
  const index = started.indexOf(server)
  if (index >= 0) started.splice(index, 1)
}

function startLobby(name: string, dbPath: string, logFile: string, binary = BINARY): Promise<Proc> {
  const port = freePort()
  return startServer(name, [binary, 'serve', '--port', String(port), '--host', '127.0.0.1', '--db', dbPath], port, logFile, '/health')
}

/**
 * The code before (`CONFIG.before`, a commit) built from this repository's history into `dir`:
 * its files from `git archive`, its locked dependencies, its own `bun run build`. Null, with
 * the reason said, when it cannot be built here (no git history in the copy, no registry).
 */
function buildBefore(dir: string): string | null {
  try {
    run(['sh', '-c', `git -C '${ROOT}' archive '${CONFIG.before}' | tar -x -C '${dir}'`])
    run(['bun', 'install', '--frozen-lockfile'], { cwd: dir })
    run(['bun', 'run', 'build'], { cwd: dir })
    const binary = join(dir, 'dist', 'lobby')
    if (!existsSync(binary)) throw new Error(`no ${binary} after the build`)
    return binary
  } catch (error) {
    say(`the code before (${CONFIG.before}) could not be built, so no scenario is compared with it: ${String((error as Error).message).split('\n')[0]}`)
    return null
  }
}

/** The name of a scenario's twin run against the code before. */
const beforeName = (name: string) => `${name} (before: ${CONFIG.before})`
/** The name of a scenario run again against this code on a second server (the A/A control). */
const sameCodeName = (name: string) => `${name} (this code, second server)`

/**
 * RSS once the server is idle: the lowest of samples taken every 250 ms for `ms`. Right after a
 * load the heap still holds garbage that the collector returns to the system over the next
 * seconds; the lowest sample is the memory the process actually keeps.
 */
async function settledRssKb(pid: number, ms = 4000): Promise<number> {
  let lowest = rssKb(pid)
  for (let waited = 0; waited < ms; waited += 250) {
    await Bun.sleep(250)
    lowest = Math.min(lowest, rssKb(pid))
  }
  return lowest
}

function rssKb(pid: number): number {
  return statusKb(pid, 'VmRSS')
}

/** One `kB` figure of /proc/<pid>/status (VmRSS, RssAnon…). */
function statusKb(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)
  if (match === null) throw new Error(`no ${field} for ${pid}`)
  return Number(match[1])
}

function loadAverage(): number {
  return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0])
}

/** Waits (bounded) until the 1-minute load average is below the threshold; returns what it saw. */
async function waitForQuiet(): Promise<{ waitedSeconds: number; load: number; quiet: boolean }> {
  const start = Date.now()
  for (;;) {
    const load = loadAverage()
    const waitedSeconds = Math.round((Date.now() - start) / 1000)
    if (load < CONFIG.quietLoad) return { waitedSeconds, load, quiet: true }
    if (waitedSeconds >= CONFIG.quietWait) return { waitedSeconds, load, quiet: false }
    say(`1-minute load average ${load.toFixed(2)} ≥ ${CONFIG.quietLoad}; waiting (${waitedSeconds} of at most ${CONFIG.quietWait} s)`)
    await Bun.sleep(Math.min(15_000, Math.max(1000, (CONFIG.quietWait - waitedSeconds) * 1000)))
  }
}

// ---------------------------------------------------------------------------------------------
// wrk

interface WrkRun {
  requests: number
  durationUs: number
  connectErrors: number
  readErrors: number
  writeErrors: number
  statusErrors: number
  timeouts: number
  p50Us: number
  p90Us: number
  p99Us: number
  maxUs: number
  meanUs: number
  rps: number
  load: number
}

let saltCounter = 0
/** Unique per wrk run, so nonces and Idempotency-Keys never repeat across runs. */
function salt(): string {
  saltCounter += 1
  return `${Date.now().toString(36)}${saltCounter}`
}

function wrk(script: string, url: string, args: string[], seconds: number): WrkRun {
  const load = loadAverage()
  const output = run(
    ['taskset', '-c', CONFIG.clientCore, 'wrk', `-t${CONFIG.threads}`, `-c${CONFIG.connections}`, `-d${seconds}s`, '--timeout', '10s',
      '-s', join(LUA, script), url, '--', ...args],
    { timeoutMs: (seconds + 60) * 1000 },
  )
  const line = output.split('\n').find((l) => l.startsWith('BENCH_JSON '))
  if (line === undefined) throw new Error(`wrk printed no result:\n${output}`)
  const parsed = JSON.parse(line.slice('BENCH_JSON '.length)) as Omit<WrkRun, 'rps' | 'load'>
  return { ...parsed, rps: parsed.requests / (parsed.durationUs / 1e6), load }
}

function errorsOf(r: WrkRun): number {
  return r.connectErrors + r.readErrors + r.writeErrors + r.statusErrors + r.timeouts
}

interface Scenario {
  name: string
  /** What `ratio` compares against (a baseline or the same scenario on the empty database). */
  baseline?: string
  script: string
  url: () => string
  args: () => string[]
  runs: WrkRun[]
  warmups: WrkRun[]
  note?: string
}

function scenario(name: string, script: string, url: () => string, args: () => string[], baseline?: string, note?: string): Scenario {
  return { name, script, url, args, runs: [], warmups: [], ...(baseline ? { baseline } : {}), ...(note ? { note } : {}) }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** The run whose requests/s is the median; its latencies are reported with it. */
function medianRun(s: Scenario): WrkRun {
  const sorted = [...s.runs].sort((a, b) => a.rps - b.rps)
  return sorted[Math.floor(sorted.length / 2)]!
}

function warm(s: Scenario): void {
  if (CONFIG.warmup > 0) {
    const r = wrk(s.script, s.url(), s.args(), CONFIG.warmup)
    s.warmups.push(r)
    if (errorsOf(r) > 0) say(`  ${s.name} warm-up: ${errorsOf(r)} errors`)
  }
}

function measure(s: Scenario): WrkRun {
  const r = wrk(s.script, s.url(), s.args(), CONFIG.duration)
  s.runs.push(r)
  say(`  ${s.name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${(r.p50Us / 1000).toFixed(2)} ms  p99 ${(r.p99Us / 1000).toFixed(2)} ms` +
    (errorsOf(r) > 0 ? `  ERRORS ${errorsOf(r)}` : '') + `  (load ${r.load.toFixed(2)})`)
  return r
}

/**
 * Warm each, then `runs` rounds, each measuring every scenario once (neighbours in time compare
 * fairly). Each round starts one scenario later than the one before, so no scenario always
 * runs first or last in its round (an A/A control showed the third place of a round ~10 %
 * slower than the first in a short run).
 */
function rounds(scenarios: Scenario[], afterWarmUp?: () => Promise<void>, runs = CONFIG.runs): Promise<void> | void {
  for (const s of scenarios) warm(s)
  const measureAll = () => {
    for (let round = 0; round < runs; round++) {
      const start = round % scenarios.length
      for (const s of [...scenarios.slice(start), ...scenarios.slice(0, start)]) measure(s)
    }
  }
  if (afterWarmUp === undefined) return measureAll()
  return afterWarmUp().then(measureAll)
}

/** Every request wrk completed for `s`, warm-ups included. */
function allRequests(s: Scenario): number {
  return [...s.warmups, ...s.runs].reduce((n, r) => n + r.requests, 0)
}

// ---------------------------------------------------------------------------------------------
// Lobby requests made by the script itself (preflight checks)

function isoSecond(ms = Date.now()): string {
  return new Date(ms).toISOString().slice(0, 19) + 'Z'
}

async function issueOnce(base: string, secret: string, key: string): Promise<Response> {
  return fetch(`${base}${QUEUE}/tickets`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${secret}`,
      'content-type': 'application/json',
      'x-request-timestamp': isoSecond(),
      'x-request-nonce': `preflight.${salt()}`,
      'idempotency-key': key,
    },
    body: ISSUE_BODY,
  })
}

async function expectStatus(what: string, response: Response, status: number): Promise<string> {
  const text = await response.text()
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status} ${text}`)
  return text
}

/**
 * The waiting count once requests still in flight when wrk stopped have been written: read
 * until two reads 200 ms apart agree (at most 5 s).
 */
async function settledWaitingAtHall(base: string, secret: string): Promise<number> {
  let last = await waitingAtHall(base, secret)
  for (let i = 0; i < 25; i++) {
    await Bun.sleep(200)
    const next = await waitingAtHall(base, secret)
    if (next === last) return next
    last = next
  }
  return last
}

/** Waiting tickets of svc_accounts at loc_hall, from the state read: counts tickets written. */
async function waitingAtHall(base: string, secret: string): Promise<number> {
  const body = JSON.parse(await expectStatus('state read', await fetch(`${base}${QUEUE}/state`, { headers: { authorization: `Bearer ${secret}` } }), 200)) as {
    data: { services: { id: string; locationId: string; waiting: number }[] }
  }
  return body.data.services.find((s) => s.id === 'svc_accounts' && s.locationId === 'loc_hall')?.waiting ?? 0
}

/** A 100-item TODAYS_SCHEDULE for today in Europe/Berlin, no `source.sequence`. */
function scheduleBody(): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(Date.now())
  const items = Array.from({ length: 100 }, (_, i) => {
    const minutes = 8 * 60 + i * 5
    const hh = String(Math.floor(minutes / 60)).padStart(2, '0')
    const mm = String(minutes % 60).padStart(2, '0')
    const end = minutes + 4
    return {
      id: `item-${i + 1}`,
      title: `Appointment ${i + 1}: pension advice`,
      startAt: `${today}T${hh}:${mm}:00+01:00`,
      endAt: `${today}T${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}:00+01:00`,
      location: `Room ${(i % 6) + 1}`,
      host: `Advisor ${(i % 9) + 1}`,
      status: i < 20 ? 'COMPLETED' : i === 20 ? 'IN_PROGRESS' : 'SCHEDULED',
    }
  })
  return JSON.stringify({
    pushVersion: 1,
    widgetType: 'TODAYS_SCHEDULE',
    writeMode: 'REPLACE_SNAPSHOT',
    source: { eventId: 'bench-cms' },
    data: { schemaVersion: 2, title: 'Today in the lobby', timezone: 'Europe/Berlin', date: today, items },
  })
}

// ---------------------------------------------------------------------------------------------
// Report

const ms = (us: number) => (us / 1000).toFixed(2)
const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a')
const mib = (kb: number) => (kb / 1024).toFixed(1)

interface Facts {
  date: string
  machine: { nproc: string; lscpu: string; free: string; kernel: string; bun: string; wrk: string; fs: string }
  quiet: { waitedSeconds: number; load: number; quiet: boolean }
  loadAtEnd: number
  binaryBytes: number
  buildSeconds: number
  /** Spawn → first /health 200 with both cores, as the server runs when deployed. */
  coldStartsMs: number[]
  /** The same with the server pinned to the server core, as in the load runs (absent in older data). */
  coldStartsPinnedMs?: number[]
  /** A compiled bare Bun.serve's cold starts, measured between Lobby's (absent in older data). */
  coldStartsBareMs?: number[]
  /** A compiled one-route Elysia app's cold starts (bench/servers/elysia-health.ts), between Lobby's (absent in older data). */
  coldStartsElysiaMs?: number[]
  /** The fixed stack's (bench/servers/stack-health.ts: Elysia, Drizzle with the tables, the database opened and checked), likewise. */
  coldStartsStackMs?: number[]
  /** The fixed stack's idle memory (lowest over 3 s after /health; absent in older data). */
  stackIdle?: { vmRssKb: number; rssAnonKb: number }
  /** Lobby's own floors (bench/floors.ts), between Lobby's starts: without its feature routes, and without any feature (absent in older data). */
  coldStartsRoutelessMs?: number[]
  coldStartsFeaturelessMs?: number[]
  /** The floor without any feature: idle memory as the stack's. */
  featurelessIdle?: { vmRssKb: number; rssAnonKb: number }
  idleRssKb: number
  /** Idle anonymous memory (RssAnon: the heap and what the process allocated, not the mapped binary; absent in older data). */
  idleAnonKb?: number
  /** RSS once the read rounds' garbage went back to the system, the lowest over 10 idle seconds (absent in older data). */
  afterReadsRssKb?: number
  nonce?: { beforeKb: number; afterKb: number; nonces: number }
  seed?: { tickets: number; events: number; ms: number; bytes: number }
  checks: string[]
  wallSeconds: number
  /** The commit run beside this code as "before" (absent when it was not built). */
  before?: string
}

/**
 * The ratio of `a` to `b` by `f`: the median of the per-round ratios when both were measured
 * in the same rounds (each pair ran next to each other in time, so a burst of other load on
 * the machine moves both), else the ratio of the medians.
 */
function pairedRatio(a: Scenario, b: Scenario, f: (r: WrkRun) => number): number {
  if (a.runs.length === 0 || b.runs.length === 0) return NaN
  if (a.runs.length === b.runs.length) return median(a.runs.map((r, i) => f(r) / f(b.runs[i]!)))
  return f(medianRun(a)) / f(medianRun(b))
}

function report(scenarios: Scenario[], facts: Facts): string {
  const byName = new Map(scenarios.map((s) => [s.name, s]))
  const rows: string[] = []
  for (const s of scenarios) {
    if (s.runs.length === 0) continue
    const m = medianRun(s)
    const base = s.baseline ? byName.get(s.baseline) : undefined
    const ratio = base ? fixed(pairedRatio(s, base, (r) => r.rps)) : '—'
    const p99Ratio = base ? fixed(pairedRatio(s, base, (r) => r.p99Us)) : '—'
    const errors = s.runs.reduce((n, r) => n + errorsOf(r), 0)
    rows.push(`| ${s.name} | ${m.rps.toFixed(0)} | ${ms(m.p50Us)} | ${ms(m.p99Us)} | ${s.baseline ?? '—'} | ${ratio} | ${p99Ratio} | ${s.runs.map((r) => r.rps.toFixed(0)).join(' / ')} | ${errors} | ${fixed(median(s.runs.map((r) => r.load)))} |`)
  }

  const ratioOf = (a: string, b: string, f: (r: WrkRun) => number) => {
    const x = byName.get(a)
    const y = byName.get(b)
    return x && y ? pairedRatio(x, y, f) : NaN
  }
  const coldMedian = facts.coldStartsMs.length > 0 ? median(facts.coldStartsMs) : NaN
  const perNonce = facts.nonce ? ((facts.nonce.afterKb - facts.nonce.beforeKb) * 1024) / facts.nonce.nonces : NaN
  const verdict = (ok: boolean | undefined) => (ok === undefined ? 'not measured' : ok ? 'met' : '**missed**')
  const valid = (n: number) => (Number.isFinite(n) ? n : undefined)
  const stateRatio = valid(ratioOf('state read', 'bare Bun.serve (state bytes)', (r) => r.rps))
  const servicesRatio = valid(ratioOf('services list', 'bare Bun.serve (state bytes)', (r) => r.rps))
  const ticketReadRatio = valid(ratioOf('ticket read', 'bare Bun.serve (state bytes)', (r) => r.rps))
  const pushRatio = valid(ratioOf('widget push (100-item schedule)', 'bare Bun.serve + SQLite INSERT', (r) => r.rps))
  const pushP99 = valid(ratioOf('widget push (100-item schedule)', 'bare Bun.serve + SQLite INSERT', (r) => r.p99Us))
  const atLeast = (name: string, value: number | undefined, min: number) => [name, value === undefined ? '—' : `${fixed(value)}×`, verdict(value === undefined ? undefined : value >= min)]
  const issueRatio = valid(ratioOf('ticket issue', 'bare Bun.serve + SQLite INSERT', (r) => r.rps))
  const issueP99 = valid(ratioOf('ticket issue', 'bare Bun.serve + SQLite INSERT', (r) => r.p99Us))
  const bigIssue = valid(ratioOf('ticket issue, empty database', 'ticket issue, 1,000,000 tickets', (r) => r.rps))
  const bigState = valid(ratioOf('state read, empty database', 'state read, 1,000,000 tickets', (r) => r.rps))
  const stackCold = facts.coldStartsStackMs?.length ? median(facts.coldStartsStackMs) : undefined
  const floorCell = (samples: number[] | undefined, stack: number | undefined) => samples?.length
    ? `${fixed(median(samples), 1)} ms${stack === undefined ? '' : `, ${fixed(median(samples) / stack)}× the stack's`} (all: ${samples.map((v) => v.toFixed(0)).join(', ')})`
    : '—'
  // Issue 50: ticket issue and widget push no worse than the code before, as the section
  // "Against the code before" judges it (below its noise band in every round = slower).
  const verdicts = beforeVerdicts(scenarios, facts)
  const noWorse = (name: string) => {
    const judged = verdicts.get(name)
    return [`${name} no worse than the code before${facts.before === undefined ? '' : ` (${facts.before})`} (issue 50)`, judged === undefined ? '—' : `${fixed(judged.ratio)}× (${judged.verdict})`, verdict(judged === undefined ? undefined : judged.verdict !== 'slower')]
  }
  const targets = [
    atLeast('state read ≥ 0.7× bare Bun.serve (aim 0.85×; issues 37, 50)', stateRatio, 0.7),
    atLeast('services list ≥ 0.7× bare Bun.serve (aim 0.85×; issues 37, 50)', servicesRatio, 0.7),
    atLeast('ticket read ≥ 0.7× bare Bun.serve (aim 0.85×; issues 37, 50)', ticketReadRatio, 0.7),
    atLeast('widget push ≥ 0.8× bare insert server', pushRatio, 0.8),
    ['widget push p99 ≤ 2× bare insert p99', pushP99 === undefined ? '—' : `${fixed(pushP99)}×`, verdict(pushP99 === undefined ? undefined : pushP99 <= 2)],
    ['ticket issue ≥ 0.7× bare insert server', issueRatio === undefined ? '—' : `${fixed(issueRatio)}×`, verdict(issueRatio === undefined ? undefined : issueRatio >= 0.7)],
    ['ticket issue p99 ≤ 1.5× bare insert p99 (16 connections)', issueP99 === undefined ? '—' : `${fixed(issueP99)}×`, verdict(issueP99 === undefined ? undefined : issueP99 <= 1.5)],
    ['1,000,000 tickets: issue within 1.2× of empty (empty ÷ 1M req/s)', bigIssue === undefined ? '—' : `${fixed(bigIssue)}×`, verdict(bigIssue === undefined ? undefined : bigIssue <= 1.2)],
    ['1,000,000 tickets: state read within 1.2× of empty (empty ÷ 1M req/s)', bigState === undefined ? '—' : `${fixed(bigState)}×`, verdict(bigState === undefined ? undefined : bigState <= 1.2)],
    ['cold start (spawn → first /health 200, both cores as deployed) ≤ 1.5× the stack\'s (aim 1.25×; issue 50)', `${fixed(coldMedian, 1)} ms${stackCold === undefined ? '' : `, ${fixed(coldMedian / stackCold)}× the stack's ${fixed(stackCold, 1)} ms`}${facts.coldStartsPinnedMs?.length ? ` (pinned to one core: ${fixed(median(facts.coldStartsPinnedMs), 1)} ms)` : ''}${facts.coldStartsBareMs?.length ? `; a compiled bare Bun.serve: ${fixed(median(facts.coldStartsBareMs), 1)} ms` : ''}${facts.coldStartsElysiaMs?.length ? `; one-route Elysia: ${fixed(median(facts.coldStartsElysiaMs), 1)} ms` : ''}`, verdict(Number.isFinite(coldMedian) && stackCold !== undefined ? coldMedian <= 1.5 * stackCold : undefined)],
    ['idle VmRSS ≤ 60 MiB (issue 50)', `${mib(facts.idleRssKb)} MiB${facts.stackIdle ? `; the stack: ${mib(facts.stackIdle.vmRssKb)} MiB` : ''}`, verdict(facts.idleRssKb / 1024 <= 60)],
    ['idle RssAnon ≤ the stack\'s + 6 MiB (issue 50)', facts.idleAnonKb === undefined ? '—' : `${mib(facts.idleAnonKb)} MiB${facts.stackIdle ? `; the stack: ${mib(facts.stackIdle.rssAnonKb)} MiB` : ''}`, verdict(facts.idleAnonKb === undefined || facts.stackIdle === undefined ? undefined : facts.idleAnonKb <= facts.stackIdle.rssAnonKb + 6 * 1024)],
    ['VmRSS after the read runs ≤ 80 MiB (issue 50)', facts.afterReadsRssKb === undefined ? '—' : `${mib(facts.afterReadsRssKb)} MiB`, verdict(facts.afterReadsRssKb === undefined ? undefined : facts.afterReadsRssKb / 1024 <= 80)],
    noWorse('ticket issue'),
    noWorse('widget push (100-item schedule)'),
    ['≤ 200 bytes per remembered nonce', Number.isFinite(perNonce) ? `${perNonce.toFixed(0)} B` : '—', verdict(Number.isFinite(perNonce) ? perNonce <= 200 : undefined)],
  ]

  const beforeSection = againstBefore(scenarios, facts) + beforeAfter(scenarios, facts)
  const analysisFile = join(BENCH, 'analysis.md')
  const analysis = existsSync(analysisFile) ? readFileSync(analysisFile, 'utf8').trim() : ''

  return `# Lobby benchmarks

Written by \`bun run bench\` (bench/run.ts) on ${facts.date}. Everything below the line
"Analysis" is bench/analysis.md, kept by hand; everything above it is this run's output.

## Machine

- \`nproc\`: ${facts.machine.nproc}
- kernel: ${facts.machine.kernel}
- Bun: ${facts.machine.bun}; wrk: ${facts.machine.wrk}
- temporary databases on: ${facts.machine.fs}
- 1-minute load average before the measured runs: ${facts.quiet.load.toFixed(2)} (waited ${facts.quiet.waitedSeconds} s${facts.quiet.quiet ? '' : `; it did not drop below ${CONFIG.quietLoad}, so this run was measured on a busy machine`}); at the end: ${facts.loadAtEnd.toFixed(2)}

\`\`\`
${facts.machine.lscpu}
\`\`\`

\`\`\`
${facts.machine.free}
\`\`\`

## How it was measured

- \`dist/lobby serve\` at the default durability (\`full\`: WAL, \`synchronous = FULL\`), on a
  temporary database provisioned by \`dist/lobby provision\` from bench/provision.json (queue
  keys at 1,000,000 issues and reads per minute, the widget at 1,000,000 pushes per minute:
  the provisioning schema's maximum); logs to a file.
- wrk ${CONFIG.threads} threads, ${CONFIG.connections} connections, ${CONFIG.duration} s per run after a ${CONFIG.warmup} s warm-up, ${CONFIG.runs} runs per
  scenario (ticket issue and the scenarios run with it: ${CONFIG.issueRuns}), reported: the median run by
  requests/s (its p50 and p99). Scenarios of a group run in rounds (one run of each per round),
  so a baseline and what it is compared with are measured close together in time; each round
  starts one scenario later than the one before, so none always runs first.
- Servers pinned to core ${CONFIG.serverCore} (\`taskset\`), wrk and this script to core ${CONFIG.clientCore}. Only 127.0.0.1.
- Ticket requests are all valid: fresh \`X-Request-Timestamp\`, a nonce and Idempotency-Key
  unique per request (run salt . wrk thread . counter); the replay repeats one issued ticket's
  key and body with a new nonce and timestamp.
- Big database: a copy of the provisioned database, seeded while no server runs with
  ${facts.seed ? facts.seed.tickets.toLocaleString('en') : '—'} closed tickets over ${CONFIG.seedDays} past business days (${facts.seed ? facts.seed.events.toLocaleString('en') : '—'} ticket events, numbers,
  sequences and service stats consistent; bench/seed.ts; ${facts.seed ? (facts.seed.ms / 1000).toFixed(1) : '—'} s, ${facts.seed ? (facts.seed.bytes / 1e6).toFixed(0) : '—'} MB),
  against a fresh copy of the same provisioned database; both servers run side by side and are
  measured in alternation.

## Results

| scenario | req/s | p50 ms | p99 ms | compared with | ratio (req/s) | ratio (p99) | runs (req/s) | errors | load |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

req/s, p50 and p99 are those of the median run (by req/s). A ratio is the median of the
per-round ratios (each round measures a scenario right next to what it is compared with, so
a burst of other load on this shared machine moves both). "errors" counts socket errors,
timeouts and non-2xx answers over all runs (0 = every request was answered as intended);
"load" is the 1-minute load average when the runs started (our own wrk and server alone keep
it near 1.5).

| measure | value |
|---|---|
| binary size (dist/lobby) | ${(facts.binaryBytes / 1e6).toFixed(1)} MB (${facts.binaryBytes.toLocaleString('en')} bytes) |
| build (\`bun run build\`) | ${fixed(facts.buildSeconds, 1)} s |
| cold start, spawn → first \`/health\` 200, both cores as deployed (median of ${facts.coldStartsMs.length}) | ${fixed(coldMedian, 1)} ms (all: ${facts.coldStartsMs.map((v) => v.toFixed(0)).join(', ')}) |
| cold start of a compiled bare \`Bun.serve\` answering \`/health\` (bench/servers/bare-health.ts), between Lobby's (median of ${facts.coldStartsBareMs?.length ?? 0}) | ${facts.coldStartsBareMs?.length ? `${fixed(median(facts.coldStartsBareMs), 1)} ms (all: ${facts.coldStartsBareMs.map((v) => v.toFixed(0)).join(', ')})` : '—'} |
| cold start of a compiled one-route Elysia app (bench/servers/elysia-health.ts), between Lobby's (median of ${facts.coldStartsElysiaMs?.length ?? 0}) | ${facts.coldStartsElysiaMs?.length ? `${fixed(median(facts.coldStartsElysiaMs), 1)} ms (all: ${facts.coldStartsElysiaMs.map((v) => v.toFixed(0)).join(', ')})` : '—'} |
| cold start of the compiled stack: Elysia, Drizzle with Lobby's tables, the database opened and its migrations checked, one route (bench/servers/stack-health.ts; median of ${facts.coldStartsStackMs?.length ?? 0}) | ${facts.coldStartsStackMs?.length ? `${fixed(median(facts.coldStartsStackMs), 1)} ms (all: ${facts.coldStartsStackMs.map((v) => v.toFixed(0)).join(', ')})` : '—'} |
| cold start of Lobby without its feature routes (bench/floors.ts \`no-feature-routes\`: every service built, no feature's routes, docs or pages; median of ${facts.coldStartsRoutelessMs?.length ?? 0}) | ${floorCell(facts.coldStartsRoutelessMs, stackCold)} |
| cold start of Lobby without any feature (bench/floors.ts \`no-features\`: what a start would be with every feature loaded on its first request; median of ${facts.coldStartsFeaturelessMs?.length ?? 0}) | ${floorCell(facts.coldStartsFeaturelessMs, stackCold)} |
| idle RSS of Lobby without any feature (anonymous) | ${facts.featurelessIdle ? `${mib(facts.featurelessIdle.vmRssKb)} MiB (${mib(facts.featurelessIdle.rssAnonKb)} MiB)` : '—'} |
| cold start, server pinned to core ${CONFIG.serverCore} as in the load runs (median of ${facts.coldStartsPinnedMs?.length ?? 0}) | ${facts.coldStartsPinnedMs?.length ? `${fixed(median(facts.coldStartsPinnedMs), 1)} ms (all: ${facts.coldStartsPinnedMs.map((v) => v.toFixed(0)).join(', ')})` : '—'} |
| idle RSS after start (VmRSS; of it anonymous, RssAnon) | ${mib(facts.idleRssKb)} MiB${facts.idleAnonKb === undefined ? '' : ` (${mib(facts.idleAnonKb)} MiB)`} |
| the stack's idle RSS (bench/servers/stack-health.ts; anonymous) | ${facts.stackIdle ? `${mib(facts.stackIdle.vmRssKb)} MiB (${mib(facts.stackIdle.rssAnonKb)} MiB)` : '—'} |
| RSS after the read runs, idle, the lowest over 10 s | ${facts.afterReadsRssKb === undefined ? '—' : `${mib(facts.afterReadsRssKb)} MiB`} |
| RSS before (after the issue warm-up) / after the ticket runs, each idle and the lowest over 10 s | ${facts.nonce ? `${mib(facts.nonce.beforeKb)} / ${mib(facts.nonce.afterKb)} MiB` : '—'} |
| nonces remembered since "before" (every issue and replay request of those runs, all within the 10-minute window) | ${facts.nonce ? facts.nonce.nonces.toLocaleString('en') : '—'} |
| RSS per remembered nonce | ${Number.isFinite(perNonce) ? `${perNonce.toFixed(0)} bytes` : '—'} |
| wall time of this run | ${(facts.wallSeconds / 60).toFixed(1)} min |

Checks made by the run:
${facts.checks.map((c) => `- ${c}`).join('\n')}

## Targets

| target | measured | |
|---|---|---|
${targets.map((t) => `| ${t.join(' | ')} |`).join('\n')}

${beforeSection}## How to run

\`\`\`sh
bun install
bun run bench                       # ≈ 15 minutes plus up to 10 for a quiet machine; writes bench/RESULTS.md
BENCH_QUIET_WAIT=0 bun run bench    # do not wait for the load average
BENCH_ONLY=writes BENCH_DURATION=5 BENCH_OUT=/tmp/r.md BENCH_DATA=/tmp/r.json bun run bench   # a quick look at one phase
BENCH_REPORT_ONLY=1 bun run bench   # rewrite RESULTS.md from bench/results.json (e.g. after editing analysis.md)
BENCH_BEFORE=none bun run bench     # without the code before (no git history, no registry); BENCH_BEFORE=<commit> for another
bun bench/manage.ts                 # after \`bun run build\`: the live floor's cost (its own section)
bun bench/appointments.ts           # after \`bun run build\`: 10,000 bookings against none, with an A/A pair (≈ 4 minutes; its own section)
\`\`\`

Phases for \`BENCH_ONLY\`: \`reads\` (state, services, ticket read vs bare Bun.serve), \`writes\`
(issue and replay vs the bare insert server, and the nonce memory), \`push\` (widget push),
\`big\` (1,000,000 tickets vs empty). The script needs root for \`apt-get install wrk\` only when
wrk is missing, and \`taskset\` (util-linux). It stops every process it started and deletes its
temporary folder. \`BENCH_ONLY=estimates\` (or \`bun bench/simulate.ts\`) runs only the wait-estimate
simulator (contract §19, a few seconds, no build or server) and rewrites only its own section.

## Analysis

${analysis}
`
}

/** One scenario judged against its twin run from the code before (`beforeVerdicts`). */
interface BeforeVerdict {
  twin: Scenario
  /** The median of the per-round ratios (now ÷ before, req/s). */
  ratio: number
  perRound: number[]
  /** The noise band, as the report prints it. */
  band: string
  verdict: 'slower' | 'faster' | 'same within noise'
}

/**
 * Each scenario against its twin on the code before, measured in the same rounds: the paired
 * per-round ratios and a verdict. Where an A/A control ran (this code on a second server, in
 * the same rounds), the noise band is what those two identical servers differed by, widened
 * to at least ±5 %; elsewhere it is ±10 % (the run-to-run spread of one scenario here). A
 * change is called only when the median ratio is outside the band and every round agrees.
 */
function beforeVerdicts(scenarios: Scenario[], facts: Facts): Map<string, BeforeVerdict> {
  const judged = new Map<string, BeforeVerdict>()
  if (facts.before === undefined) return judged
  const byName = new Map(scenarios.map((s) => [s.name, s]))
  const perRoundOf = (a: Scenario, b: Scenario) => a.runs.map((r, i) => r.rps / b.runs[i]!.rps)
  for (const s of scenarios) {
    const twin = byName.get(`${s.name} (before: ${facts.before})`)
    if (twin === undefined || s.runs.length === 0 || twin.runs.length !== s.runs.length) continue
    const perRound = perRoundOf(s, twin)
    const ratio = median(perRound)
    const control = byName.get(sameCodeName(s.name))
    const aa = control !== undefined && control.runs.length === s.runs.length ? perRoundOf(control, s) : null
    const low = aa === null ? 0.9 : Math.min(0.95, ...aa)
    const high = aa === null ? 1.1 : Math.max(1.05, ...aa)
    const verdict = ratio < low && perRound.every((r) => r < 1) ? 'slower'
      : ratio > high && perRound.every((r) => r > 1) ? 'faster'
      : 'same within noise'
    const band = `${fixed(low)}–${fixed(high)}${aa === null ? '' : ` (A/A: ${aa.map((r) => fixed(r)).join(' / ')})`}`
    judged.set(s.name, { twin, ratio, perRound, band, verdict })
  }
  return judged
}

function againstBefore(scenarios: Scenario[], facts: Facts): string {
  if (facts.before === undefined) return ''
  const rows: string[] = []
  const verdicts = beforeVerdicts(scenarios, facts)
  for (const s of scenarios) {
    const judged = verdicts.get(s.name)
    if (judged === undefined) continue
    const { twin, ratio, perRound, band, verdict } = judged
    const p99 = pairedRatio(s, twin, (r) => r.p99Us)
    rows.push(`| ${s.name} | ${medianRun(s).rps.toFixed(0)} | ${medianRun(twin).rps.toFixed(0)} | ${fixed(ratio)}× | ${perRound.map((r) => fixed(r)).join(' / ')} | ${band} | ${fixed(p99)}× | ${verdict === 'slower' ? '**slower**' : verdict} |`)
  }
  if (rows.length === 0) return ''
  return `## Against the code before (${facts.before}, side by side)

The code before (commit ${facts.before}, \`BENCH_BEFORE\`, built from git by this run with its own
locked dependencies) served the same scenarios from its own copy of the provisioned database,
on the same core, in the same rounds: each round ran a scenario here and then its twin
there. "now ÷ before" is the median of the per-round ratios. The noise band is, for ticket
issue, what this code on a second server with its own database copy (an A/A control, in the
same rounds) differed by from the first, widened to at least ±5 %; for the others ±10 %. A
scenario is called slower (faster) only when its median is below (above) the band and every
round agrees.

| scenario | now req/s | before req/s | now ÷ before (req/s) | per round | noise band | now ÷ before (p99) | verdict |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

`
}

/**
 * The same bench run on the code before this work (bench/results-before.json: the results.json
 * of the run on commit 5ab4415), next to this run.
 */
function beforeAfter(scenarios: Scenario[], facts: Facts): string {
  const file = join(BENCH, 'results-before.json')
  if (!existsSync(file)) return ''
  const before = JSON.parse(readFileSync(file, 'utf8')) as RunData
  const rows: string[] = []
  const oldScenarios = new Map(before.scenarios.map((b) => [b.name, { ...scenario(b.name, '', () => '', () => [], b.baseline), runs: b.runs, warmups: b.warmups }]))
  const newScenarios = new Map(scenarios.map((s) => [s.name, s]))
  // Each run's ratio to its own baseline, measured next to it: runs made hours apart on this
  // shared machine differ in absolute speed (the baselines too), their ratios much less.
  const ratioIn = (all: Map<string, Scenario>, s: Scenario | undefined, f: (r: WrkRun) => number) => {
    const base = s?.baseline === undefined ? undefined : all.get(s.baseline)
    return s === undefined || base === undefined ? NaN : pairedRatio(s, base, f)
  }
  for (const s of scenarios) {
    const old = oldScenarios.get(s.name)
    if (old === undefined || old.runs.length === 0 || s.runs.length === 0 || s.baseline === undefined) continue
    rows.push(`| ${s.name} | ${s.baseline} | ${fixed(ratioIn(oldScenarios, old, (r) => r.rps))}× | ${fixed(ratioIn(newScenarios, s, (r) => r.rps))}× | ${fixed(ratioIn(oldScenarios, old, (r) => r.p99Us))}× | ${fixed(ratioIn(newScenarios, s, (r) => r.p99Us))}× |`)
  }
  const perNonce = (f: Facts) => (f.nonce ? `${(((f.nonce.afterKb - f.nonce.beforeKb) * 1024) / f.nonce.nonces).toFixed(0)} B` : '—')
  // The "before" run measured with the server pinned to one core: compare like with like.
  const cold = (f: Facts) => {
    const samples = f.coldStartsPinnedMs ?? f.coldStartsMs
    return samples.length > 0 ? `${median(samples).toFixed(1)} ms` : '—'
  }
  return `## Before and after

The same script on the code before this work (issue 24; commit 5ab4415's run,
bench/results-before.json, measured ${before.facts.date}, load ${before.facts.quiet.load.toFixed(2)}), next to this run, as each
run's ratio to the baseline measured beside it (the machine's absolute speed differs between
the two runs; see "History (short)" below for the earlier runs):

| scenario | compared with | before ratio (req/s) | after ratio (req/s) | before ratio (p99) | after ratio (p99) |
|---|---|---|---|---|---|
${rows.join('\n')}

| measure | before | after |
|---|---|---|
| cold start, server pinned to one core (median) | ${cold(before.facts)} | ${cold(facts)} |
| idle RSS | ${mib(before.facts.idleRssKb)} MiB | ${mib(facts.idleRssKb)} MiB |
| RSS per remembered nonce | ${perNonce(before.facts)} | ${perNonce(facts)} |

`
}

// ---------------------------------------------------------------------------------------------
// Main

/**
 * The report written by this script, with the sections the other bench scripts own and keep in
 * RESULTS.md (each between its markers), in this order: reports (BENCH_ONLY=reports), replication
 * (BENCH_ONLY=replication), estimates (BENCH_ONLY=estimates), the live floor (`bun bench/manage.ts`),
 * appointments (`bun bench/appointments.ts`) and the head-office chain (`bun bench/hq-chain.ts`).
 */
function withKeptSections(text: string): string {
  const kept = [currentReportsSection, currentReplicationSection, currentEstimatesSection, currentManageSection, currentAppointmentsSection, currentHqChainSection]
  return kept.reduce((report, current) => {
    const section = current()
    return section === '' ? report : report.trimEnd() + '\n\n' + section + '\n'
  }, text)
}

async function main(): Promise<void> {
  const wallStart = performance.now()
  const checks: string[] = []

  if (CONFIG.only.size === 1 && CONFIG.only.has('estimates')) {
    // Wait estimates against simulated days (bench/simulate.ts): in process, needs no build.
    runEstimateBench()
    say(`wrote the estimates section of ${CONFIG.out}`)
    return
  }
  let buildSeconds = NaN
  if (CONFIG.build) {
    say('building dist/lobby (bun run build)')
    const t0 = performance.now()
    run(['bun', 'run', 'build'], { inherit: true })
    buildSeconds = (performance.now() - t0) / 1000
  }
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing`)
  if (CONFIG.only.size === 1 && CONFIG.only.has('replication')) {
    // Head-office replication on against off (bench/replication.ts): its own section of RESULTS.md.
    await replicationBench()
    return
  }
  if (CONFIG.only.size === 1 && CONFIG.only.has('reports')) {
    // The report bench alone: it writes its own section of RESULTS.md and nothing else.
    await reportsBench()
    return
  }

  if (Bun.which('wrk') === null) {
    say('installing wrk (apt-get install -y wrk)')
    try {
      run(['apt-get', 'install', '-y', 'wrk'], { inherit: true })
    } catch {
      run(['apt-get', 'update'], { inherit: true })
      run(['apt-get', 'install', '-y', 'wrk'], { inherit: true })
    }
  }
  const tmp = mkdtempSync(join(tmpdir(), 'lobby-bench-'))
  // Read before this script pins itself: `nproc` counts the CPUs this process may use.
  const machine = {
    nproc: tryRun(['nproc']),
    lscpu: tryRun(['lscpu']).split('\n').filter((l) => /^(Architecture|CPU\(s\)|Model name|Vendor ID|Thread|Core|Socket|CPU max MHz|BogoMIPS|Hypervisor|L1d|L2|L3|NUMA node0)/.test(l)).join('\n'),
    free: tryRun(['free', '-h']),
    kernel: tryRun(['uname', '-srmv']),
    bun: tryRun(['bun', '--version']),
    wrk: tryRun(['sh', '-c', 'wrk --version 2>&1 | head -n 1']).split(' ').slice(0, 2).join(' '),
    fs: tryRun(['sh', '-c', `df -hT ${tmp} | tail -n 1`]).replace(/\s+/g, ' '),
  }
  // This script polls and runs wrk on the client core; the servers get the other one.
  run(['taskset', '-pc', CONFIG.clientCore, String(process.pid)])

  const scenarios: Scenario[] = []
  const facts: Facts = {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    machine,
    quiet: { waitedSeconds: 0, load: loadAverage(), quiet: true },
    loadAtEnd: 0,
    binaryBytes: statSync(BINARY).size,
    buildSeconds,
    coldStartsMs: [],
    idleRssKb: 0,
    checks,
    wallSeconds: 0,
  }

  const cleanup = async () => {
    for (const server of [...started]) await stopServer(server).catch(() => {})
    rmSync(tmp, { recursive: true, force: true })
  }
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)))

  try {
    // Provision with the CLI, as an operator would.
    const base = join(tmp, 'base.db')
    const provisioned = JSON.parse(run([BINARY, 'provision', '--db', base, '--file', join(BENCH, 'provision.json')])) as {
      secrets: { kind: string; owner: string; name: string; secret: string }[]
    }
    const secret = (name: string) => {
      const found = provisioned.secrets.find((s) => s.name === name)
      if (found === undefined) throw new Error(`provisioning printed no secret for ${name}`)
      return found.secret
    }
    // Part three's data (issue 37): appointments enabled with 10,000 bookings, staff of every role.
    addPartThreeData(BINARY, base, tmp, CONFIG.bookings, run)
    checks.push(`Part three's data in the database every Lobby server here starts from: appointments enabled on three services with ${CONFIG.bookings.toLocaleString('en')} bookings over ${DAYS} days, ${STAFF.length} staff (an admin, managers, clerks) with their audit entries`)

    facts.quiet = await waitForQuiet()
    say(`load average ${facts.quiet.load.toFixed(2)} after ${facts.quiet.waitedSeconds} s`)

    // Cold start: spawn → first /health 200, on a copy of the provisioned database; alternately
    // as deployed (both cores) and pinned like the load runs (core 1 only).
    const cold = join(tmp, 'cold.db')
    copyFileSync(base, cold)
    // The runtime's floor, measured between Lobby's starts: this machine's cold starts move by
    // ±30 % from one run to the next, so the difference to the floor is the steadier figure.
    // And the fixed stack's floors (Elysia; Elysia with Drizzle, the tables and the database's
    // checks), which say how much of a start is Lobby's own.
    const stackDb = join(tmp, 'stack.db')
    copyFileSync(base, stackDb)
    const [bareHealth, elysiaHealth, stackHealth] = buildBaselines(tmp, stackDb)
    // Lobby's own floors (issue 50): this code without its feature routes, and without any
    // feature, as a start would be if features were loaded on their first request.
    const { routeless, featureless } = await buildFloors(tmp)
    const floorDb = join(tmp, 'floor.db')
    copyFileSync(base, floorDb)
    const both = `${CONFIG.clientCore},${CONFIG.serverCore}`
    facts.coldStartsPinnedMs = []
    facts.coldStartsBareMs = []
    facts.coldStartsElysiaMs = []
    facts.coldStartsStackMs = []
    facts.coldStartsRoutelessMs = []
    facts.coldStartsFeaturelessMs = []
    for (let i = 0; i < CONFIG.coldStarts; i++) {
      facts.coldStartsMs.push(await coldStartMs(lobbyServe(BINARY, cold), both))
      facts.coldStartsBareMs.push(await coldStartMs(bareHealth!.argv, both))
      facts.coldStartsElysiaMs.push(await coldStartMs(elysiaHealth!.argv, both))
      facts.coldStartsStackMs.push(await coldStartMs(stackHealth!.argv, both))
      facts.coldStartsRoutelessMs.push(await coldStartMs(lobbyServe(routeless, floorDb), both))
      facts.coldStartsFeaturelessMs.push(await coldStartMs(lobbyServe(featureless, floorDb), both))
      facts.coldStartsPinnedMs.push(await coldStartMs(lobbyServe(BINARY, cold), CONFIG.serverCore))
    }
    say(`cold start median ${median(facts.coldStartsMs).toFixed(1)} ms (pinned to one core: ${median(facts.coldStartsPinnedMs).toFixed(1)} ms; a compiled bare Bun.serve: ${median(facts.coldStartsBareMs).toFixed(1)} ms; one-route Elysia: ${median(facts.coldStartsElysiaMs).toFixed(1)} ms; the stack: ${median(facts.coldStartsStackMs).toFixed(1)} ms)`)
    const stackIdle = await idleMemory(stackHealth!.argv, both)
    facts.stackIdle = { vmRssKb: stackIdle.vmRss, rssAnonKb: stackIdle.rssAnon }
    const featurelessIdle = await idleMemory(lobbyServe(featureless, floorDb), both)
    facts.featurelessIdle = { vmRssKb: featurelessIdle.vmRss, rssAnonKb: featurelessIdle.rssAnon }

    const mainDb = join(tmp, 'main.db')
    copyFileSync(base, mainDb)
    const lobby = await startLobby('lobby', mainDb, join(tmp, 'lobby.log'))
    facts.idleRssKb = await settledRssKb(lobby.pid, 2000)
    facts.idleAnonKb = statusKb(lobby.pid, 'RssAnon')
    say(`idle RSS ${mib(facts.idleRssKb)} MiB (anonymous ${mib(facts.idleAnonKb)} MiB)`)

    // Preflight: every kind of request the scripts send, answered as intended.
    const stateBody = await expectStatus('state read', await fetch(`${lobby.url}${QUEUE}/state`, { headers: { authorization: `Bearer ${secret('bench-state')}` } }), 200)
    await expectStatus('services list', await fetch(`${lobby.url}${QUEUE}/services`, { headers: { authorization: `Bearer ${secret('bench-services')}` } }), 200)
    const issued = JSON.parse(await expectStatus('ticket issue', await issueOnce(lobby.url, secret('bench-issue'), `preflight.${salt()}`), 201)) as { data: { id: string } }
    const ticketPath = `${QUEUE}/tickets/${issued.data.id}`
    await expectStatus('ticket read', await fetch(lobby.url + ticketPath, { headers: { authorization: `Bearer ${secret('bench-ticket-read')}` } }), 200)
    const replayKey = `replay.${salt()}`
    await expectStatus('replay: first issue', await issueOnce(lobby.url, secret('bench-replay'), replayKey), 201)
    const replayed = await issueOnce(lobby.url, secret('bench-replay'), replayKey)
    await expectStatus('replay', replayed, 201)
    if (replayed.headers.get('idempotent-replayed') !== 'true') throw new Error('replay: no Idempotent-Replayed header')
    const pushBody = scheduleBody()
    const push = await fetch(lobby.url + PUSH_PATH, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret('bench-cms')}`, 'content-type': 'application/json', 'idempotency-key': `preflight.${salt()}` },
      body: pushBody,
    })
    const pushAnswer = JSON.parse(await expectStatus('widget push', push, 200)) as { itemCount: number; warnings: { code: string }[] }
    checks.push(`preflight: state, services, ticket read 200; issue 201; replay 201 with \`Idempotent-Replayed: true\`; push 200 with ${pushAnswer.itemCount} items and warnings [${pushAnswer.warnings.map((w) => w.code).join(', ')}]`)

    // The code before, on its own copy of the same provisioning, for the twin scenarios.
    let before: { proc: Proc; secret: (name: string) => string; ticketPath: string; replayKey: string } | null = null
    if (CONFIG.before !== 'none' && ['reads', 'writes', 'push'].some((phase) => CONFIG.only.has(phase))) {
      say(`building the code before (${CONFIG.before}) from git`)
      const beforeDir = join(tmp, 'before')
      mkdirSync(beforeDir)
      const beforeBinary = buildBefore(beforeDir)
      if (beforeBinary !== null) {
        const beforeDb = join(tmp, 'before.db')
        const printed = JSON.parse(run([beforeBinary, 'provision', '--db', beforeDb, '--file', join(BENCH, 'provision.json')])) as typeof provisioned
        const beforeSecret = (name: string) => {
          const found = printed.secrets.find((s) => s.name === name)
          if (found === undefined) throw new Error(`the code before printed no secret for ${name}`)
          return found.secret
        }
        const proc = await startLobby('lobby-before', beforeDb, join(tmp, 'lobby-before.log'), beforeBinary)
        const ticket = JSON.parse(await expectStatus('ticket issue (before)', await issueOnce(proc.url, beforeSecret('bench-issue'), `preflight.${salt()}`), 201)) as { data: { id: string } }
        const key = `replay.${salt()}`
        await expectStatus('replay: first issue (before)', await issueOnce(proc.url, beforeSecret('bench-replay'), key), 201)
        before = { proc, secret: beforeSecret, ticketPath: `${QUEUE}/tickets/${ticket.data.id}`, replayKey: key }
        facts.before = CONFIG.before
        checks.push(`the code before (${CONFIG.before}) built from git, provisioned from bench/provision.json and answering: issue 201, replay's first issue 201`)
      }
    }
    /** The scenario's twin against the code before (same script and arguments, its own secrets). */
    const twinOf = (s: Scenario, path: () => string, args: (secret: (name: string) => string) => string[]): Scenario[] => {
      if (before === null) return []
      const b = before
      return [scenario(beforeName(s.name), s.script, () => b.proc.url + path(), () => args(b.secret), s.baseline)]
    }

    const stateFile = join(tmp, 'state.json')
    writeFileSync(stateFile, stateBody)
    const bareReadPort = freePort()
    const bareRead = await startServer('bare-read', ['bun', join(BENCH, 'servers/bare-read.ts'), String(bareReadPort), stateFile], bareReadPort, join(tmp, 'bare-read.log'), '/')
    const bareInsertPort = freePort()
    const bareInsert = await startServer('bare-insert', ['bun', join(BENCH, 'servers/bare-insert.ts'), String(bareInsertPort), join(tmp, 'bare.db')], bareInsertPort, join(tmp, 'bare-insert.log'), '/')

    const elysiaReadPort = freePort()
    const elysiaRead = await startServer('elysia-read', ['bun', join(BENCH, 'servers/elysia-read.ts'), String(elysiaReadPort), stateFile], elysiaReadPort, join(tmp, 'elysia-read.log'), '/')
    const bareReadS = scenario('bare Bun.serve (state bytes)', 'get.lua', () => bareRead.url + '/', () => ['none'])
    const elysiaReadS = scenario('minimal Elysia route (state bytes)', 'get.lua', () => elysiaRead.url + '/', () => ['none'], bareReadS.name)
    const state = scenario('state read', 'get.lua', () => lobby.url + `${QUEUE}/state`, () => [secret('bench-state')], bareReadS.name)
    const services = scenario('services list', 'get.lua', () => lobby.url + `${QUEUE}/services`, () => [secret('bench-services')], bareReadS.name)
    const ticketRead = scenario('ticket read', 'get.lua', () => lobby.url + ticketPath, () => [secret('bench-ticket-read')], bareReadS.name)
    const bareInsertS = scenario('bare Bun.serve + SQLite INSERT', 'issue.lua', () => bareInsert.url + `${QUEUE}/tickets`, () => [salt(), 'none', ISSUE_BODY])
    const issue = scenario('ticket issue', 'issue.lua', () => lobby.url + `${QUEUE}/tickets`, () => [salt(), secret('bench-issue'), ISSUE_BODY], bareInsertS.name)
    const replay = scenario('ticket replay', 'issue.lua', () => lobby.url + `${QUEUE}/tickets`, () => [salt(), secret('bench-replay'), ISSUE_BODY, replayKey], bareInsertS.name)
    const pushS = scenario('widget push (100-item schedule)', 'push.lua', () => lobby.url + PUSH_PATH, () => [salt(), secret('bench-cms'), pushBody], bareInsertS.name)
    const stateB = twinOf(state, () => `${QUEUE}/state`, (secretOf) => [secretOf('bench-state')])
    const servicesB = twinOf(services, () => `${QUEUE}/services`, (secretOf) => [secretOf('bench-services')])
    const ticketReadB = twinOf(ticketRead, () => before!.ticketPath, (secretOf) => [secretOf('bench-ticket-read')])
    const issueB = twinOf(issue, () => `${QUEUE}/tickets`, (secretOf) => [salt(), secretOf('bench-issue'), ISSUE_BODY])
    const replayB = twinOf(replay, () => `${QUEUE}/tickets`, (secretOf) => [salt(), secretOf('bench-replay'), ISSUE_BODY, before!.replayKey])
    const pushB = twinOf(pushS, () => PUSH_PATH, (secretOf) => [salt(), secretOf('bench-cms'), pushBody])
    scenarios.push(bareReadS, elysiaReadS, state, ...stateB, services, ...servicesB, ticketRead, ...ticketReadB, bareInsertS, issue, ...issueB, replay, ...replayB, pushS, ...pushB)

    if (CONFIG.only.has('reads')) {
      say('reads: bare Bun.serve, minimal Elysia route, state, services, ticket read')
      rounds([bareReadS, elysiaReadS, state, ...stateB, services, ...servicesB, ticketRead, ...ticketReadB])
      facts.afterReadsRssKb = await settledRssKb(lobby.pid, 10_000)
      say(`RSS after the reads ${mib(facts.afterReadsRssKb)} MiB`)
    }

    if (CONFIG.only.has('writes')) {
      say('writes: bare insert server and ticket issue, then the replay')
      const hallBefore = await settledWaitingAtHall(lobby.url, secret('bench-state'))
      // RSS before is read after the issue warm-up (its JIT code, heap working set and rate
      // window are there by then) and after is read once the runs' garbage went back to the
      // system: both the lowest over 10 idle seconds (it takes that long to settle).
      let rssBefore = 0
      // A/A: this code again, on a second server with its own copy of the database, in the same
      // rounds. Its ratio to the first is what two identical servers differ by on this machine:
      // the noise floor the comparison with the code before is judged against.
      const twinDb = join(tmp, 'twin.db')
      copyFileSync(base, twinDb)
      const twin = await startLobby('lobby-twin', twinDb, join(tmp, 'lobby-twin.log'))
      await expectStatus('ticket issue (second server)', await issueOnce(twin.url, secret('bench-issue'), `preflight.${salt()}`), 201)
      const issueAA = scenario(sameCodeName(issue.name), 'issue.lua', () => twin.url + `${QUEUE}/tickets`, () => [salt(), secret('bench-issue'), ISSUE_BODY], bareInsertS.name)
      scenarios.splice(scenarios.indexOf(issue) + 1, 0, issueAA)
      await rounds([bareInsertS, issue, ...issueB, issueAA], async () => {
        rssBefore = await settledRssKb(lobby.pid, 10_000)
      }, CONFIG.issueRuns)
      await stopServer(twin)
      const hallAfterIssue = await settledWaitingAtHall(lobby.url, secret('bench-state'))
      rounds([replay, ...replayB])
      const hallAfterReplay = await settledWaitingAtHall(lobby.url, secret('bench-state'))
      const rssAfter = await settledRssKb(lobby.pid, 10_000)
      // Every request of these runs passed the header checks, so each left a nonce behind.
      const issued = hallAfterIssue - hallBefore
      const issues = allRequests(issue)
      const replays = allRequests(replay)
      const remembered = issue.runs.reduce((n, r) => n + r.requests, 0) + replays
      facts.nonce = { beforeKb: rssBefore, afterKb: rssAfter, nonces: remembered }
      checks.push(`ticket issue: ${issued.toLocaleString('en')} tickets written (the line's waiting count) for ${issues.toLocaleString('en')} answers counted by wrk, warm-up included (requests still in flight when wrk stops are written but not counted)`)
      checks.push(`ticket replay: ${(hallAfterReplay - hallAfterIssue).toLocaleString('en')} tickets written by ${replays.toLocaleString('en')} replays (must be 0)`)
      if (hallAfterReplay !== hallAfterIssue) throw new Error('replays wrote tickets')
    }

    if (CONFIG.only.has('push')) {
      say('widget push')
      rounds([pushS, ...pushB])
    }

    facts.loadAtEnd = loadAverage()
    await stopServer(lobby)
    await stopServer(bareRead)
    await stopServer(elysiaRead)
    await stopServer(bareInsert)
    if (before !== null) await stopServer(before.proc)

    if (CONFIG.only.has('big')) {
      say(`big database: seeding ${CONFIG.seedTickets.toLocaleString('en')} tickets`)
      const empty = join(tmp, 'empty.db')
      const big = join(tmp, 'big.db')
      copyFileSync(base, empty)
      copyFileSync(base, big)
      const seeded = seedTicketHistory(big, { tickets: CONFIG.seedTickets, days: CONFIG.seedDays })
      facts.seed = { ...seeded, bytes: statSync(big).size }
      say(`seeded in ${(seeded.ms / 1000).toFixed(1)} s`)
      const lobbyEmpty = await startLobby('lobby-empty', empty, join(tmp, 'lobby-empty.log'))
      const lobbyBig = await startLobby('lobby-big', big, join(tmp, 'lobby-big.log'))
      for (const server of [lobbyEmpty, lobbyBig]) {
        await expectStatus(`issue (${server.name})`, await issueOnce(server.url, secret('bench-issue'), `preflight.${salt()}`), 201)
      }
      const issueEmpty = scenario('ticket issue, empty database', 'issue.lua', () => lobbyEmpty.url + `${QUEUE}/tickets`, () => [salt(), secret('bench-issue'), ISSUE_BODY])
      const issueBig = scenario('ticket issue, 1,000,000 tickets', 'issue.lua', () => lobbyBig.url + `${QUEUE}/tickets`, () => [salt(), secret('bench-issue'), ISSUE_BODY], issueEmpty.name)
      const stateEmpty = scenario('state read, empty database', 'get.lua', () => lobbyEmpty.url + `${QUEUE}/state`, () => [secret('bench-state')])
      const stateBig = scenario('state read, 1,000,000 tickets', 'get.lua', () => lobbyBig.url + `${QUEUE}/state`, () => [secret('bench-state')], stateEmpty.name)
      scenarios.push(issueEmpty, issueBig, stateEmpty, stateBig)
      rounds([issueEmpty, issueBig, stateEmpty, stateBig])
      facts.loadAtEnd = loadAverage()
      await stopServer(lobbyEmpty)
      await stopServer(lobbyBig)
    }
    if (CONFIG.only.has('reports')) {
      say('reports: bench/reports.ts')
      await reportsBench()
    }
  } finally {
    await cleanup()
  }

  facts.wallSeconds = (performance.now() - wallStart) / 1000
  const data: RunData = { facts, scenarios: scenarios.map((s) => ({ name: s.name, baseline: s.baseline, runs: s.runs, warmups: s.warmups })) }
  writeFileSync(CONFIG.data, JSON.stringify(data, null, 1) + '\n')
  writeFileSync(CONFIG.out, withKeptSections(report(scenarios, facts)))
  say(`wrote ${CONFIG.out} and ${CONFIG.data} (${(facts.wallSeconds / 60).toFixed(1)} min)`)
}

/** What a run measured, saved beside the report so the report can be written again (BENCH_REPORT_ONLY=1). */
interface RunData {
  facts: Facts
  scenarios: { name: string; baseline?: string; runs: WrkRun[]; warmups: WrkRun[] }[]
}

if (process.env.BENCH_REPORT_ONLY === '1') {
  const data = JSON.parse(readFileSync(CONFIG.data, 'utf8')) as RunData
  const scenarios = data.scenarios.map((s) => ({ ...scenario(s.name, '', () => '', () => [], s.baseline), runs: s.runs, warmups: s.warmups }))
  writeFileSync(CONFIG.out, withKeptSections(report(scenarios, data.facts)))
  say(`wrote ${CONFIG.out} from ${CONFIG.data}`)
} else {
  await main()
}
