// Contract §26 against a real PostgreSQL started here: two compiled branches (dist/lobby serve
// --hq replication) and two head-office processes (dist/lobby hq serve) on one database. An HQ
// admin publishes a profile through one HQ process and reads the rollout through the other;
// both branches apply it, one refuses a later revision and keeps serving, one is stopped and
// catches up when started again; the branch console refuses a profile-owned field (HQ_MANAGED);
// /hq/live shows the tickets issued; /hq/reports counts them per branch.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { writeFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { SQL } from 'bun'
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { tempDir } from '../support/cli'
import { ensureBinary, startBinary, type RunningBinary } from '../support/binary'
import { exampleDocument } from '../support/fixtures'
import { createCluster, postgresUnavailable, type TestCluster } from '../replication/postgres'
import { HAVE_CHROMIUM, IMAGES, guardNetwork, launchBrowser } from '../screens/support'

const unavailable = postgresUnavailable()
if (unavailable !== null) console.warn(`skipped: ${unavailable}`)

const UNITS = ['qu_main', 'qu_north'] as const
type Unit = (typeof UNITS)[number]
const ROLE: Record<Unit, { name: string; password: string }> = {
  qu_main: { name: 'branch_a', password: 'Br4nch-A-pw-9f3e' },
  qu_north: { name: 'branch_b', password: 'Br4nch-B-pw-77c1' },
}
const HQ_PASSWORD = 'chain-of-branches-2026'
const BRANCH_ADMIN_PASSWORD = 'local-console-pw-2026'

interface Branch {
  unit: Unit
  db: string
  key: string
  operator: string
  adminSetup: string
  server: RunningBinary | null
}

let cluster: TestCluster
let admin: SQL
const hq: RunningBinary[] = []
const running: RunningBinary[] = []
const branches = {} as Record<Unit, Branch>
let adminCookie = ''
let viewerCookie = ''

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
  // The north branch has a service of its own whose prefix a later revision wants: it refuses that one.
  if (unit === 'qu_north') {
    queueUnit.name = 'North branch'
    queueUnit.services!.push({ id: 'svc_local', name: 'Local desk', prefix: 'X', locations: ['loc_hall'] })
  }
  const file = join(dir, 'lobby.json')
  writeFileSync(file, JSON.stringify(doc).replaceAll('qu_main', unit))
  const provisioned = lobby('provision', '--db', db, '--file', file)
  if (provisioned.code !== 0) throw new Error(provisioned.stderr)
  const secrets = JSON.parse(provisioned.stdout).secrets as { kind: string; name: string; secret: string }[]
  const user = lobby('users', 'add', '--db', db, '--username', 'boss', '--role', 'admin')
  if (user.code !== 0) throw new Error(user.stderr)
  return {
    unit,
    db,
    key: secrets.find((s) => s.kind === 'queue' && s.name === 'all')!.secret,
    operator: secrets.find((s) => s.kind === 'queue' && s.name === 'operator')!.secret,
    adminSetup: (JSON.parse(user.stdout) as { setupPath: string }).setupPath,
    server: null,
  }
}

async function startBranch(branch: Branch): Promise<RunningBinary> {
  const server = await startBinary(['serve', '--port', '0', '--host', '127.0.0.1', '--db', branch.db, '--hq', 'replication'], {
    LOBBY_REPLICATE_TO: cluster.url(ROLE[branch.unit].name, ROLE[branch.unit].password),
    LOBBY_HQ_POLL_MS: '500',
    LOBBY_HQ_LIVE_MS: '1000',
  })
  running.push(server)
  branch.server = server
  return server
}

async function startHq(): Promise<RunningBinary> {
  const server = await startBinary(['hq', 'serve', '--db', cluster.url(), '--port', '0', '--host', '127.0.0.1'])
  running.push(server)
  hq.push(server)
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

/** A request to an HQ process: JSON, the session cookie, the process's own Origin for a change. */
async function hqCall(server: RunningBinary, method: string, path: string, body?: unknown, cookie = adminCookie) {
  const headers: Record<string, string> = { cookie }
  if (method !== 'GET') headers.origin = server.url
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) })
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, body: text.startsWith('{') ? JSON.parse(text) : null }
}

async function signIn(server: RunningBinary, username: string): Promise<string> {
  const setup = lobby('hq', 'users', 'add', '--db', cluster.url(), '--username', username, '--role', username === 'nadia' ? 'hq-admin' : 'hq-viewer')
  expect(setup.code).toBe(0)
  const code = new URL(`http://x${(JSON.parse(setup.stdout) as { setupPath: string }).setupPath}`).searchParams.get('code')!
  const done = await hqCall(server, 'POST', '/api/hq/v1/setup', { code, password: HQ_PASSWORD }, '')
  expect(done.status).toBe(200)
  // The other process signs in: a session lives in PostgreSQL, not in a process.
  const other = hq.find((h) => h !== server)!
  const res = await fetch(`${other.url}/api/hq/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: HQ_PASSWORD }) })
  expect(res.status).toBe(200)
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!
  expect(cookie).toMatch(/^lobby_hq_session=hqs_/)
  return cookie
}

async function eventually<T>(what: string, read: () => Promise<T> | T, ok: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: T
  for (;;) {
    last = await read()
    if (ok(last)) return last
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms; last: ${JSON.stringify(last)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function rollout(unit: Unit) {
  const res = await hqCall(hq[1]!, 'GET', '/api/hq/v1/branches')
  expect(res.status).toBe(200)
  return (res.body.data as { queueUnitId: string; rollout: string; appliedRevision: number | null; refusedRevision: number | null; refusedBecause: string | null }[]).find((b) => b.queueUnitId === unit)
}

function branchServices(branch: Branch) {
  const db = new Database(branch.db, { readonly: true })
  try {
    return db.query<{ id: string; name: string; names: string | null; prefix: string; waitTarget: number }, []>(
      'SELECT id, name, names, prefix, wait_target_seconds AS waitTarget FROM services ORDER BY id',
    ).all()
  } finally {
    db.close()
  }
}

function branchAudit(branch: Branch) {
  const db = new Database(branch.db, { readonly: true })
  try {
    return db.query<{ actor: string; action: string }, []>("SELECT actor, action FROM audit_log WHERE actor = 'system:hq' ORDER BY id").all()
  } finally {
    db.close()
  }
}

const PROFILE = {
  services: [
    { id: 'svc_accounts', name: { en: 'Current accounts', ar: 'الحسابات الجارية' }, prefix: 'A', defaultServiceSeconds: 240, waitTargetSeconds: 600 },
    { id: 'svc_exchange', name: { en: 'Currency exchange', ar: 'صرف العملات' }, prefix: 'E', waitTargetSeconds: 300 },
  ],
  breakReasons: ['Break', 'Lunch', 'Training'],
  priority: { mode: 'INTERLEAVE', normalPerPriority: 3 },
}

/** Today at the example's locations (Europe/Berlin): the business day the roll-ups count in. */
/** A browser wait: long enough for a loaded machine, short enough to say which step failed within the test's time. */
const WAIT = { timeout: 12_000 }

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())

describe.skipIf(unavailable !== null)('head office runs the chain (contract §26)', () => {
  beforeAll(async () => {
    ensureBinary()
    cluster = createCluster()
    admin = cluster.admin()
    // The owner migrates (any hq command does), then each branch gets a role limited to its unit.
    const migrated = lobby('replicate-migrate', '--replicate-to', cluster.url())
    expect(migrated.code).toBe(0)
    await admin.unsafe(`
      CREATE ROLE lobby_branch NOLOGIN;
      GRANT USAGE ON SCHEMA lobby TO lobby_branch;
      GRANT SELECT ON lobby.schema_version TO lobby_branch;
      GRANT SELECT, INSERT, UPDATE ON lobby.tickets, lobby.ticket_events, lobby.report_daily, lobby.report_counter_daily, lobby.report_staff_daily TO lobby_branch;
      -- As the README's default privileges grant every new table: row-level security still keeps a branch from publishing.
      GRANT SELECT, INSERT, UPDATE ON lobby.hq_branches, lobby.hq_profiles, lobby.hq_profile_revisions TO lobby_branch;
      GRANT SELECT, INSERT, UPDATE ON lobby.hq_branch_applies, lobby.hq_branch_live TO lobby_branch;
      CREATE ROLE branch_a LOGIN PASSWORD '${ROLE.qu_main.password}' IN ROLE lobby_branch;
      CREATE ROLE branch_b LOGIN PASSWORD '${ROLE.qu_north.password}' IN ROLE lobby_branch;
      INSERT INTO lobby.branch_roles (role_name, queue_unit_id) VALUES ('branch_a', 'qu_main'), ('branch_b', 'qu_north');
    `)
    for (const unit of UNITS) branches[unit] = provisionBranch(unit)
    await Promise.all([startHq(), startHq(), ...UNITS.map((u) => startBranch(branches[u]))])
    adminCookie = await signIn(hq[0]!, 'nadia')
    viewerCookie = await signIn(hq[1]!, 'omar')
  }, 180_000)

  afterAll(async () => {
    for (const r of running) if (r.proc.exitCode === null) await r.stop('SIGKILL')
    await admin?.close({ timeout: 0 }).catch(() => {})
    cluster?.destroy()
  })

  test('HQ users: the session works on either process; a viewer may look, not change; a wrong password is 401', async () => {
    const me = await hqCall(hq[0]!, 'GET', '/api/hq/v1/sessions/current')
    expect(me.body).toEqual({ username: 'nadia', displayName: 'nadia', role: 'hq-admin' })
    const viewer = await hqCall(hq[0]!, 'POST', '/api/hq/v1/profiles', { name: 'Nope', content: {} }, viewerCookie)
    expect(viewer.status).toBe(403)
    expect(viewer.body.error.code).toBe('FORBIDDEN')
    const noOrigin = await fetch(`${hq[0]!.url}/api/hq/v1/profiles`, { method: 'POST', headers: { cookie: adminCookie, 'content-type': 'application/json' }, body: '{"name":"x","content":{}}' })
    expect(noOrigin.status).toBe(403)
    const wrong = await fetch(`${hq[1]!.url}/api/hq/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'nadia', password: 'not-the-password' }) })
    expect(wrong.status).toBe(401)
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('SIGN_IN_FAILED')
    const anonymous = await hqCall(hq[1]!, 'GET', '/api/hq/v1/live', undefined, '')
    expect(anonymous.status).toBe(401)
    // Nothing of a session or password is in PostgreSQL as it was given.
    const [stored] = await admin`SELECT count(*)::int AS n FROM lobby_hq.sessions WHERE id_hash LIKE 'hqs_%'`
    expect(stored.n).toBe(0)
  })

  test('a published profile reaches both branches within 30 s: applied in one transaction, audited as hq, written back', async () => {
    const created = await hqCall(hq[0]!, 'POST', '/api/hq/v1/profiles', { id: 'prof_retail', name: 'Retail', content: PROFILE })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ id: 'prof_retail', draftVersion: 1, publishedRevision: null, unpublished: true })
    const bad = await hqCall(hq[0]!, 'POST', '/api/hq/v1/profiles', { name: 'Bad', content: { services: [{ id: 'svc_x', name: 'X', prefix: 'lower' }] } })
    expect(bad.status).toBe(422)
    expect(bad.body.error.details[0].path).toBe('/content/services/0/prefix')
    for (const unit of UNITS) expect((await hqCall(hq[1]!, 'PUT', `/api/hq/v1/branches/${unit}/profile`, { profileId: 'prof_retail' })).status).toBe(200)
    const published = await hqCall(hq[1]!, 'POST', '/api/hq/v1/profiles/prof_retail/revisions')
    expect(published.status).toBe(201)
    expect(published.body.revision).toBe(1)
    const again = await hqCall(hq[0]!, 'POST', '/api/hq/v1/profiles/prof_retail/revisions')
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('NOTHING_TO_PUBLISH')
    // A branch's role reads revisions but cannot publish one, nor follow another profile.
    const branchRole = new SQL(cluster.url(ROLE.qu_main.name, ROLE.qu_main.password), { max: 1 })
    try {
      expect((await branchRole`SELECT revision FROM lobby.hq_profile_revisions WHERE profile_id = 'prof_retail'`).length).toBe(1)
      await expect(branchRole`INSERT INTO lobby.hq_profile_revisions (profile_id, revision, content, published_at, published_by) VALUES ('prof_retail', 99, '{}', now(), 'x')`).rejects.toThrow(/row-level security/)
      await expect(branchRole`UPDATE lobby.hq_branches SET profile_id = NULL`.then((r) => r.count)).resolves.toBe(0)
    } finally {
      await branchRole.close({ timeout: 0 })
    }
    // A revision never changes, even for the database's owner.
    await expect(admin`UPDATE lobby.hq_profile_revisions SET content = '{}'::jsonb`).rejects.toThrow(/never changes/)

    const started = Date.now()
    for (const unit of UNITS) await eventually(`${unit} applies revision 1`, () => rollout(unit), (b) => b?.rollout === 'applied' && b.appliedRevision === 1, 30_000)
    expect(Date.now() - started).toBeLessThan(30_000)
    for (const unit of UNITS) {
      const services = branchServices(branches[unit])
      const accounts = services.find((s) => s.id === 'svc_accounts')!
      expect(accounts.name).toBe('Current accounts')
      expect(JSON.parse(accounts.names!)).toMatchObject({ ar: 'الحسابات الجارية' })
      expect(accounts.waitTarget).toBe(600)
      expect(services.find((s) => s.id === 'svc_exchange')).toMatchObject({ prefix: 'E', waitTarget: 300 })
      // Local things stay: the loans service the profile does not name.
      expect(services.find((s) => s.id === 'svc_loans')).toMatchObject({ name: 'Loans' })
      expect(branchAudit(branches[unit]).length).toBeGreaterThan(0)
    }
    // A ticket of the new service is issued at a branch at once.
    await issue(branches.qu_main, 'svc_exchange')
  }, 60_000)

  test('the branch console refuses a profile-owned field with 409 HQ_MANAGED and says which, in words; its own fields stay editable', async () => {
    const branch = branches.qu_main
    const url = branch.server!.url
    const code = new URL(`http://x${branch.adminSetup}`).searchParams.get('code')!
    expect((await fetch(`${url}/api/auth/v1/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, password: BRANCH_ADMIN_PASSWORD }) })).status).toBe(200)
    const signed = await fetch(`${url}/api/auth/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'boss', password: BRANCH_ADMIN_PASSWORD }) })
    expect(signed.status).toBe(200)
    const cookie = signed.headers.get('set-cookie')!.split(';')[0]!
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${url}/api/admin/v1${path}`, { method, headers: { cookie, origin: url, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) })
      return { status: res.status, body: (await res.json()) as any }
    }
    const service = await call('GET', '/queue-units/qu_main/services/svc_accounts')
    const refused = await call('PATCH', '/queue-units/qu_main/services/svc_accounts', { revision: service.body.revision, waitTargetSeconds: 1200 })
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe('HQ_MANAGED')
    expect(refused.body.error.message).toContain('Service "Current accounts": waitTargetSeconds')
    expect(refused.body.error.message).toContain('head office (profile "Retail", revision 1)')
    const unit = await call('GET', '/queue-units/qu_main')
    const reasons = await call('PATCH', '/queue-units/qu_main', { revision: unit.body.revision, breakReasons: ['Coffee'] })
    expect(reasons.status).toBe(409)
    expect(reasons.body.error.code).toBe('HQ_MANAGED')
    // What the profile does not own is the branch's: the loans service, a counter's name.
    const loans = await call('GET', '/queue-units/qu_main/services/svc_loans')
    expect((await call('PATCH', '/queue-units/qu_main/services/svc_loans', { revision: loans.body.revision, waitTargetSeconds: 1200 })).status).toBe(200)
    const counter = await call('GET', '/queue-units/qu_main/counters/cnt_2')
    expect((await call('PATCH', '/queue-units/qu_main/counters/cnt_2', { revision: counter.body.revision, name: 'Counter two' })).status).toBe(200)
    expect(branchServices(branch).find((s) => s.id === 'svc_accounts')!.waitTarget).toBe(600)
  })

  test('a revision one branch refuses: the other applies it, the refusing one keeps serving on what it had, and /hq says why', async () => {
    const current = await hqCall(hq[0]!, 'GET', '/api/hq/v1/profiles/prof_retail')
    const content = { ...PROFILE, services: [...PROFILE.services, { id: 'svc_express', name: 'Express', prefix: 'X' }] }
    const saved = await hqCall(hq[0]!, 'PUT', '/api/hq/v1/profiles/prof_retail', { name: 'Retail', content, draftVersion: current.body.draftVersion })
    expect(saved.status).toBe(200)
    const stale = await hqCall(hq[1]!, 'PUT', '/api/hq/v1/profiles/prof_retail', { name: 'Retail', content, draftVersion: current.body.draftVersion })
    expect(stale.status).toBe(409)
    expect(stale.body.error.code).toBe('EDIT_CONFLICT')
    expect((await hqCall(hq[0]!, 'POST', '/api/hq/v1/profiles/prof_retail/revisions')).body.revision).toBe(2)

    await eventually('qu_main applies revision 2', () => rollout('qu_main'), (b) => b?.appliedRevision === 2)
    const north = await eventually('qu_north refuses revision 2', () => rollout('qu_north'), (b) => b?.rollout === 'refused')
    expect(north).toMatchObject({ appliedRevision: 1, refusedRevision: 2 })
    // Said in words: the profile's service and its field, never a pointer into the document.
    expect(north!.refusedBecause).toBe('service svc_express, prefix: "X" is already the prefix of service svc_local in this queue unit')
    expect(branchServices(branches.qu_north).some((s) => s.id === 'svc_express')).toBe(false)
    expect(branchServices(branches.qu_main).find((s) => s.id === 'svc_express')).toMatchObject({ prefix: 'X' })
    // The branch that refused still serves.
    await issue(branches.qu_north)
    await issue(branches.qu_north, 'svc_local')
  }, 60_000)

  test('a branch that was offline catches up on the newest revision when it is back', async () => {
    const branch = branches.qu_main
    expect(await branch.server!.stop()).toBe(0)
    const current = await hqCall(hq[0]!, 'GET', '/api/hq/v1/profiles/prof_retail')
    const content = { ...current.body.content, breakReasons: ['Break', 'Lunch', 'Training', 'Team meeting'] }
    expect((await hqCall(hq[0]!, 'PUT', '/api/hq/v1/profiles/prof_retail', { name: 'Retail', content, draftVersion: current.body.draftVersion })).status).toBe(200)
    expect((await hqCall(hq[0]!, 'POST', '/api/hq/v1/profiles/prof_retail/revisions')).body.revision).toBe(3)
    expect((await rollout('qu_main'))).toMatchObject({ rollout: 'pending', appliedRevision: 2 })
    await startBranch(branch)
    await eventually('qu_main catches up on revision 3', () => rollout('qu_main'), (b) => b?.appliedRevision === 3)
    const db = new Database(branch.db, { readonly: true })
    try {
      expect(JSON.parse(db.query<{ r: string }, []>("SELECT break_reasons AS r FROM queue_units WHERE id = 'qu_main'").get()!.r)).toContain('Team meeting')
    } finally {
      db.close()
    }
  }, 60_000)

  test('/hq/live shows every branch\'s waiting within 10 s of its tickets; a branch drills down to its lines', async () => {
    for (let i = 0; i < 3; i++) await issue(branches.qu_main)
    const issuedAt = Date.now()
    const waitingAt = async (unit: Unit) => {
      const db = new Database(branches[unit].db, { readonly: true })
      try {
        return db.query<{ n: number }, []>("SELECT count(*) AS n FROM tickets WHERE status = 'WAITING'").get()!.n
      } finally {
        db.close()
      }
    }
    const expected = { qu_main: await waitingAt('qu_main'), qu_north: await waitingAt('qu_north') }
    const live = await eventually('the live view counts what waits', () => hqCall(hq[0]!, 'GET', '/api/hq/v1/live'), (res) => {
      const rows = res.body?.data as { queueUnitId: string; waiting: number }[] | undefined
      return UNITS.every((u) => rows?.find((r) => r.queueUnitId === u)?.waiting === expected[u])
    }, 10_000)
    expect(Date.now() - issuedAt).toBeLessThan(10_000)
    const main = (live.body.data as any[]).find((r) => r.queueUnitId === 'qu_main')
    expect(main).toMatchObject({ name: 'Main branch' })
    expect(main.lastHeardSeconds).toBeLessThan(10)
    const drill = await hqCall(hq[1]!, 'GET', '/api/hq/v1/live/qu_main', undefined, viewerCookie)
    expect(drill.status).toBe(200)
    const accounts = (drill.body.lines as any[]).find((l) => l.serviceId === 'svc_accounts' && l.locationId === 'loc_hall')
    expect(accounts).toMatchObject({ name: 'Current accounts', waitTargetSeconds: 600 })
    expect(accounts.waiting).toBeGreaterThanOrEqual(3)
    expect((await hqCall(hq[1]!, 'GET', '/api/hq/v1/live/qu_unknown')).status).toBe(404)
  }, 30_000)

  test('/hq/reports: the day\'s figures per branch match what each issued, as JSON and CSV', async () => {
    const issuedAt = (unit: Unit) => {
      const db = new Database(branches[unit].db, { readonly: true })
      try {
        return db.query<{ service: string; n: number }, []>('SELECT service_id AS service, count(*) AS n FROM tickets GROUP BY service_id ORDER BY service_id').all()
      } finally {
        db.close()
      }
    }
    const day = today()
    for (const unit of UNITS) {
      const expected = issuedAt(unit)
      const res = await eventually(`${unit}'s roll-ups reach head office`, () => hqCall(hq[0]!, 'GET', `/api/hq/v1/reports/daily?from=${day}&to=${day}&queueUnitId=${unit}`), (r) => {
        const rows = (r.body?.data ?? []) as { serviceId: string; issued: number }[]
        return expected.every((e) => rows.filter((x) => x.serviceId === e.service).reduce((n, x) => n + x.issued, 0) === e.n)
      })
      for (const row of res.body.data) expect(row).toMatchObject({ date: day, queueUnitId: unit })
    }
    const csv = await hqCall(hq[1]!, 'GET', `/api/hq/v1/reports/daily?from=${day}&to=${day}&format=csv`)
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toContain('text/csv')
    const [header, ...lines] = csv.text.trim().split('\r\n')
    expect(header).toStartWith('date,queueUnitId,locationId,serviceId,issued,served')
    const total = lines.reduce((n, line) => n + Number(line.split(',')[4]), 0)
    expect(total).toBe(UNITS.reduce((n, u) => n + issuedAt(u).reduce((m, r) => m + r.n, 0), 0))
    expect((await hqCall(hq[1]!, 'GET', '/api/hq/v1/reports/daily?from=2026-13-01&to=x')).status).toBe(422)
  }, 60_000)

  test('the HQ server\'s own OpenAPI document describes /api/hq/v1, and its answers match it', async () => {
    const doc = (await (await fetch(`${hq[0]!.url}/swagger/json`)).json()) as any
    expect(doc.info.title).toBe('Lobby head office API')
    const paths = Object.keys(doc.paths)
    expect(paths).toContain('/api/hq/v1/profiles/{profileId}/revisions')
    expect(paths.every((p) => p.startsWith('/api/hq/v1') || p === '/health')).toBe(true)
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats(ajv)
    ajv.addSchema(doc, 'hq')
    const check = async (path: string, docPath: string) => {
      const res = await hqCall(hq[0]!, 'GET', path)
      expect(res.status).toBe(200)
      const schema = doc.paths[docPath].get.responses['200'].content['application/json'].schema
      const valid = ajv.validate({ $ref: `hq#/components/schemas/${schema.$ref.split('/').pop()}` }, res.body)
      expect({ path, errors: valid ? null : ajv.errors }).toEqual({ path, errors: null })
    }
    await check('/api/hq/v1/profiles', '/api/hq/v1/profiles')
    await check('/api/hq/v1/branches', '/api/hq/v1/branches')
    await check('/api/hq/v1/live', '/api/hq/v1/live')
    await check('/api/hq/v1/live/qu_main', '/api/hq/v1/live/{queueUnitId}')
    await check(`/api/hq/v1/reports/daily?from=${today()}&to=${today()}`, '/api/hq/v1/reports/daily')
  })

  test.skipIf(!HAVE_CHROMIUM)('the console in a browser: sign in, the rollout in words, the chain live in Arabic with a drill-down', async () => {
    const server = hq[0]!
    const redirect = await fetch(`${server.url}/hq/live`, { redirect: 'manual' })
    expect(redirect.status).toBe(303)
    expect(redirect.headers.get('location')).toBe('/hq/login')
    const context = await launchBrowser()
    try {
      const network = await guardNetwork(context)
      const page = context.pages()[0] ?? (await context.newPage())
      await page.goto(`${server.url}/hq/login`)
      await page.getByLabel('Username').fill('nadia')
      await page.getByLabel('Password').fill(HQ_PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).press('Enter')
      await page.waitForURL(`${server.url}/hq`, WAIT)
      await page.getByText('Applied revision 3').waitFor(WAIT)
      // The refusal is said in the branch's words, beside the branch.
      await page.getByText(/Refused revision \d: .*"X" is already the prefix of service svc_local/).waitFor(WAIT)
      expect(await page.getByLabel('Profile', { exact: true }).inputValue()).toBe('prof_retail')
      await page.screenshot({ path: join(IMAGES, 'hq.png'), fullPage: true })

      await page.goto(`${server.url}/hq/live?lang=ar`)
      expect(await page.getAttribute('html', 'dir')).toBe('rtl')
      await page.getByRole('columnheader', { name: 'المنتظرون' }).waitFor(WAIT)
      await page.getByRole('button', { name: 'Main branch' }).click()
      await page.getByRole('heading', { name: 'طوابير Main branch' }).waitFor(WAIT)
      await page.getByRole('cell', { name: 'Current accounts' }).first().waitFor(WAIT)
      await page.screenshot({ path: join(IMAGES, 'hq-live.png'), fullPage: true })
      expect(network.outside).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)
})
