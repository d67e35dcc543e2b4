// Contract §14 against a real PostgreSQL: two compiled branches (dist/lobby) with their own
// queue units replicate into one head-office database, each through its own role limited by
// row-level security; PostgreSQL stopped and started again; kill -9 of a branch mid-batch.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { writeFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import type { SQL } from 'bun'
import { tempDir } from '../support/cli'
import { ensureBinary, startBinary, type RunningBinary } from '../support/binary'
import { exampleDocument } from '../support/fixtures'
import { createCluster, postgresUnavailable, type TestCluster } from './postgres'

const unavailable = postgresUnavailable()
if (unavailable !== null) console.warn(`skipped: ${unavailable}`)

const BRANCH_PASSWORD = { qu_main: 'Br4nch-A-pw-9f3e', qu_north: 'Br4nch-B-pw-77c1' } as const
type Unit = keyof typeof BRANCH_PASSWORD
const ROLE: Record<Unit, string> = { qu_main: 'branch_a', qu_north: 'branch_b' }

interface Branch {
  unit: Unit
  db: string
  key: string
  operator: string
  server: RunningBinary | null
}

let cluster: TestCluster
let admin: SQL
const branches: Record<Unit, Branch> = {} as Record<Unit, Branch>
const running: RunningBinary[] = []

function lobby(...args: string[]) {
  const result = Bun.spawnSync([ensureBinary(), ...args], { stdout: 'pipe', stderr: 'pipe' })
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() }
}

function provisionBranch(unit: Unit): Branch {
  const dir = tempDir()
  const db = join(dir, 'lobby.db')
  const doc = exampleDocument()
  const queueUnit = doc.workspaces[0]!.queueUnits![0]!
  queueUnit.webhooks = []
  const file = join(dir, 'lobby.json')
  writeFileSync(file, JSON.stringify(doc).replaceAll('qu_main', unit))
  const provisioned = lobby('provision', '--db', db, '--file', file)
  if (provisioned.code !== 0) throw new Error(provisioned.stderr)
  const secrets = JSON.parse(provisioned.stdout).secrets as { kind: string; name: string; secret: string }[]
  return {
    unit,
    db,
    key: secrets.find((s) => s.kind === 'queue' && s.name === 'all')!.secret,
    operator: secrets.find((s) => s.kind === 'queue' && s.name === 'operator')!.secret,
    server: null,
  }
}

async function startBranch(branch: Branch): Promise<RunningBinary> {
  const server = await startBinary(['serve', '--port', '0', '--host', '127.0.0.1', '--db', branch.db], {
    LOBBY_REPLICATE_TO: cluster.url(ROLE[branch.unit], BRANCH_PASSWORD[branch.unit]),
  })
  running.push(server)
  branch.server = server
  return server
}

async function issue(branch: Branch, serviceId = 'svc_accounts') {
  const res = await fetch(`${branch.server!.url}/api/public/v1/queue/tickets`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${branch.key}`,
      'content-type': 'application/json',
      'x-request-timestamp': new Date().toISOString(),
      'x-request-nonce': randomUUID(),
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({ locationId: 'loc_hall', serviceId }),
  })
  expect(res.status).toBe(201)
  return ((await res.json()) as { data: { id: string } }).data
}

async function operate(branch: Branch, path: string) {
  const res = await fetch(`${branch.server!.url}/api/operator/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${branch.operator}` } })
  expect({ path, status: res.status }).toEqual({ path, status: 200 })
  return ((await res.json()) as { data: { id: string } }).data
}

/** Call, start and complete the next ticket at counter 1. */
async function serveNext(branch: Branch) {
  await operate(branch, '/counters/cnt_1/open') // contract §27: call-next at a closed counter is 409
  const ticket = await operate(branch, '/counters/cnt_1/call-next')
  await operate(branch, `/tickets/${ticket.id}/start`)
  await operate(branch, `/tickets/${ticket.id}/complete`)
  return ticket
}

/** The branch's own history, read from its SQLite file (WAL: safe while it serves). */
function branchHistory(branch: Branch) {
  const db = new Database(branch.db, { readonly: true })
  try {
    const events = db.query<{ id: number; ticketId: string; type: string; actor: string }, []>('SELECT id, ticket_id AS ticketId, type, actor FROM ticket_events ORDER BY id').all()
    const tickets = db.query<{ id: string; status: string; version: number }, []>(
      'SELECT id, status, (SELECT max(e.id) FROM ticket_events e WHERE e.ticket_id = tickets.id) AS version FROM tickets ORDER BY id',
    ).all()
    const daily = db.query<Record<string, unknown>, []>(
      'SELECT location_id AS location, service_id AS service, business_day AS day, issued, served, wait_count AS waits, wait_p50 AS "waitP50", service_count AS services FROM report_daily ORDER BY 1, 2, 3',
    ).all()
    const counters = db.query<Record<string, unknown>, []>(
      'SELECT counter_id AS counter, business_day AS day, served, service_count AS services, busy_seconds AS busy FROM report_counter_daily ORDER BY 1, 2',
    ).all()
    return { events, tickets, daily, counters }
  } finally {
    db.close()
  }
}

async function headOfficeHistory(unit: Unit) {
  const events = (await admin`SELECT id::int AS id, ticket_id AS "ticketId", type, actor FROM lobby.ticket_events WHERE queue_unit_id = ${unit} ORDER BY id`) as { id: number; ticketId: string; type: string; actor: string }[]
  const tickets = (await admin`SELECT id, status, version::int AS version FROM lobby.tickets WHERE queue_unit_id = ${unit} ORDER BY id`) as { id: string; status: string; version: number }[]
  const daily = await admin`
    SELECT location_id AS location, service_id AS service, to_char(business_day, 'YYYY-MM-DD') AS day, issued, served, wait_count AS waits, wait_p50 AS "waitP50", service_count AS services
    FROM lobby.report_daily WHERE queue_unit_id = ${unit} ORDER BY 1, 2, 3`
  const counters = await admin`
    SELECT counter_id AS counter, to_char(business_day, 'YYYY-MM-DD') AS day, served, service_count AS services, busy_seconds::int AS busy
    FROM lobby.report_counter_daily WHERE queue_unit_id = ${unit} ORDER BY 1, 2`
  return { events: [...events], tickets: [...tickets], daily: [...daily], counters: [...counters] }
}

/** Every insert head office committed into ticket_events, in commit order (a test-only trigger). */
async function insertLog(unit: Unit) {
  return [...(await admin`SELECT event_id::int AS id, ticket_id AS "ticketId" FROM test_insert_log WHERE queue_unit_id = ${unit} ORDER BY n`)] as { id: number; ticketId: string }[]
}

async function eventually<T>(what: string, read: () => Promise<T> | T, ok: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: T
  for (;;) {
    last = await read()
    if (ok(last)) return last
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last)}`)
    await Bun.sleep(100)
  }
}

/** Head office holds exactly the branch's history: every event once, every ticket at its latest version. */
async function expectReplicated(branch: Branch) {
  const local = branchHistory(branch)
  const remote = await eventually(`${branch.unit} at head office`, () => headOfficeHistory(branch.unit), (r) => r.events.length >= local.events.length && r.tickets.every((t) => t.version === local.tickets.find((l) => l.id === t.id)?.version))
  expect(remote.events).toEqual(local.events)
  // The actor travels as the branch stores it, `type:id` (contract §16; these branches' changes are by keys).
  expect(remote.events.every((e) => e.actor.startsWith('key:'))).toBe(true)
  expect(remote.tickets).toEqual(local.tickets)
  // The report roll-ups of those days, as the branch has them now.
  expect(local.daily.length).toBeGreaterThan(0)
  expect(remote.daily).toEqual(local.daily)
  expect(remote.counters).toEqual(local.counters)
  // Each event was inserted exactly once, and per ticket in the order it happened.
  const log = await insertLog(branch.unit)
  expect(log.map((e) => e.id).sort((a, b) => a - b)).toEqual(local.events.map((e) => e.id))
  const perTicket = new Map<string, number[]>()
  for (const e of log) perTicket.set(e.ticketId, [...(perTicket.get(e.ticketId) ?? []), e.id])
  for (const ids of perTicket.values()) expect(ids).toEqual([...ids].sort((a, b) => a - b))
}

/** Starts the stopped cluster, with a new admin client (the old one's connections died with it). */
async function startPostgres() {
  cluster.start()
  await admin.close({ timeout: 0 }).catch(() => {})
  admin = cluster.admin()
}

function status(branch: Branch) {
  const out = lobby('status', '--db', branch.db)
  expect(out.code).toBe(0)
  return { text: out.stdout, replication: JSON.parse(out.stdout).replication as { lagSeconds: number; pending: number; lastError: string | null; target: string } }
}

describe.skipIf(unavailable !== null)('head office: branches replicate into PostgreSQL (contract §14)', () => {
  beforeAll(async () => {
    ensureBinary()
    cluster = createCluster()
    admin = cluster.admin()
    // The README's head-office setup: the owner migrates, each branch gets its own role.
    const migrated = lobby('replicate-migrate', '--replicate-to', cluster.url())
    expect(migrated.code).toBe(0)
    expect(JSON.parse(migrated.stdout)).toMatchObject({ version: 4, applied: [1, 2, 3, 4] })
    expect(migrated.stdout).not.toContain('Sup3r')
    await admin.unsafe(`
      CREATE ROLE lobby_branch NOLOGIN;
      GRANT USAGE ON SCHEMA lobby TO lobby_branch;
      GRANT SELECT ON lobby.schema_version TO lobby_branch;
      GRANT SELECT, INSERT, UPDATE ON lobby.tickets, lobby.ticket_events, lobby.report_daily, lobby.report_counter_daily, lobby.report_staff_daily TO lobby_branch;
      CREATE ROLE branch_a LOGIN PASSWORD '${BRANCH_PASSWORD.qu_main}' IN ROLE lobby_branch;
      CREATE ROLE branch_b LOGIN PASSWORD '${BRANCH_PASSWORD.qu_north}' IN ROLE lobby_branch;
      INSERT INTO lobby.branch_roles (role_name, queue_unit_id) VALUES ('branch_a', 'qu_main'), ('branch_b', 'qu_north');
      CREATE TABLE test_insert_log (n bigserial PRIMARY KEY, queue_unit_id text, event_id bigint, ticket_id text);
      CREATE FUNCTION test_log_insert() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
        BEGIN INSERT INTO public.test_insert_log (queue_unit_id, event_id, ticket_id) VALUES (NEW.queue_unit_id, NEW.id, NEW.ticket_id); RETURN NEW; END $$;
      CREATE TRIGGER test_log_insert AFTER INSERT ON lobby.ticket_events FOR EACH ROW EXECUTE FUNCTION test_log_insert();
    `)
    branches.qu_main = provisionBranch('qu_main')
    branches.qu_north = provisionBranch('qu_north')
  }, 120_000)

  afterAll(async () => {
    for (const r of running) if (r.proc.exitCode === null) await r.stop('SIGKILL')
    await admin?.close({ timeout: 0 }).catch(() => {})
    cluster?.destroy()
  })

  test('two branches with their own queue units and roles fill one database; each role writes only its own rows', async () => {
    const a = branches.qu_main
    const b = branches.qu_north
    await Promise.all([startBranch(a), startBranch(b)])
    for (let i = 0; i < 3; i++) await issue(a)
    await issue(a, 'svc_loans')
    for (let i = 0; i < 2; i++) await issue(b)
    await serveNext(a)
    await operate(b, '/counters/cnt_1/open')
    await operate(b, '/counters/cnt_1/call-next')

    await expectReplicated(a)
    await expectReplicated(b)
    // The same event ids (both branches count from 1) live side by side, keyed by queue unit.
    const [both] = await admin`SELECT count(*)::int AS n FROM lobby.ticket_events WHERE id = 1`
    expect(both.n).toBe(2)
    expect((await admin`SELECT DISTINCT status FROM lobby.tickets WHERE queue_unit_id = 'qu_main' ORDER BY status`).map((r: { status: string }) => r.status)).toEqual(['COMPLETED', 'WAITING'])

    // The README's cross-branch report SQL runs on what the branches sent.
    const readme = await Bun.file(join(import.meta.dir, '../../README.md')).text()
    const section = readme.slice(readme.indexOf('### A cross-branch daily report'))
    const queries = [...section.matchAll(/```sql\n([\s\S]*?)```/g)].slice(0, 3).map((m) => m[1]!)
    expect(queries).toHaveLength(3)
    const today = branchHistory(a).daily[0]!.day as string
    const perBranch = await admin.unsafe(queries[0]!.replace("DATE '2026-11-01'", `DATE '${today}'`).replace("DATE '2026-11-30'", `DATE '${today}'`))
    expect(perBranch.map((r: { branch: string }) => r.branch).sort()).toEqual(['qu_main', 'qu_north'])
    expect(perBranch.find((r: { branch: string }) => r.branch === 'qu_main').issued).toBe('4')
    const median = await admin.unsafe(queries[1]!.replace("DATE '2026-11-26'", `DATE '${today}'`))
    expect(median).toHaveLength(1)
    await admin.unsafe(queries[2]!)

    // Row-level security: branch A's role may not write (nor see) branch B's rows.
    const asA = new (await import('bun')).SQL(cluster.url('branch_a', BRANCH_PASSWORD.qu_main), { max: 1 })
    try {
      expect((await asA`SELECT count(*)::int AS n FROM lobby.tickets WHERE queue_unit_id = 'qu_north'`)[0].n).toBe(0)
      const forged = asA`INSERT INTO lobby.ticket_events (queue_unit_id, id, ticket_id, type, to_status, actor, at) VALUES ('qu_north', 999999, 'tkt_x', 'created', 'WAITING', 'x', now())`
      await expect(forged).rejects.toThrow(/row-level security/)
    } finally {
      await asA.close({ timeout: 0 })
    }

    // Lag and backlog in status and /metrics, and never a password.
    const state = status(a)
    expect(state.replication).toMatchObject({ pending: 0, lagSeconds: 0, lastError: null, target: `postgres://branch_a@127.0.0.1:${cluster.port}/headoffice` })
    const metrics = await (await fetch(`${a.server!.url}/metrics`)).text()
    expect(metrics).toContain('lobby_replication_pending 0')
    expect(metrics).toContain('lobby_replication_lag_seconds 0')
    for (const text of [state.text, metrics, a.server!.lines.join('\n')]) expect(text).not.toContain(BRANCH_PASSWORD.qu_main)
    expect(b.server!.lines.join('\n')).not.toContain(BRANCH_PASSWORD.qu_north)
  }, 120_000)

  test('PostgreSQL stopped: the branch goes on, reports the error and the backlog; started again: everything arrives once, in order', async () => {
    const a = branches.qu_main
    cluster.stop()
    const issuedWhileDown: string[] = []
    for (let i = 0; i < 6; i++) issuedWhileDown.push((await issue(a)).id)
    await serveNext(a)
    await serveNext(a)
    await operate(a, '/counters/cnt_2/open')
    await operate(a, '/counters/cnt_2/call-next')

    const down = await eventually('the failure in lobby status', () => status(a), (s) => s.replication.lastError !== null && s.replication.pending > 0)
    expect(down.replication.pending).toBeGreaterThanOrEqual(6 + 2 * 3 + 1)
    expect(down.replication.lastError).toMatch(/connect|refused|closed/i)
    expect(down.text).not.toContain(BRANCH_PASSWORD.qu_main)
    const metrics = await (await fetch(`${a.server!.url}/metrics`)).text()
    expect(metrics).toMatch(/lobby_replication_pending [1-9]\d*/)
    expect(metrics).not.toContain(BRANCH_PASSWORD.qu_main)
    expect(a.server!.lines.some((line) => line.includes('"replication failed"'))).toBe(true)

    await startPostgres()
    // Retries come at most 10 s apart (contract §14); the default is 5 s.
    await eventually('the backlog to drain', () => status(a).replication, (r) => r.pending === 0 && r.lastError === null, 30_000)
    await expectReplicated(a)
    expect(a.server!.lines.some((line) => line.includes('"replication resumed"'))).toBe(true)
    expect(a.server!.lines.join('\n')).not.toContain(BRANCH_PASSWORD.qu_main)
  }, 120_000)

  test('kill -9 with the batch committed at head office but the cursor not yet moved: the restarted branch re-sends it, nothing doubles', async () => {
    const a = branches.qu_main
    cluster.stop()
    for (let i = 0; i < 5; i++) await issue(a)
    await serveNext(a)
    const local = branchHistory(a)
    // Hold the branch database's write lock: the replicator can commit at head office but
    // cannot record its cursor; that is the moment to die.
    const lock = new Database(a.db)
    lock.exec('PRAGMA busy_timeout = 10000')
    lock.exec('BEGIN IMMEDIATE')
    try {
      await startPostgres()
      await eventually('the batch at head office', () => headOfficeHistory('qu_main'), (r) => r.events.length === local.events.length, 30_000)
      a.server!.proc.kill('SIGKILL')
      await a.server!.proc.exited
    } finally {
      lock.exec('ROLLBACK')
      lock.close()
    }
    const before = status(a).replication
    expect(before.pending).toBeGreaterThan(0) // head office has it, the cursor does not know yet
    const restarted = await startBranch(a)
    const resumedAt = JSON.parse(restarted.lines.find((line) => line.includes('"replication started"'))!).cursor as number
    expect(resumedAt).toBeLessThan(local.events.at(-1)!.id) // so the batch goes again
    await eventually('the restarted branch to catch up', () => status(a).replication, (r) => r.pending === 0, 30_000)
    await expectReplicated(a)
  }, 120_000)

  test('kill -9 while the batch is in PostgreSQL\'s open transaction: nothing of it is kept, the restarted branch sends it once', async () => {
    const a = branches.qu_main
    // Each inserted event takes 100 ms at head office, so the batch stays open long enough to die in.
    await admin.unsafe(`
      CREATE FUNCTION test_slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.1); RETURN NEW; END $$;
      CREATE TRIGGER test_slow BEFORE INSERT ON lobby.ticket_events FOR EACH ROW EXECUTE FUNCTION test_slow();
    `)
    cluster.stop()
    for (let i = 0; i < 20; i++) await issue(a)
    await startPostgres()
    try {
      await eventually(
        'a batch in flight',
        () => admin`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'lobby-replication' AND usename = 'branch_a' AND xact_start IS NOT NULL AND state = 'active'`,
        (rows) => rows[0].n > 0,
        30_000,
      )
      a.server!.proc.kill('SIGKILL')
      await a.server!.proc.exited
      // Once PostgreSQL has noticed the dead client, none of that batch is there.
      await eventually('the dead branch\'s session to end', () => admin`SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = 'branch_a'`, (rows) => rows[0].n === 0, 30_000)
      expect((await headOfficeHistory('qu_main')).events.length).toBeLessThan(branchHistory(a).events.length)
    } finally {
      await admin.unsafe('DROP TRIGGER test_slow ON lobby.ticket_events; DROP FUNCTION test_slow()')
    }
    await startBranch(a)
    await eventually('the restarted branch to catch up', () => status(a).replication, (r) => r.pending === 0, 30_000)
    await expectReplicated(a)
  }, 120_000)

  test('a bad --replicate-to exits 2 with one line that never repeats the password', () => {
    const out = lobby('serve', '--port', '0', '--db', join(tempDir(), 'x.db'), '--replicate-to', 'mysql://u:Secr3t-pw@host/db')
    expect(out.code).toBe(2)
    expect(out.stderr).toContain('postgres://')
    expect(out.stderr).not.toContain('Secr3t-pw')
  })
})
