/**
 * `bun bench/appointments.ts` (after `bun run build`): what 10,000 bookings cost the hot paths
 * (contract §21, issue 35). Three databases provisioned alike from bench/provision.json with
 * appointments enabled on Accounts, Loans and Cards, each served by its own dist/lobby on core 1:
 * `with` holds 10,000 bookings over 30 days (15 past, 15 ahead; past ones checked in, missed or
 * cancelled, future ones booked or cancelled), `without` and `without'` hold none. In rounds,
 * each operation is driven with wrk (core 0) against the three servers in turn, the order
 * rotating each round: ticket issue (bench/lua/issue.lua), the state read, the services list
 * and the ticket read (bench/lua/get.lua). Per operation: the median of with ÷ without and, as
 * the noise band, of without' ÷ without (A/A). Writes its section of bench/RESULTS.md (between
 * the `appointments` markers), leaving the rest.
 *
 * The bookings go in by SQL before the server starts, with the columns the booking service
 * writes (src/appointments/service.ts `book`, check-in, cancel, missed marking): booking
 * 10,000 through the API would be the same rows, minutes slower.
 */
import { Database } from 'bun:sqlite'
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir, loadavg } from 'node:os'
import { join } from 'node:path'
import { writeSection, currentSection } from './sections'
import { run, rps, runSalt, serveLobby, wrk, type WrkRun } from './processes'
import { DAYS, insertBookings, provisionWithAppointments } from './part-three'

const ROOT = join(import.meta.dir, '..')
const BENCH = import.meta.dir
const RESULTS = process.env.BENCH_OUT ?? join(BENCH, 'RESULTS.md')
const env = (name: string, fallback: number) => (process.env[name] === undefined ? fallback : Number(process.env[name]))
const ROUNDS = env('BENCH_RUNS', 5)
const SECONDS = env('BENCH_DURATION', 3)
const BOOKINGS = env('BENCH_BOOKINGS', 10_000)
const QUEUE = '/api/public/v1/queue'
const ISSUE_BODY = JSON.stringify({ locationId: 'loc_hall', serviceId: 'svc_accounts', externalReference: 'bench' })
export const START = '<!-- appointments:start -->'
export const END = '<!-- appointments:end -->'

const say = (line: string) => process.stderr.write(`[bench:appointments] ${line}\n`)
const load = () => loadavg()[0]!




const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function issueOne(url: string, secret: string): Promise<string> {
  const res = await fetch(`${url}${QUEUE}/tickets`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'x-request-timestamp': new Date().toISOString(),
      'x-request-nonce': crypto.randomUUID(), 'idempotency-key': crypto.randomUUID(),
    },
    body: ISSUE_BODY,
  })
  if (res.status !== 201) throw new Error(`seed issue: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { data: { id: string } }).data.id
}

type Which = 'without' | 'with' | 'aa'
const SERVERS: readonly Which[] = ['without', 'with', 'aa']
const OPERATIONS = ['ticket issue', 'state read', 'services list', 'ticket read'] as const
type Operation = (typeof OPERATIONS)[number]

export async function appointmentsBench(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist', 'lobby'))) throw new Error('dist/lobby is missing (bun run build)')
  const tmp = mkdtempSync(join(tmpdir(), 'lobby-bench-appointments-'))
  const loadStart = load()
  const stops: (() => Promise<void>)[] = []
  try {
    const binary = join(tmp, 'lobby')
    copyFileSync(join(ROOT, 'dist', 'lobby'), binary)
    chmodSync(binary, 0o755)
    const spec = join(tmp, 'provision.json')
    provisionWithAppointments(spec)
    const servers = {} as Record<Which, { url: string; secrets: Map<string, string>; ticketPath: string }>
    for (const which of SERVERS) {
      const db = join(tmp, `${which}.db`)
      const provisioned = JSON.parse(run([binary, 'provision', '--db', db, '--file', spec])) as { secrets: { name: string; secret: string }[] }
      if (which === 'with') insertBookings(db, BOOKINGS)
      const server = await serveLobby(binary, db)
      stops.push(server.stop)
      const secrets = new Map(provisioned.secrets.map((s) => [s.name, s.secret]))
      const ticketPath = `${QUEUE}/tickets/${await issueOne(server.url, secrets.get('bench-issue')!)}`
      servers[which] = { url: server.url, secrets, ticketPath }
    }
    const booked = new Database(join(tmp, 'with.db'), { readonly: true })
    const counts = booked.query<{ status: string; n: number }, []>('SELECT status, count(*) AS n FROM appointments GROUP BY status ORDER BY status').all()
    booked.close()
    say(`bookings in the "with" database: ${counts.map((c) => `${c.status} ${c.n}`).join(', ')}`)

    const drive = (operation: Operation, which: Which, seconds: number): WrkRun => {
      const s = servers[which]
      switch (operation) {
        case 'ticket issue': return wrk('issue.lua', `${s.url}${QUEUE}/tickets`, [runSalt(), s.secrets.get('bench-issue')!, ISSUE_BODY], seconds)
        case 'state read': return wrk('get.lua', `${s.url}${QUEUE}/state`, [s.secrets.get('bench-state')!], seconds)
        case 'services list': return wrk('get.lua', `${s.url}${QUEUE}/services`, [s.secrets.get('bench-services')!], seconds)
        case 'ticket read': return wrk('get.lua', `${s.url}${s.ticketPath}`, [s.secrets.get('bench-ticket-read')!], seconds)
      }
    }
    say('warming up')
    for (const operation of OPERATIONS) for (const which of SERVERS) drive(operation, which, 1)
    const loadRuns = load()
    const runs = new Map<string, WrkRun[]>()
    for (let round = 0; round < ROUNDS; round++) {
      const order = SERVERS.map((_, i) => SERVERS[(i + round) % SERVERS.length]!)
      for (const operation of OPERATIONS) {
        for (const which of order) {
          const r = drive(operation, which, SECONDS)
          runs.set(`${operation}/${which}`, [...(runs.get(`${operation}/${which}`) ?? []), r])
        }
        say(`round ${round + 1}, ${operation}: ${order.map((w) => `${w} ${rps(runs.get(`${operation}/${w}`)!.at(-1)!).toFixed(0)}`).join(', ')} req/s`)
      }
    }
    const loadEnd = load()
    const f2 = (n: number) => n.toFixed(2)
    const rows = OPERATIONS.map((operation) => {
      const of = (which: Which) => runs.get(`${operation}/${which}`)!
      const withRatios = of('with').map((r, i) => rps(r) / rps(of('without')[i]!))
      const aaRatios = of('aa').map((r, i) => rps(r) / rps(of('without')[i]!))
      // Noise moves either way: the band is 1 ÷ d … d, d the largest A/A step away from 1 in any round.
      const d = Math.max(...aaRatios.map((r) => Math.max(r, 1 / r)))
      const lo = 1 / d, hi = d
      const m = median(withRatios)
      // Only below the band would bookings have cost something; above it, the server compared against was the slow one.
      const verdict = m < lo ? '**below: slower**' : m > hi ? 'above (faster)' : 'inside'
      const againstAa = median(of('with').map((r, i) => rps(r) / rps(of('aa')[i]!)))
      const p99 = (which: Which) => (median(of(which).map((r) => r.p99Us)) / 1000).toFixed(1)
      return `| ${operation} | ${median(of('without').map(rps)).toFixed(0)} | ${median(of('with').map(rps)).toFixed(0)} | ${median(of('aa').map(rps)).toFixed(0)} | ${withRatios.map(f2).join(', ')} (**${f2(median(withRatios))}**) | ${aaRatios.map(f2).join(', ')} (band ${f2(lo)}–${f2(hi)}) | ${verdict}; with ÷ without′ ${f2(againstAa)} | ${p99('without')} / ${p99('with')} / ${p99('aa')} |`
    })
    const errors = [...runs.values()].flat().reduce((n, r) => n + r.statusErrors, 0)
    const section = `${START}
## Appointments: 10,000 bookings (issue 35)

Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`bun bench/appointments.ts\` on the shared machine: 1-minute load
average ${loadStart.toFixed(2)} at the start, ${loadRuns.toFixed(2)} when the measured rounds began, ${loadEnd.toFixed(2)} at their end
(2 cores; the load average says how busy it was), so absolute req/s are noisy: read
the ratios, which compare servers within one round.

Three databases provisioned alike from bench/provision.json with appointments enabled (15-minute
slots) on Accounts (hall and annex), Loans and Cards; each served by its own dist/lobby on core 1.
**with**: ${BOOKINGS.toLocaleString('en')} bookings over ${DAYS} days, 15 past and 15 ahead, inserted by SQL as the service writes them
(${counts.map((c) => `${c.n} ${c.status}`).join(', ')}); **without** and **without′** (the A/A pair): none.
wrk (2 threads, 16 connections, ${SECONDS} s) on core 0 drives one operation against the three servers in turn, ${ROUNDS}
rounds, the order of the servers rotating each round. Ratio = req/s of that server ÷ req/s of
*without* in the same round; the A/A band is 1/d … d, d the largest
without′ ÷ without step away from 1 in any round (noise moves either way). Status errors: ${errors}.

| operation | without req/s | with req/s | without′ req/s | with ÷ without per round (median) | A/A per round | with, against the band | p99 ms without / with / without′ |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Not measured here: the phone page's ticket read (\`/api/phone/v1/tickets/{code}\`) is limited to 600
reads a minute per address, so one load generator cannot drive it, and the display's state needs a
paired display token; neither reads the appointments table (the phone read reads the ticket by its
tracking code, the display the unit's state, as the public state read does).
${END}`
    writeSection({ file: RESULTS, start: START, end: END }, section)
    say(`wrote the appointments section of ${RESULTS}`)
  } finally {
    for (const stop of stops) await stop()
    rmSync(tmp, { recursive: true, force: true })
  }
}

export const currentAppointmentsSection = () => currentSection({ file: RESULTS, start: START, end: END })

if (import.meta.main) await appointmentsBench()
