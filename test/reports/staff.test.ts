import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { reportContext, report, at, act, ok, issued, REPORTS } from './helpers'
import { get, expectError, issue, type QueueTestContext } from '../queue/helpers'
import { jsonOf, request } from '../support/app'
import { CHEAP, withPassword, signedIn } from '../people/helpers'
import { ReportCodes } from '../../src/reports/errors'
import { rebuildReportRollups } from '../../src/tickets'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { runCli, tempDir } from '../support/cli'
import { pairedCookie } from '../devices/helpers'

/*
 * Contract §16's staff report: figures per clerk from the completions and no-shows a `clerk:`
 * actor made (the desk sign-in's attribution; passed straight to the Tickets transitions here),
 * time signed in and on break from `staff_intervals`, and who may read it.
 */

const HALL = { locationId: 'loc_hall', serviceId: 'svc_accounts' }
const EAST = { locationId: 'loc_east', serviceId: 'svc_east' }

/** The report app with a second unit, qu_east (Asia/Dubai), and cheap password hashes for the sessions. */
function staffContext(): QueueTestContext {
  return reportContext((doc) => {
    doc.workspaces[0]!.queueUnits!.push({
      id: 'qu_east', name: 'East branch', active: true,
      locations: [{ id: 'loc_east', name: 'East hall', timezone: 'Asia/Dubai' }],
      services: [{ id: 'svc_east', name: 'Accounts east', prefix: 'E', active: true, locations: ['loc_east'] }],
      counters: [{ id: 'cnt_east', name: 'East 1', locationId: 'loc_east', services: ['svc_east'] }],
      apiKeys: [{ name: 'all' }, { name: 'operator', scopes: ['counter:operate', 'tickets:read', 'state:read'] }],
    })
  }, { passwordCost: CHEAP })
}

const eastKey = (ctx: QueueTestContext, name: string) => ctx.provisioned.secret('queue', 'qu_east', name)

/** A ticket of `line` issued at `issuedAt`, called at `counterId` and started at `startedAt` by the operator key (a key actor: counts for no clerk). */
async function serving(ctx: QueueTestContext, line: typeof HALL, counterId: string, issuedAt: string, startedAt: string, unit: 'qu_main' | 'qu_east' = 'qu_main') {
  ctx.clock.set(issuedAt)
  let id: string
  if (unit === 'qu_main') id = (await issued(ctx, line)).id
  else {
    const res = await issue(ctx, eastKey(ctx, 'all'), line)
    expect(res.status).toBe(201)
    id = (await jsonOf(res)).data.id
  }
  const secret = unit === 'qu_main' ? ctx.key('operator') : eastKey(ctx, 'operator')
  await at(ctx, startedAt, () => ok(act(ctx, id, 'call', { counterId }, secret)))
  await ok(act(ctx, id, 'start', undefined, secret))
  return id
}

/** What a desk with `username` signed in does: the change's actor is `clerk:<username>`. */
function asClerk(ctx: QueueTestContext, username: string, ticketId: string, action: 'complete' | 'noShow', iso: string) {
  ctx.clock.set(iso)
  ctx.deps.writes.now(() => {
    const tickets = ctx.deps.tickets
    const ticket = tickets.byId(ticketId)!
    if (action === 'complete') tickets.complete(ticket, `clerk:${username}`, ctx.clock.now())
    else tickets.noShow(ticket, `clerk:${username}`, ctx.clock.now())
  })
}

function userId(ctx: QueueTestContext, username: string): string {
  return (ctx.db.$client.query('SELECT id FROM users WHERE username = ?1').get(username) as { id: string }).id
}

/** A row of `staff_intervals` as the desk sign-in writes it (its end null while open). */
function interval(ctx: QueueTestContext, username: string, kind: 'signed_in' | 'break', day: string, from: string, to: string | null, reason: string | null = null, unit = 'qu_main') {
  ctx.db.$client.query(`INSERT INTO staff_intervals (user_id, username, queue_unit_id, location_id, counter_id, kind, reason, business_day, started_at, ended_at)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`).run(
    userId(ctx, username), username, unit, unit === 'qu_main' ? 'loc_hall' : 'loc_east', unit === 'qu_main' ? 'cnt_1' : 'cnt_east', kind, reason, day, Date.parse(from), to === null ? null : Date.parse(to))
}

/** The people of the day: accounts with display names (and passwords, for the sessions). */
async function staff(ctx: QueueTestContext) {
  await withPassword(ctx, { username: 'root', role: 'admin' })
  await withPassword(ctx, { username: 'mona', role: 'manager', displayName: 'Mona M.', queueUnits: ['qu_main'] })
  await withPassword(ctx, { username: 'alice', role: 'clerk', displayName: 'Alice A.', queueUnits: ['qu_main', 'qu_east'] })
  await withPassword(ctx, { username: 'bob', role: 'clerk', displayName: 'Bob B.', queueUnits: ['qu_main'] })
  await withPassword(ctx, { username: 'carol', role: 'clerk', displayName: 'كارول', queueUnits: ['qu_main'] })
  await withPassword(ctx, { username: 'dave', role: 'clerk', displayName: 'Dave D.', queueUnits: ['qu_east'] })
}

/**
 * 2026-11-25 at the hall (Europe/Berlin, UTC+1). Alice completes three tickets (120, 300 and
 * 600 s of service) and marks one no-show; the operator key completes one (nobody's). Alice was
 * signed in 07:55–09:55 and from 10:30 (still open), on a lunch break 10:00–10:30 and a break
 * 10:40–10:50 (a second desk); Carol only signed in, 08:00–08:45, and took a break without a
 * reason 08:45–08:50. In qu_east, Alice completes one ticket of 1,000 s; Dave signs in there.
 */
async function morning(ctx: QueueTestContext) {
  const t1 = await serving(ctx, HALL, 'cnt_1', '2026-11-25T08:00:00Z', '2026-11-25T08:02:00Z')
  asClerk(ctx, 'alice', t1, 'complete', '2026-11-25T08:07:00Z') // 300 s
  const t2 = await serving(ctx, HALL, 'cnt_2', '2026-11-25T08:00:10Z', '2026-11-25T08:08:00Z')
  asClerk(ctx, 'alice', t2, 'complete', '2026-11-25T08:10:00Z') // 120 s
  const t3 = await serving(ctx, HALL, 'cnt_1', '2026-11-25T08:00:20Z', '2026-11-25T08:10:00Z')
  asClerk(ctx, 'alice', t3, 'complete', '2026-11-25T08:20:00Z') // 600 s
  ctx.clock.set('2026-11-25T08:00:30Z')
  const t4 = (await issued(ctx, HALL)).id
  await at(ctx, '2026-11-25T08:21:00Z', () => ok(act(ctx, t4, 'call', { counterId: 'cnt_1' })))
  asClerk(ctx, 'alice', t4, 'noShow', '2026-11-25T08:22:00Z')
  const t5 = await serving(ctx, HALL, 'cnt_2', '2026-11-25T08:00:40Z', '2026-11-25T08:23:00Z')
  await at(ctx, '2026-11-25T08:25:00Z', () => ok(act(ctx, t5, 'complete'))) // the operator key: nobody's
  const e1 = await serving(ctx, EAST, 'cnt_east', '2026-11-25T06:00:00Z', '2026-11-25T06:10:00Z', 'qu_east')
  asClerk(ctx, 'alice', e1, 'complete', '2026-11-25T06:26:40Z') // 1,000 s
  interval(ctx, 'alice', 'signed_in', '2026-11-25', '2026-11-25T07:55:00Z', '2026-11-25T09:55:00Z') // 7,200 s
  interval(ctx, 'alice', 'break', '2026-11-25', '2026-11-25T10:00:00Z', '2026-11-25T10:30:00Z', 'Lunch') // 1,800 s
  interval(ctx, 'alice', 'break', '2026-11-25', '2026-11-25T10:40:00Z', '2026-11-25T10:50:00Z', 'Break') // 600 s
  interval(ctx, 'alice', 'signed_in', '2026-11-25', '2026-11-25T10:30:00Z', null) // open
  interval(ctx, 'carol', 'signed_in', '2026-11-25', '2026-11-25T08:00:00Z', '2026-11-25T08:45:00Z') // 2,700 s
  interval(ctx, 'carol', 'break', '2026-11-25', '2026-11-25T08:45:00Z', '2026-11-25T08:50:00Z') // 300 s, no reason
  interval(ctx, 'dave', 'signed_in', '2026-11-25', '2026-11-25T05:00:00Z', '2026-11-25T06:00:00Z', null, 'qu_east') // 3,600 s
}

const ALICE_MAIN = {
  date: '2026-11-25', username: 'alice', displayName: 'Alice A.', served: 3, noShow: 1,
  // [120, 300, 600]: avg 340; p50 = the ceil(1.5) = 2nd = 300; p90 = the ceil(2.7) = 3rd = 600.
  serviceSeconds: { avg: 340, p50: 300, p90: 600 },
  // 7,200 closed + the open one from 10:30 to now (11:00) = 1,800.
  signedInSeconds: 9000,
  breakSeconds: { Break: 600, Lunch: 1800 },
}
const CAROL = {
  date: '2026-11-25', username: 'carol', displayName: 'كارول', served: 0, noShow: 0,
  serviceSeconds: { avg: null, p50: null, p90: null }, signedInSeconds: 2700, breakSeconds: { '(none)': 300 },
}

describe('the staff report (contract §16)', () => {
  test('per clerk and day: clerk actors\' completions and no-shows, percentiles, signed-in and break time, an open interval to now', async () => {
    const ctx = staffContext()
    await staff(ctx)
    await morning(ctx)
    ctx.clock.set('2026-11-25T11:00:00Z')
    const rows = await report(ctx, '/staff?from=2026-11-25&to=2026-11-25')
    expect(rows).toEqual([ALICE_MAIN, CAROL])
    // No row for the key's completion, and none for the devices and keys at all.
    expect(ctx.db.$client.query('SELECT username FROM report_staff_daily ORDER BY username').all()).toEqual([{ username: 'alice' }, { username: 'alice' }])
    // The figures also land in the counter and line roll-ups as before.
    const counters = await report(ctx, '/counters?from=2026-11-25&to=2026-11-25')
    expect(counters.map((c) => [c.counterId, c.served, c.noShow])).toEqual([['cnt_1', 2, 1], ['cnt_2', 2, 0]])
  })

  test('a business day is the location\'s: a ticket issued before local midnight counts that day, one after it the next', async () => {
    const ctx = staffContext()
    await staff(ctx)
    // 23:50 in Berlin on the 25th, completed by Bob at 00:06 on the 26th: the 25th's, 600 s.
    const late = await serving(ctx, HALL, 'cnt_1', '2026-11-25T22:50:00Z', '2026-11-25T22:56:00Z')
    asClerk(ctx, 'bob', late, 'complete', '2026-11-25T23:06:00Z')
    // 00:20 in Berlin on the 26th (still the 25th in UTC): the 26th's, 240 s.
    const early = await serving(ctx, HALL, 'cnt_1', '2026-11-25T23:20:00Z', '2026-11-25T23:22:00Z')
    asClerk(ctx, 'bob', early, 'complete', '2026-11-25T23:26:00Z')
    ctx.clock.set('2026-11-26T09:00:00Z')
    const rows = await report(ctx, '/staff?from=2026-11-25&to=2026-11-26')
    expect(rows.map((r) => [r.date, r.username, r.served, r.serviceSeconds.avg])).toEqual([['2026-11-25', 'bob', 1, 600], ['2026-11-26', 'bob', 1, 240]])
    expect(await report(ctx, '/staff?from=2026-11-26&to=2026-11-26')).toHaveLength(1)
  })

  test('a rebuild from the ticket history writes the same rows as the live writes', async () => {
    const ctx = staffContext()
    await staff(ctx)
    await morning(ctx)
    const rowsOf = () => ({
      staff: ctx.db.$client.query('SELECT * FROM report_staff_daily ORDER BY username, queue_unit_id, business_day').all(),
      distributions: ctx.db.$client.query('SELECT * FROM report_staff_distributions ORDER BY username, queue_unit_id, business_day').all(),
      counters: ctx.db.$client.query('SELECT * FROM report_counter_daily ORDER BY counter_id, business_day').all(),
    })
    const live = rowsOf()
    expect(live.staff).toHaveLength(2)
    expect(live.distributions).toHaveLength(2)
    const rebuilt = ctx.db.$client.transaction(() => rebuildReportRollups(ctx.db.$client)).immediate()
    expect(rebuilt.staff).toBe(2)
    expect(rowsOf()).toEqual(live)
  })

  test('a clerk in several of the reader\'s units has one row a day: counts add, percentiles from the merged distributions', async () => {
    const ctx = staffContext()
    await staff(ctx)
    await morning(ctx)
    ctx.clock.set('2026-11-25T11:00:00Z')
    const admin = await signedIn(ctx, 'root')
    const res = await get(ctx, `${REPORTS}/staff?from=2026-11-25&to=2026-11-25`, null, { cookie: admin })
    expect(res.status).toBe(200)
    const rows = (await jsonOf(res)).data
    // [120, 300, 600, 1000]: avg 505; p50 = 2nd = 300; p90 = ceil(3.6) = 4th = 1,000.
    expect(rows).toEqual([
      { ...ALICE_MAIN, served: 4, serviceSeconds: { avg: 505, p50: 300, p90: 1000 } },
      CAROL,
      { date: '2026-11-25', username: 'dave', displayName: 'Dave D.', served: 0, noShow: 0, serviceSeconds: { avg: null, p50: null, p90: null }, signedInSeconds: 3600, breakSeconds: {} },
    ])
    // One unit asked for: that unit's figures only.
    const east = (await jsonOf(await get(ctx, `${REPORTS}/staff?from=2026-11-25&to=2026-11-25&queueUnitId=qu_east`, null, { cookie: admin }))).data
    expect(east.map((r: any) => [r.username, r.served, r.serviceSeconds, r.signedInSeconds])).toEqual([
      ['alice', 1, { avg: 1000, p50: 1000, p90: 1000 }, 0],
      ['dave', 0, { avg: null, p50: null, p90: null }, 3600],
    ])
  })
})

describe('who may read the staff report', () => {
  test('a key with reports:read or a paired reports device: their unit; a key limited to some locations 403; none 401', async () => {
    const ctx = staffContext()
    await staff(ctx)
    await morning(ctx)
    ctx.clock.set('2026-11-25T11:00:00Z')
    const path = `${REPORTS}/staff?from=2026-11-25&to=2026-11-25`
    expect((await report(ctx, '/staff?from=2026-11-25&to=2026-11-25')).map((r) => r.username)).toEqual(['alice', 'carol'])
    await expectError(await get(ctx, path, null), 401, ReportCodes.AUTHENTICATION_FAILED)
    await expectError(await get(ctx, path, ctx.key('operator')), 403, ReportCodes.SCOPE_FORBIDDEN)
    await expectError(await get(ctx, path, ctx.key('reports-hall-loans')), 403, ReportCodes.SCOPE_FORBIDDEN)
    const device = await pairedCookie(ctx, { role: 'reports', queueUnitId: 'qu_main' })
    const byDevice = await get(ctx, path, null, { cookie: device })
    expect(byDevice.status).toBe(200)
    expect((await jsonOf(byDevice)).data.map((r: any) => r.username)).toEqual(['alice', 'carol'])
    // A clerk signed in on the reports device's browser: the page's credential, the device, decides.
    const clerk = await signedIn(ctx, 'alice')
    expect((await get(ctx, path, null, { cookie: `${device}; ${clerk}` })).status).toBe(200)
    // The key's unit is its only one: another is a bad filter.
    const other = await expectError(await get(ctx, `${path}&queueUnitId=qu_east`, ctx.key('reports')), 422, ReportCodes.VALIDATION_FAILED)
    expect(other.error.details).toEqual([{ path: '/queueUnitId', message: 'no such queue unit for this reader' }])
  })

  test('a manager\'s session sees its units, an admin\'s every unit, a clerk\'s is 403; a session that ended 401', async () => {
    const ctx = staffContext()
    await staff(ctx)
    await morning(ctx)
    ctx.clock.set('2026-11-25T11:00:00Z')
    const path = `${REPORTS}/staff?from=2026-11-25&to=2026-11-25`
    const manager = await signedIn(ctx, 'mona')
    const byManager = await get(ctx, path, null, { cookie: manager })
    expect(byManager.status).toBe(200)
    expect((await jsonOf(byManager)).data).toEqual([ALICE_MAIN, CAROL])
    await expectError(await get(ctx, `${path}&queueUnitId=qu_east`, null, { cookie: manager }), 422, ReportCodes.VALIDATION_FAILED)
    const admin = await signedIn(ctx, 'root')
    expect((await jsonOf(await get(ctx, path, null, { cookie: admin }))).data.map((r: any) => r.username)).toEqual(['alice', 'carol', 'dave'])
    const clerk = await signedIn(ctx, 'alice')
    await expectError(await get(ctx, path, null, { cookie: clerk }), 403, ReportCodes.ROLE_FORBIDDEN)
    // 30 minutes idle ends a manager's session.
    ctx.clock.set('2026-11-25T11:31:00Z')
    await expectError(await get(ctx, path, null, { cookie: manager }), 401, ReportCodes.AUTHENTICATION_FAILED)
    // A bad range is the envelope's 422 for a session too.
    const again = await signedIn(ctx, 'root')
    await expectError(await get(ctx, `${REPORTS}/staff?from=2026-11-26&to=2026-11-25`, null, { cookie: again }), 422, ReportCodes.VALIDATION_FAILED)
  })

  test('the OpenAPI document lists the route with its query, its readers and its errors', async () => {
    const ctx = staffContext()
    const doc: any = await (await ctx.app.handle(new Request('http://localhost/swagger/json'))).json()
    const op = doc.paths['/api/operator/v1/reports/staff'].get
    expect(op.operationId).toBe('readStaffReport')
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(['from', 'to', 'queueUnitId'])
    expect(op.security).toEqual([{ queueBearer: [] }, { deviceCookie: [] }, { sessionCookie: [] }])
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '422', '429']))
  })
})

describe('lobby report --by staff', () => {
  test('the same rows as the route, as JSON and CSV (a column per break reason), of one unit with --queue-unit', { timeout: 60_000 }, async () => {
    const path = join(tempDir(), 'lobby.db')
    const db = openDatabase(path)
    migrateDatabase(db.$client)
    const ctx = reportContext(() => {}, { db, passwordCost: CHEAP })
    await withPassword(ctx, { username: 'alice', role: 'clerk', displayName: 'Alice, A.', queueUnits: ['qu_main'] })
    const t1 = await serving(ctx, HALL, 'cnt_1', '2026-11-25T08:00:00Z', '2026-11-25T08:02:00Z')
    asClerk(ctx, 'alice', t1, 'complete', '2026-11-25T08:07:00Z')
    interval(ctx, 'alice', 'signed_in', '2026-11-25', '2026-11-25T07:55:00Z', '2026-11-25T09:55:00Z')
    interval(ctx, 'alice', 'break', '2026-11-25', '2026-11-25T10:00:00Z', '2026-11-25T10:30:00Z', 'Admin work')
    const api = await report(ctx, '/staff?from=2026-11-25&to=2026-11-25')
    db.$client.close()

    const json = runCli(['report', '--db', path, '--from', '2026-11-25', '--to', '2026-11-25', '--by', 'staff'])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual({ data: api })
    const csv = runCli(['report', '--db', path, '--from', '2026-11-25', '--to', '2026-11-25', '--by', 'staff', '--queue-unit', 'qu_main', '--format', 'csv'])
    expect(csv.stdout).toBe(
      'date,username,displayName,served,noShow,serviceSecondsAvg,serviceSecondsP50,serviceSecondsP90,signedInSeconds,breakSecondsAdminWork\r\n' +
      '2026-11-25,alice,"Alice, A.",1,0,300,300,300,7200,1800\r\n',
    )
    const empty = runCli(['report', '--db', path, '--from', '2026-01-01', '--to', '2026-01-31', '--by', 'staff', '--format', 'csv'])
    expect(empty.stdout).toBe('date,username,displayName,served,noShow,serviceSecondsAvg,serviceSecondsP50,serviceSecondsP90,signedInSeconds\r\n')
    for (const args of [['--queue-unit', 'qu_nowhere', '--by', 'staff'], ['--queue-unit', 'qu_main']]) {
      const r = runCli(['report', '--db', path, '--from', '2026-11-25', '--to', '2026-11-25', ...args])
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: '' })
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
    }
  })
})
