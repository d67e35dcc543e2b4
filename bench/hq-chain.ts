/**
 * `bun bench/hq-chain.ts`: a simulated chain of 500 branches on one PostgreSQL on this machine
 * (contract §26 "Scale"). Writes its section of bench/RESULTS.md (between the `hq-chain` markers).
 *
 * One process plays every branch with the statements a branch runs: replication batches through
 * the replicator's own `send` (tickets, events and the day's roll-up, one transaction per batch,
 * gathered for 250 ms as the replicator does), the live row every 5 s (`upsertLive`) and the
 * profile poll every 5 s (`newestRevisions`). A rollout publishes a profile to all 500 while the
 * load runs: each branch, at its next poll, applies it to its own SQLite copy of a provisioned
 * branch through the provisioning validator in one transaction (`profileDocument` +
 * `applyProvisioning`, actor hq) and writes the outcome back (`reportOutcome`). `/hq/live` is
 * read through the HQ app (`createHqApp`, a signed-in session) while the load runs.
 *
 * What differs from 500 real boxes: the branches share one process, one CPU and a pool of
 * PostgreSQL connections (real branches hold one each: PostgreSQL then needs max_connections
 * above 2 per branch, or a pooler); their SQLite applies run one after another here.
 *
 * Environment: BENCH_BRANCHES (500), BENCH_TICKETS_PER_HOUR (per branch in the busy hour, 120),
 * BENCH_DURATION (seconds of load, 60), BENCH_POOL (PostgreSQL connections, 24).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir, loadavg } from 'node:os'
import { join } from 'node:path'
import { SQL } from 'bun'
import { createCluster, postgresUnavailable } from '../test/replication/postgres'
import { exampleDocument } from '../test/support/fixtures'
import { writeSection } from './sections'
import { HQ_CHAIN_SECTION } from './hq-chain-section'
import { openDatabase } from '../src/db/open'
import { migrateDatabase } from '../src/root/migrate'
import { applyProvisioning } from '../src/provisioning/service'
import { exportProvisioning } from '../src/provisioning/export'
import { migrateHeadOffice } from '../src/replication/postgres-schema'
import { send } from '../src/replication/replicator'
import { newestRevisions, reportOutcome, upsertLive } from '../src/hq/branch-link'
import { HQ_ACTOR, profileDocument, type ProfileContent } from '../src/hq/profile'
import { createHqApp } from '../src/hq/app'
import { systemClock } from '../src/platform/clock'
import { randomIds } from '../src/platform/ids'
import type { ChangeBatch } from '../src/tickets'

const env = (name: string, fallback: number) => (process.env[name] === undefined ? fallback : Number(process.env[name]))
const BRANCHES = env('BENCH_BRANCHES', 500)
const TICKETS_PER_HOUR = env('BENCH_TICKETS_PER_HOUR', 120)
const DURATION_S = env('BENCH_DURATION', 60)
const POOL = env('BENCH_POOL', 24)
const EVENTS_PER_TICKET = 4 // created, called, serving, completed
const GATHER_MS = 250
const POLL_MS = 5_000
const LIVE_MS = 5_000
const { start: START, end: END } = HQ_CHAIN_SECTION
const say = (line: string) => process.stderr.write(`[bench:hq-chain] ${line}\n`)

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}
const today = () => new Date().toISOString().slice(0, 10)

interface SimBranch {
  unit: string
  eventId: number
  ticketSeq: number
  pending: { at: number; ticket: number; step: number }[]
  open: { ticket: number; step: number }[]
  issued: number
  sending: boolean
  dbPath: string
  appliedRevision: number
}

function batchOf(branch: SimBranch, now: number): { batch: ChangeBatch; ats: number[] } {
  const events = branch.pending.splice(0)
  const steps = ['created', 'called', 'serving', 'completed'] as const
  const statuses = ['WAITING', 'CALLED', 'SERVING', 'COMPLETED'] as const
  const tickets = new Map<number, ChangeBatch['tickets'][number]>()
  const out: ChangeBatch['events'] = []
  for (const e of events) {
    const id = ++branch.eventId
    out.push({ id, queueUnitId: branch.unit, ticketId: `tkt_${branch.unit}_${e.ticket}`, type: steps[e.step]!, fromStatus: e.step === 0 ? null : statuses[e.step - 1]!, toStatus: statuses[e.step]!, counterId: e.step === 0 ? null : 'cnt_1', actor: 'device:desk-1', at: e.at, detail: null })
    tickets.set(e.ticket, {
      id: `tkt_${branch.unit}_${e.ticket}`, queueUnitId: branch.unit, locationId: 'loc_hall', serviceId: 'svc_accounts', businessDay: today(), prefix: 'A', seq: e.ticket,
      ticketNumber: `A${String(e.ticket).padStart(3, '0')}`, priority: 0, status: statuses[e.step]!, source: 'kiosk', externalReference: null, counterId: e.step === 0 ? null : 'cnt_1',
      callCount: e.step === 0 ? 0 : 1, createdAt: e.at, calledAt: e.step >= 1 ? e.at : null, servingAt: e.step >= 2 ? e.at : null, completedAt: e.step >= 3 ? e.at : null, version: id,
    })
  }
  const daily = [{
    queueUnitId: branch.unit, locationId: 'loc_hall', serviceId: 'svc_accounts', businessDay: today(), issued: branch.issued, served: 0, noShow: 0, cancelled: 0, transferredOut: 0,
    waitCount: 0, waitSum: 0, waitMax: null, waitP50: null, waitP90: null, withinTarget: 0, serviceCount: 0, serviceSum: 0, serviceP50: null, serviceP90: null,
    issuedByHour: Array.from({ length: 24 }, () => 0), servedByHour: Array.from({ length: 24 }, () => 0), waitHistogram: [], serviceHistogram: [],
  }]
  void now
  return { batch: { events: out, tickets: [...tickets.values()], daily, counters: [], staff: [], through: branch.eventId }, ats: events.map((e) => e.at) }
}

async function main(): Promise<void> {
  const unavailable = postgresUnavailable()
  if (unavailable !== null) {
    say(unavailable)
    return
  }
  const loadStart = loadavg()[0]!
  const tmp = mkdtempSync(join(tmpdir(), 'lobby-bench-hq-'))
  const cluster = createCluster()
  const sql = new SQL(cluster.url(), { max: POOL, idleTimeout: 60 })
  const hqSql = new SQL(cluster.url(), { max: 4, idleTimeout: 60 })
  try {
    await migrateHeadOffice(sql)

    // One provisioned branch file, copied for every simulated branch (its own unit ID inside).
    say(`provisioning ${BRANCHES} branch databases`)
    const template = join(tmp, 'template.db')
    {
      const db = openDatabase(template)
      migrateDatabase(db.$client)
      db.$client.close()
    }
    const branches: SimBranch[] = []
    for (let i = 0; i < BRANCHES; i++) {
      const unit = `qu_b${String(i).padStart(3, '0')}`
      const dbPath = join(tmp, `${unit}.db`)
      copyFileSync(template, dbPath)
      const db = openDatabase(dbPath)
      const doc = JSON.parse(JSON.stringify(exampleDocument()).replaceAll('qu_main', unit))
      doc.workspaces[0].queueUnits[0].webhooks = []
      applyProvisioning(db, doc, Date.now())
      db.$client.close()
      branches.push({ unit, eventId: 0, ticketSeq: 0, pending: [], open: [], issued: 0, sending: false, dbPath, appliedRevision: 0 })
    }

    // Head office: an admin's session on the HQ app, the profile assigned to every branch.
    const app = createHqApp({ sql: hqSql, log: () => {}, clock: systemClock, publicOrigin: null, passwordCost: { memoryCost: 1024, timeCost: 1 } })
    const hq = app.decorator.hq
    const link = await hq.addUser({ username: 'bench', role: 'hq-admin' })
    await hq.completeSetup(new URL(`http://x${link.setupPath}`).searchParams.get('code'), 'chain-of-five-hundred-2026')
    const { sessionId } = await hq.signIn('bench', 'chain-of-five-hundred-2026')
    const cookie = `lobby_hq_session=${sessionId}`
    const content: ProfileContent = {
      services: [{ id: 'svc_accounts', name: { en: 'Current accounts', ar: 'الحسابات الجارية' }, prefix: 'A', waitTargetSeconds: 600 }, { id: 'svc_exchange', name: 'Currency exchange', prefix: 'E' }],
      breakReasons: ['Break', 'Lunch', 'Training'],
    }
    await hq.createProfile({ id: 'prof_bench', name: 'Bench', content }, 'bench')
    await sql`INSERT INTO lobby.hq_branches ${sql(branches.map((b) => ({ queue_unit_id: b.unit, profile_id: 'prof_bench', assigned_at: new Date(), assigned_by: 'bench' })))}`

    // The load: tickets arrive at random per branch; each moves through its steps a few seconds apart.
    const eventsPerSecond = (BRANCHES * TICKETS_PER_HOUR * EVENTS_PER_TICKET) / 3600
    say(`load: ${BRANCHES} branches × ${TICKETS_PER_HOUR} tickets/h × ${EVENTS_PER_TICKET} events = ${eventsPerSecond.toFixed(1)} events/s for ${DURATION_S} s`)
    const lags: number[] = []
    const batchMs: number[] = []
    let committed = 0
    let generated = 0
    let failures = 0
    // Phase 1 (the load alone) is what events/s, lag and /hq/live are measured on; phase 2 adds the rollout.
    let phase: 1 | 2 = 1
    let stopping = false
    const started = Date.now()
    const perBranchTicketsPerMs = TICKETS_PER_HOUR / 3_600_000
    // Steady state from the first second: each branch starts with the tickets a busy hour keeps open
    // (arrivals × a ticket's ~60 s life), at random steps, so events flow at the full rate at once.
    const openAtStart = Math.max(1, Math.round(TICKETS_PER_HOUR / 60))
    for (const b of branches) {
      for (let i = 0; i < openAtStart; i++) b.open.push({ ticket: ++b.ticketSeq, step: Math.floor(Math.random() * 3) })
      b.issued = b.ticketSeq
    }
    let last = Date.now()
    const generator = setInterval(() => {
      const now = Date.now()
      const dt = now - last
      last = now
      for (const b of branches) {
        if (Math.random() < perBranchTicketsPerMs * dt) {
          const ticket = ++b.ticketSeq
          b.issued++
          b.pending.push({ at: now, ticket, step: 0 })
          if (phase === 1) generated++
          b.open.push({ ticket, step: 0 })
        }
        // Each open ticket moves one step on average every 3 minutes / EVENTS… scaled so a ticket's 4 events span its life.
        for (let i = b.open.length - 1; i >= 0; i--) {
          const t = b.open[i]!
          if (Math.random() < dt / 20_000) {
            t.step++
            b.pending.push({ at: now, ticket: t.ticket, step: t.step })
            if (phase === 1) generated++
            if (t.step === 3) b.open.splice(i, 1)
          }
        }
      }
    }, 50)
    // Each branch sends what it gathered every GATHER_MS (one batch in flight per branch, as the replicator).
    const sender = setInterval(() => {
      for (const b of branches) {
        if (b.sending || b.pending.length === 0) continue
        b.sending = true
        const { batch, ats } = batchOf(b, Date.now())
        const t0 = performance.now()
        send(sql, batch).then(() => {
          const done = Date.now()
          if (phase !== 1) return
          batchMs.push(performance.now() - t0)
          committed += batch.events.length
          for (const at of ats) lags.push(done - at)
        }, (error) => {
          failures++
          if (failures < 5) say(`batch failed: ${(error as Error).message}`)
        }).finally(() => {
          b.sending = false
        })
      }
    }, GATHER_MS)
    // Live rows and profile polls, each branch every 5 s, spread over the period.
    let rollout: { publishedAt: number; revision: number } | null = null
    const applyMs: number[] = []
    const ticker = setInterval(() => {
      const slot = Math.floor((Date.now() - started) / 100) % (POLL_MS / 100)
      const due = branches.filter((_, i) => i % (POLL_MS / 100) === slot)
      if (due.length === 0 || stopping) return
      const now = Date.now()
      void upsertLive(sql, due.map((b) => ({
        queue_unit_id: b.unit, name: `Branch ${b.unit}`, waiting: b.open.filter((t) => t.step === 0).length, longest_wait_seconds: 0, counters_open: 2, over_target: 0,
        lines: [{ locationId: 'loc_hall', serviceId: 'svc_accounts', name: 'Accounts', waiting: b.open.length, longestWaitSeconds: 0, waitTargetSeconds: 600, overTarget: false }],
        observed_at: new Date(now),
      }))).catch(() => failures++)
      void newestRevisions(sql, due.map((b) => b.unit)).then(async (rows) => {
        for (const row of rows) {
          const b = branches.find((x) => x.unit === row.queue_unit_id)!
          if (row.revision <= b.appliedRevision) continue
          const t0 = performance.now()
          const db = openDatabase(b.dbPath)
          try {
            const ws = exportProvisioning(db).workspaces[0]!
            const unit = ws.queueUnits!.find((u) => u.id === b.unit)!
            applyProvisioning(db, profileDocument({ workspace: { id: ws.id, name: ws.name }, unit }, row.content as ProfileContent), Date.now(), randomIds, HQ_ACTOR)
          } finally {
            db.$client.close()
          }
          applyMs.push(performance.now() - t0)
          b.appliedRevision = row.revision
          await reportOutcome(sql, { queueUnitId: b.unit, profileId: row.profile_id, revision: row.revision, appliedAt: Date.now(), errorRevision: null, error: null, errorAt: null })
        }
      }).catch((error) => {
        failures++
        if (failures < 5) say(`poll failed: ${(error as Error).message}`)
      })
    }, 100)

    // /hq/live read through the app every 2 s after the first live rows are in.
    const liveMs: number[] = []
    let liveRows = 0
    while (Date.now() - started < DURATION_S * 1000) {
      await Bun.sleep(2_000)
      if (Date.now() - started > LIVE_MS + 1_000 && phase === 1) {
        const t0 = performance.now()
        const res = await app.handle(new Request('http://hq.local/api/hq/v1/live', { headers: { cookie } }))
        const body = (await res.json()) as { data: unknown[] }
        liveMs.push(performance.now() - t0)
        liveRows = body.data.length
      }
    }
    const loadSeconds = (Date.now() - started) / 1000
    phase = 2
    // Phase 2: the load goes on; a profile revision is published to all 500.
    const published = await hq.publish('prof_bench', 'bench')
    rollout = { publishedAt: Date.parse(published.publishedAt), revision: published.revision }
    say(`published revision ${published.revision}`)
    // Rollout: until the last branch wrote back (bounded by two poll periods past the load).
    let lastApplied: number | null = null
    const rolloutDeadline = Date.now() + 180_000
    while (rollout !== null && Date.now() < rolloutDeadline) {
      const [row] = (await sql`SELECT count(*)::int AS n, max(reported_at) AS last FROM lobby.hq_branch_applies WHERE revision = ${rollout.revision}`) as { n: number; last: Date | null }[]
      if (row!.n === BRANCHES) {
        lastApplied = new Date(row!.last!).getTime()
        break
      }
      await Bun.sleep(500)
    }
    stopping = true
    clearInterval(generator)
    clearInterval(ticker)
    clearInterval(sender)
    while (branches.some((b) => b.sending)) await Bun.sleep(50)
    const [stored] = (await sql`SELECT count(*)::int AS n FROM lobby.ticket_events`) as { n: number }[]
    const loadEnd = loadavg()[0]!

    const rolloutSeconds = rollout !== null && lastApplied !== null ? (lastApplied - rollout.publishedAt) / 1000 : null
    const section = `${START}
## Head office runs the chain (issue 47): 500 branches on one PostgreSQL

Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`bun bench/hq-chain.ts\` on the shared machine (2 cores; other
agents were working: 1-minute load average ${loadStart.toFixed(2)} at the start, ${loadEnd.toFixed(2)} at the end), PostgreSQL ${'15'} from
test/replication/postgres.ts (a throwaway cluster on loopback, fsync off), one bench process playing every branch.

A busy day's peak hour: ${BRANCHES} branches × ${TICKETS_PER_HOUR} tickets an hour × ${EVENTS_PER_TICKET} events a ticket
(created, called, serving, completed) = **${eventsPerSecond.toFixed(0)} events/s offered** for ${DURATION_S} s; each branch sends
what it gathered every ${GATHER_MS} ms in one transaction through the replicator's own \`send\` (ticket upserts, events, the day's
roll-up), tells its floor (\`upsertLive\`) and polls for a profile revision (\`newestRevisions\`) every 5 s. A pool of ${POOL}
PostgreSQL connections carries them all (500 real branches hold one each for replication and one for the profile link:
PostgreSQL needs \`max_connections\` above 1,000, or a pooler such as PgBouncer in transaction mode).

| measure | value |
|---|---|
| events generated / committed in the ${loadSeconds.toFixed(0)} s of load | ${generated.toLocaleString('en')} / ${committed.toLocaleString('en')} (head office holds ${stored!.n.toLocaleString('en')} after both phases) |
| events/s sustained | ${(committed / loadSeconds).toFixed(0)} (generated ${(generated / loadSeconds).toFixed(0)}/s: the random arrivals and steps of this run; steady rate ${eventsPerSecond.toFixed(0)}/s) |
| ingest lag (event to COMMIT at head office) p50 / p99 / max | ${pct(lags, 50).toFixed(0)} / ${pct(lags, 99).toFixed(0)} / ${pct(lags, 100).toFixed(0)} ms (includes the ${GATHER_MS} ms gather) |
| one batch's transaction p50 / p99 | ${pct(batchMs, 50).toFixed(1)} / ${pct(batchMs, 99).toFixed(1)} ms |
| \`GET /api/hq/v1/live\` with ${liveRows} branches, p50 / p99 (${liveMs.length} reads under the load) | ${pct(liveMs, 50).toFixed(1)} / ${pct(liveMs, 99).toFixed(1)} ms |
| profile rollout to all ${BRANCHES} (phase 2, the load going on): publish → the last branch's write-back | ${rolloutSeconds === null ? 'not all applied within 180 s' : `${rolloutSeconds.toFixed(1)} s`} |
| one branch's apply (provisioning validator + one SQLite transaction), p50 / p99; all ${applyMs.length} one after another | ${pct(applyMs, 50).toFixed(1)} / ${pct(applyMs, 99).toFixed(1)} ms; ${(applyMs.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s in all |
| failed statements | ${failures} |

The rollout time is bounded by the poll period (5 s) plus the applies: here the ${BRANCHES} applies ran one after another in one
process, each branch's on its own box in a real chain. \`/hq/live\` reads one row per branch (the floor each branch tells), plus
each branch's newest replicated event for "last heard"; its p99 is ${pct(liveMs, 99) < 10_000 ? 'inside' : 'NOT inside'} the 10 s the contract allows.
${END}`
    writeSection(HQ_CHAIN_SECTION, section)
    say(section)
  } finally {
    await sql.close({ timeout: 0 }).catch(() => {})
    await hqSql.close({ timeout: 0 }).catch(() => {})
    cluster.destroy()
    rmSync(tmp, { recursive: true, force: true })
  }
}

await main()
