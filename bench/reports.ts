/**
 * `BENCH_ONLY=reports bun run bench`: the report bench (contract §12, issue 21).
 *
 * 1. A 365-day report over 1,000,000 tickets: provisions a database with dist/lobby, seeds
 *    1,000,000 closed tickets over 365 past business days with their full history (bench/seed.ts
 *    `fullHistory`: created, called, serving, closing events), builds the roll-ups the way
 *    migration 0007 does (`rebuildReportRollups`, timed), starts dist/lobby on it and times
 *    `GET /api/operator/v1/reports/daily` and `/reports/counters` over the 365 days, one request
 *    at a time (the target: under 100 ms).
 * Ticket issue with the roll-ups against the code before them is measured by every run of
 * bench/run.ts ("Against the code before"), in the same rounds as the other scenarios.
 *
 * Writes its section of bench/RESULTS.md (between the `reports` markers), leaving the rest.
 */
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { currentSection, writeSection } from './sections'
import { tmpdir, loadavg } from 'node:os'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { seedTicketHistory } from './seed'
import { rebuildReportRollups } from '../src/tickets'
import { serveLobby } from './processes'

const ROOT = join(import.meta.dir, '..')
const BENCH = import.meta.dir
const BINARY = join(ROOT, 'dist', 'lobby')
const RESULTS = process.env.BENCH_OUT ?? join(BENCH, 'RESULTS.md')
const env = (name: string, fallback: number) => (process.env[name] === undefined ? fallback : Number(process.env[name]))
const SEED = env('BENCH_SEED', 1_000_000)
const DAYS = 365
const REQUESTS = env('BENCH_REPORT_REQUESTS', 40)
/** Range reads are limited to 30 a minute per credential: 2 × (REQUESTS + 5) requests over 8 keys. */
const BENCH_REPORT_KEYS = Array.from({ length: 8 }, (_, i) => `bench-reports-${i}`)
export const START = '<!-- reports:start -->'
export const END = '<!-- reports:end -->'

const say = (line: string) => process.stderr.write(`[bench:reports] ${line}\n`)
const load = () => loadavg()[0]!

function run(argv: string[], cwd = ROOT): string {
  const r = Bun.spawnSync(argv, { cwd, stdout: 'pipe', stderr: 'pipe' })
  if (r.exitCode !== 0) throw new Error(`${argv.join(' ')} exited ${r.exitCode}: ${r.stderr.toString().slice(0, 2000)}`)
  return r.stdout.toString()
}


function provision(binary: string, db: string, file: string): Map<string, string> {
  const out = JSON.parse(run([binary, 'provision', '--db', db, '--file', file])) as { secrets: { name: string; secret: string }[] }
  return new Map(out.secrets.map((s) => [s.name, s.secret]))
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!

interface Timing { median: number; p90: number; max: number; rows: number; bytes: number }

/**
 * Each request a range the server has not answered yet (`urlFor(i)`: one more day back), so the
 * report cache (contract §23) never answers it, and the keys taken in turn, so no key passes the
 * range reads' 30 a minute.
 */
async function timeGets(urlFor: (i: number) => string, secrets: string[]): Promise<Timing> {
  const headers = (i: number) => ({ authorization: `Bearer ${secrets[i % secrets.length]}` })
  let rows = 0
  let bytes = 0
  for (let i = 0; i < 5; i++) await (await fetch(urlFor(REQUESTS + i), { headers: headers(i) })).arrayBuffer()
  const ms: number[] = []
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now()
    const response = await fetch(urlFor(i), { headers: headers(i) })
    const text = await response.text()
    ms.push(performance.now() - t0)
    if (response.status !== 200) throw new Error(`${urlFor(i)}: ${response.status} ${text.slice(0, 300)}`)
    rows = (JSON.parse(text) as { data: unknown[] }).data.length
    bytes = text.length
  }
  ms.sort((a, b) => a - b)
  return { median: quantile(ms, 0.5), p90: quantile(ms, 0.9), max: ms[ms.length - 1]!, rows, bytes }
}

export async function reportsBench(): Promise<void> {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing (bun run build)`)
  const tmp = mkdtempSync(join(tmpdir(), 'lobby-bench-reports-'))
  const loadStart = load()
  try {
    // A copy: dist/lobby may be rebuilt while this runs.
    const BINARY = join(tmp, 'lobby')
    copyFileSync(join(ROOT, 'dist', 'lobby'), BINARY)
    chmodSync(BINARY, 0o755)
    // The bench provisioning with a reports key.
    const spec = JSON.parse(readFileSync(join(BENCH, 'provision.json'), 'utf8'))
    for (const name of BENCH_REPORT_KEYS) spec.workspaces[0].queueUnits[0].apiKeys.push({ name, scopes: ['reports:read'], rateLimits: { readPerMinute: 1000000 } })
    const specFile = join(tmp, 'provision.json')
    writeFileSync(specFile, JSON.stringify(spec))

    // The 365-day report over 1,000,000 tickets.
    let readSection = ''
    {
      const big = join(tmp, 'big.db')
      const secrets = provision(BINARY, big, specFile)
      say(`seeding ${SEED.toLocaleString('en')} tickets over ${DAYS} days (full history)`)
      const seeded = seedTicketHistory(big, { tickets: SEED, days: DAYS, fullHistory: true })
      say(`seeded in ${(seeded.ms / 1000).toFixed(1)} s; rebuilding the roll-ups as migration 0007 does`)
      const client = new Database(big)
      const t0 = performance.now()
      const rebuilt = client.transaction(() => rebuildReportRollups(client)).immediate()
      const rebuildMs = performance.now() - t0
      const rollupRows = client.query<{ n: number }, []>('SELECT count(*) AS n FROM report_daily').get()!.n
      client.close()
      say(`rebuilt ${rebuilt.daily} daily and ${rebuilt.counters} counter rows in ${(rebuildMs / 1000).toFixed(1)} s`)
      const bytes = statSync(big).size

      const lobby = await serveLobby(BINARY, big)
      const today = new Date().toISOString().slice(0, 10)
      const from = new Date(Date.now() - DAYS * 86_400_000).toISOString().slice(0, 10)
      const loadReports = load()
      const keys = BENCH_REPORT_KEYS.map((name) => secrets.get(name)!)
      const fromBack = (i: number) => new Date(Date.now() - (DAYS + i) * 86_400_000).toISOString().slice(0, 10)
      const daily = await timeGets((i) => `${lobby.url}/api/operator/v1/reports/daily?from=${fromBack(i)}&to=${today}`, keys)
      const counters = await timeGets((i) => `${lobby.url}/api/operator/v1/reports/counters?from=${fromBack(i)}&to=${today}`, keys)
      await lobby.stop()
      say(`daily: median ${daily.median.toFixed(1)} ms over ${daily.rows} rows; counters: median ${counters.median.toFixed(1)} ms`)
      const f1 = (n: number) => n.toFixed(1)
      readSection = `## Reports (issue 21): a 365-day report over 1,000,000 tickets

Report figures: run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`BENCH_ONLY=reports bun run bench\` (bench/reports.ts) on the shared
machine: 1-minute load average ${loadStart.toFixed(2)} at the start, ${loadReports.toFixed(2)} during the report requests
(2 cores, a shared VM), so absolute figures are noisy.

- Database: ${SEED.toLocaleString('en')} closed tickets over ${DAYS} past business days with their full history
  (${seeded.events.toLocaleString('en')} events; bench/seed.ts \`fullHistory\`), ${(bytes / 1e6).toFixed(0)} MB; roll-ups built by
  \`rebuildReportRollups\` (what migration 0007 runs) in ${f1(rebuildMs / 1000)} s: ${rollupRows.toLocaleString('en')} daily rows and ${rebuilt.counters.toLocaleString('en')} counter rows.
- \`dist/lobby serve\` pinned to core 1; ${REQUESTS} requests one at a time after 5 warm-ups, from this script on core 0.

| request (from ${from}, or up to ${REQUESTS - 1} days earlier: each request a range not yet cached, to ${today}) | rows | bytes | median ms | p90 ms | max ms | target |
|---|---|---|---|---|---|---|
| \`GET /api/operator/v1/reports/daily\` | ${daily.rows} | ${daily.bytes.toLocaleString('en')} | ${f1(daily.median)} | ${f1(daily.p90)} | ${f1(daily.max)} | < 100 ms: ${daily.median < 100 ? 'met' : 'NOT met'} |
| \`GET /api/operator/v1/reports/counters\` | ${counters.rows} | ${counters.bytes.toLocaleString('en')} | ${f1(counters.median)} | ${f1(counters.p90)} | ${f1(counters.max)} | < 100 ms: ${counters.median < 100 ? 'met' : 'NOT met'} |
`
    }
    const issueNote = 'Ticket issue with the roll-ups (gathered: one upsert of `report_daily` per group commit) against the code before them: ' +
      'see "Against the code before" above, measured in the same rounds as every other scenario.'
    const section = `${START}\n${readSection.trim()}\n\n${issueNote}\n${END}`
    writeSection(SECTION, section)
    say(`wrote the reports section of ${RESULTS}`)
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

const SECTION = { file: RESULTS, start: START, end: END }

/** The reports section now in RESULTS.md, for run.ts to keep when it writes the file again. */
export function currentReportsSection(): string {
  return currentSection(SECTION)
}

if (import.meta.main) await reportsBench()
