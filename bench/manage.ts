/**
 * `bun bench/manage.ts` (after `bun run build`): the live floor's cost (contract §22, issue 36).
 * One fresh database provisioned from bench/provision.json, served by dist/lobby on core 1;
 * 500 tickets waiting in the unit; then ticket writes with wrk (bench/lua/issue-cancel.lua, core 0:
 * each connection issues a ticket and cancels it with its next request, so the line stays at 500
 * however long the runs last; a plain issue run grew it past 10,000 and measured the line) in
 * rounds with no floor view open and with 100 views open (100 websockets of 4 managers'
 * sessions, 25 each, subscribed to the unit's floor, in this process on core 0), alternating
 * which goes first. The first two rounds are both without views: their ratio is the A/A band the
 * machine's noise gives. Also counts what the views received (messages, bytes, sockets still
 * open: none may be dropped as a slow reader). Writes its section of bench/RESULTS.md (between
 * the `manage` markers), leaving the rest.
 */
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir, loadavg } from 'node:os'
import { join } from 'node:path'
import { writeSection, currentSection } from './sections'
import { run, rps, runSalt, serveLobby, wrk, type WrkRun } from './processes'

const ROOT = join(import.meta.dir, '..')
const BENCH = import.meta.dir
const RESULTS = process.env.BENCH_OUT ?? join(BENCH, 'RESULTS.md')
const env = (name: string, fallback: number) => (process.env[name] === undefined ? fallback : Number(process.env[name]))
const ROUNDS = env('BENCH_RUNS', 3)
const SECONDS = env('BENCH_DURATION', 10)
const VIEWS = env('BENCH_VIEWS', 100)
const WAITING = env('BENCH_WAITING', 500)
const UNIT = 'qu_bench'
const ISSUE_BODY = JSON.stringify({ locationId: 'loc_hall', serviceId: 'svc_accounts', externalReference: 'bench' })
const PASSWORD = 'quiet lantern 42 orchard'
export const START = '<!-- manage:start -->'
export const END = '<!-- manage:end -->'

const say = (line: string) => process.stderr.write(`[bench:manage] ${line}\n`)
const load = () => loadavg()[0]!



interface Secrets { issue: string; operator: string }

/** wrk issuing tickets and cancelling each on its next request (bench/lua/issue-cancel.lua): the line stays at WAITING. */
function issueAndCancel(url: string, secrets: Secrets, seconds: number): WrkRun {
  return wrk('issue-cancel.lua', url, [runSalt(), secrets.issue, ISSUE_BODY, secrets.operator], seconds)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function issueOne(url: string, secret: string): Promise<void> {
  const res = await fetch(`${url}/api/public/v1/queue/tickets`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'x-request-timestamp': new Date().toISOString(),
      'x-request-nonce': crypto.randomUUID(), 'idempotency-key': crypto.randomUUID(),
    },
    body: ISSUE_BODY,
  })
  if (res.status !== 201) throw new Error(`seed issue: ${res.status} ${await res.text()}`)
}

/** The unit's waiting tickets now (the public state read, every service of both locations). */
async function waitingNow(url: string, secret: string): Promise<number> {
  const res = await fetch(`${url}/api/public/v1/queue/state`, { headers: { authorization: `Bearer ${secret}` } })
  if (res.status !== 200) throw new Error(`state read: ${res.status} ${await res.text()}`)
  const body = (await res.json()) as { data: { services: { waiting: number }[] } }
  return body.data.services.reduce((n, s) => n + s.waiting, 0)
}

/** The floor's views: websockets with a manager's session cookie, each subscribed to the unit. */
interface Views { sockets: WebSocket[]; messages: number; bytes: number; largest: number; closed: number; close: () => void }

async function openViews(url: string, cookies: string[], count: number): Promise<Views> {
  const views: Views = { sockets: [], messages: 0, bytes: 0, largest: 0, closed: 0, close: () => views.sockets.forEach((s) => s.close()) }
  const ws = url.replace('http', 'ws')
  await Promise.all(Array.from({ length: count }, (_, i) => new Promise<void>((resolve, reject) => {
    // Bun's WebSocket takes headers: the session cookie and this server's Origin, as a browser sends.
    const socket = new WebSocket(`${ws}/api/manage/v1/live`, { headers: { cookie: cookies[i % cookies.length]!, origin: url } } as unknown as string[])
    socket.addEventListener('open', () => socket.send(JSON.stringify({ type: 'subscribe', topics: [{ kind: 'queue', id: UNIT }] })))
    socket.addEventListener('message', (event) => {
      const text = String(event.data)
      if (text.startsWith('{"type":"snapshot"') && !views.sockets.includes(socket)) {
        views.sockets.push(socket)
        resolve()
      }
      if (text.startsWith('{"type":"update"')) {
        views.messages += 1
        views.bytes += text.length
        views.largest = Math.max(views.largest, text.length)
      }
    })
    socket.addEventListener('close', () => {
      views.closed += 1
      reject(new Error('a view was closed before its snapshot'))
    })
  })))
  return views
}

export async function manageBench(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist', 'lobby'))) throw new Error('dist/lobby is missing (bun run build)')
  const tmp = mkdtempSync(join(tmpdir(), 'lobby-bench-manage-'))
  const loadStart = load()
  try {
    const binary = join(tmp, 'lobby')
    copyFileSync(join(ROOT, 'dist', 'lobby'), binary)
    chmodSync(binary, 0o755)
    const db = join(tmp, 'floor.db')
    const provisioned = JSON.parse(run([binary, 'provision', '--db', db, '--file', join(BENCH, 'provision.json')])) as { secrets: { name: string; secret: string }[] }
    const secret = provisioned.secrets.find((s) => s.name === 'bench-issue')!.secret
    const secrets: Secrets = { issue: secret, operator: provisioned.secrets.find((s) => s.name === 'bench-operator')!.secret }
    const stateSecret = provisioned.secrets.find((s) => s.name === 'bench-state')!.secret
    const managers = ['m1', 'm2', 'm3', 'm4'].map((username) => ({ username, link: JSON.parse(run([binary, 'users', 'add', '--db', db, '--username', username, '--role', 'manager', '--queue-units', UNIT])) as { setupPath: string } }))
    const server = await serveLobby(binary, db)
    const cookies: string[] = []
    for (const { username, link } of managers) {
      const code = new URL(link.setupPath, server.url).searchParams.get('code')
      const setup = await fetch(`${server.url}/api/auth/v1/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, password: PASSWORD }) })
      if (setup.status !== 200) throw new Error(`setup ${username}: ${setup.status}`)
      const signIn = await fetch(`${server.url}/api/auth/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: PASSWORD }) })
      cookies.push(signIn.headers.get('set-cookie')!.split(';')[0]!)
    }
    for (let i = 0; i < WAITING; i++) await issueOne(server.url, secret)
    const waitingBefore = await waitingNow(server.url, stateSecret)
    say(`${waitingBefore} tickets waiting; warming up`)
    const loadIssue = load()
    issueAndCancel(server.url, secrets, 2)
    const runs: { none: WrkRun[]; views: WrkRun[]; aa: WrkRun[] } = { none: [], views: [], aa: [] }
    const seen: { messages: number; bytes: number; largest: number; closed: number; seconds: number }[] = []
    // A/A: two rounds without views.
    runs.aa.push(issueAndCancel(server.url, secrets, SECONDS))
    runs.aa.push(issueAndCancel(server.url, secrets, SECONDS))
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['none', 'views'] as const) : (['views', 'none'] as const)
      for (const which of order) {
        if (which === 'none') {
          runs.none.push(issueAndCancel(server.url, secrets, SECONDS))
        } else {
          const views = await openViews(server.url, cookies, VIEWS)
          const started = performance.now()
          runs.views.push(issueAndCancel(server.url, secrets, SECONDS))
          await Bun.sleep(500)
          seen.push({ messages: views.messages, bytes: views.bytes, largest: views.largest, closed: views.closed, seconds: (performance.now() - started) / 1000 })
          views.close()
          await Bun.sleep(300)
        }
        say(`round ${round + 1}, ${which}: ${rps(runs[which].at(-1)!).toFixed(0)} req/s`)
      }
    }
    const loadEnd = load()
    const waitingAfter = await waitingNow(server.url, stateSecret)
    await server.stop()
    const ratios = runs.views.map((r, i) => rps(r) / rps(runs.none[i]!))
    const aa = rps(runs.aa[1]!) / rps(runs.aa[0]!)
    const f1 = (n: number) => n.toFixed(1)
    const perView = seen.map((s) => s.messages / VIEWS / s.seconds)
    const section = `${START}
## The live floor (issue 36): ticket issue with 100 views of the unit open

Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`bun bench/manage.ts\` on the shared machine: 1-minute load
average ${loadStart.toFixed(2)} at the start, ${loadIssue.toFixed(2)} when the issue runs began, ${loadEnd.toFixed(2)} at their end (2 cores;
the load average says how busy it was), so absolute figures are noisy: compare within a round.

One database provisioned from bench/provision.json with ${WAITING} tickets waiting in \`${UNIT}\`, served by dist/lobby
on core 1. wrk (2 threads, 16 connections, ${SECONDS} s, bench/lua/issue-cancel.lua: each connection issues a ticket and
cancels it with its next request, so the line holds still: ${waitingBefore} waiting before the runs, ${waitingAfter} after) and the views (${VIEWS} websockets of 4
managers' sessions, ${VIEWS / 4} each, subscribed to the unit's floor) on core 0. Rounds alternate which goes first.

| views open | req/s per round | median req/s | median p50 ms | median p99 ms |
|---|---|---|---|---|
| none (A/A) | ${runs.aa.map((r) => rps(r).toFixed(0)).join(', ')} | ${median(runs.aa.map(rps)).toFixed(0)} | ${f1(median(runs.aa.map((r) => r.p50Us)) / 1000)} | ${f1(median(runs.aa.map((r) => r.p99Us)) / 1000)} |
| none | ${runs.none.map((r) => rps(r).toFixed(0)).join(', ')} | ${median(runs.none.map(rps)).toFixed(0)} | ${f1(median(runs.none.map((r) => r.p50Us)) / 1000)} | ${f1(median(runs.none.map((r) => r.p99Us)) / 1000)} |
| ${VIEWS} | ${runs.views.map((r) => rps(r).toFixed(0)).join(', ')} | ${median(runs.views.map(rps)).toFixed(0)} | ${f1(median(runs.views.map((r) => r.p50Us)) / 1000)} | ${f1(median(runs.views.map((r) => r.p99Us)) / 1000)} |

A/A ratio (second ÷ first round without views): **${aa.toFixed(2)}**. Per-round ratio views ÷ none (req/s):
${ratios.map((r) => r.toFixed(2)).join(', ')}; **median ${median(ratios).toFixed(2)}**. Status errors: ${[...runs.aa, ...runs.none, ...runs.views].reduce((n, r) => n + r.statusErrors, 0)}.

What the views received while wrk issued tickets: ${seen.map((s) => f1(s.messages / VIEWS)).join(', ')} updates per view per round
(${perView.map((r) => r.toFixed(1)).join(', ')} a second: one per \`FLOOR_PUBLISH_MS\` at most, however many tickets were issued),
largest message ${Math.max(...seen.map((s) => s.largest))} bytes (the floor of ${WAITING}+ waiting tickets: its size grows with
lines and counters, not with tickets); views closed by the server during the rounds: ${seen.reduce((n, s) => n + s.closed, 0)}.
${END}`
    writeSection({ file: RESULTS, start: START, end: END }, section)
    say(`wrote the manage section of ${RESULTS}`)
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

export const currentManageSection = () => currentSection({ file: RESULTS, start: START, end: END })

if (import.meta.main) await manageBench()
