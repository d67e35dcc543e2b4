import { describe, expect, test } from 'bun:test'
import { reportContext, report, REPORTS } from './helpers'
import { smallDay } from './small-day'
import { get, expectError, issue, type QueueTestContext } from '../queue/helpers'
import { CHEAP, withPassword, signedIn } from '../people/helpers'
import { pairedCookie } from '../devices/helpers'
import { ReportCodes } from '../../src/reports/errors'
import { REPORT_RANGE_READS_PER_MINUTE } from '../../src/access'

/*
 * Contract §24 "Reports for people": every report route and the /reports page accept a signed-in
 * manager (its units) or admin (every unit) beside a Queue key with reports:read and a paired
 * reports device, which keep working as before; a clerk is refused in words.
 */

const DAY = 'from=2026-11-25&to=2026-11-25'

/** The report app with a second unit, qu_east, and its people: managers of one unit and of both, an admin, a clerk. */
async function peopleReports(): Promise<QueueTestContext> {
  const ctx = reportContext((doc) => {
    doc.workspaces[0]!.queueUnits!.push({
      id: 'qu_east', name: 'East branch', active: true,
      locations: [{ id: 'loc_east', name: 'East hall', timezone: 'Asia/Dubai' }],
      services: [{ id: 'svc_east', name: 'Accounts east', prefix: 'E', active: true, locations: ['loc_east'] }],
      counters: [{ id: 'cnt_east', name: 'East 1', locationId: 'loc_east', services: ['svc_east'] }],
      apiKeys: [{ name: 'all' }],
    })
  }, { passwordCost: CHEAP })
  await withPassword(ctx, { username: 'root', role: 'admin' })
  await withPassword(ctx, { username: 'mona', role: 'manager', queueUnits: ['qu_main'] })
  await withPassword(ctx, { username: 'eve', role: 'manager', queueUnits: ['qu_east'] })
  await withPassword(ctx, { username: 'omar', role: 'manager', queueUnits: ['qu_main', 'qu_east'] })
  await withPassword(ctx, { username: 'alice', role: 'clerk', queueUnits: ['qu_main'] })
  await smallDay(ctx)
  // Two tickets at the east hall the same business day (Asia/Dubai, UTC+4).
  ctx.clock.set('2026-11-25T08:00:00Z')
  for (let i = 0; i < 2; i++) expect((await issue(ctx, ctx.provisioned.secret('queue', 'qu_east', 'all'), { locationId: 'loc_east', serviceId: 'svc_east' })).status).toBe(201)
  ctx.clock.set('2026-11-25T12:00:00Z')
  return ctx
}

async function read(ctx: QueueTestContext, path: string, cookie: string) {
  const res = await get(ctx, `${REPORTS}${path}`, null, { cookie })
  const text = await res.text()
  expect({ status: res.status, text }).toMatchObject({ status: 200 })
  return JSON.parse(text).data
}

const locationsOf = (rows: { locationId: string }[]) => [...new Set(rows.map((r) => r.locationId))].sort()

describe('reports for people (contract §24)', () => {
  test('a manager\'s session reads the summary, daily and counter reports of its unit, the same figures a key reads; another unit is 422', async () => {
    const ctx = await peopleReports()
    const mona = await signedIn(ctx, 'mona')
    for (const name of ['daily', 'counters']) {
      const byManager = await read(ctx, `/${name}?${DAY}`, mona)
      expect(byManager.length).toBeGreaterThan(0)
      expect(byManager).toEqual(await report(ctx, `/${name}?${DAY}`))
      expect(locationsOf(byManager)).toEqual(['loc_hall'])
    }
    const summary = await read(ctx, `/summary?${DAY}`, mona)
    expect(summary.queueUnits.map((u: { id: string }) => u.id)).toEqual(['qu_main'])
    expect(summary.queueUnitId).toBe('qu_main')
    expect(summary.lines.map((l: { issued: number }) => l.issued).reduce((a: number, b: number) => a + b, 0)).toBe(5)
    expect(summary.locations.map((l: { id: string }) => l.id)).not.toContain('loc_east')
    // Another unit, or a location of another unit: refused as the staff report refuses them.
    for (const name of ['summary', 'daily', 'counters']) {
      const other = await expectError(await get(ctx, `${REPORTS}/${name}?${DAY}&queueUnitId=qu_east`, null, { cookie: mona }), 422, ReportCodes.VALIDATION_FAILED)
      expect(other.error.details).toEqual([{ path: '/queueUnitId', message: 'no such queue unit for this reader' }])
    }
    await expectError(await get(ctx, `${REPORTS}/daily?${DAY}&locationId=loc_east`, null, { cookie: mona }), 422, ReportCodes.VALIDATION_FAILED)
    // The east manager sees the east figures only.
    const eve = await signedIn(ctx, 'eve')
    const east = await read(ctx, `/daily?${DAY}`, eve)
    expect(east.map((r: { locationId: string; issued: number }) => [r.locationId, r.issued])).toEqual([['loc_east', 2]])
  })

  test('an admin reads every unit, or one; a manager of two units reads both, and picks one with queueUnitId', async () => {
    const ctx = await peopleReports()
    const root = await signedIn(ctx, 'root')
    expect(locationsOf(await read(ctx, `/daily?${DAY}`, root))).toEqual(['loc_east', 'loc_hall'])
    expect(locationsOf(await read(ctx, `/daily?${DAY}&queueUnitId=qu_east`, root))).toEqual(['loc_east'])
    const all = await read(ctx, `/summary?${DAY}`, root)
    expect(all.queueUnits.map((u: { id: string }) => u.id).sort()).toEqual(['qu_east', 'qu_main'])
    expect(all.queueUnitId).toBeNull()
    await expectError(await get(ctx, `${REPORTS}/daily?${DAY}&queueUnitId=qu_nowhere`, null, { cookie: root }), 422, ReportCodes.VALIDATION_FAILED)
    const omar = await signedIn(ctx, 'omar')
    expect(locationsOf(await read(ctx, `/counters?${DAY}`, omar))).toEqual(['loc_hall'])
    expect(locationsOf(await read(ctx, `/daily?${DAY}`, omar))).toEqual(['loc_east', 'loc_hall'])
    const both = await read(ctx, `/summary?${DAY}`, omar)
    expect(both.queueUnits.map((u: { id: string }) => u.id).sort()).toEqual(['qu_east', 'qu_main'])
    const main = await read(ctx, `/summary?${DAY}&queueUnitId=qu_main`, omar)
    expect(main.queueUnitId).toBe('qu_main')
    expect(main.locations.map((l: { id: string }) => l.id)).toContain('loc_hall')
    expect(main.locations.map((l: { id: string }) => l.id)).not.toContain('loc_east')
    // It still lists both units to choose from.
    expect(main.queueUnits.map((u: { id: string }) => u.id).sort()).toEqual(['qu_east', 'qu_main'])
  })

  test('a clerk\'s session is 403 ROLE_FORBIDDEN on every report route; no credential 401', async () => {
    const ctx = await peopleReports()
    const alice = await signedIn(ctx, 'alice')
    for (const name of ['summary', 'daily', 'counters', 'staff', 'feedback', 'appointments']) {
      await expectError(await get(ctx, `${REPORTS}/${name}?${DAY}`, null, { cookie: alice }), 403, ReportCodes.ROLE_FORBIDDEN)
      await expectError(await get(ctx, `${REPORTS}/${name}?${DAY}`, null), 401, ReportCodes.AUTHENTICATION_FAILED)
    }
  })

  test('a key and a paired reports device still read as before; a device cookie that is not a reports device leaves the session to decide', async () => {
    const ctx = await peopleReports()
    const byKey = await report(ctx, `/daily?${DAY}`)
    const device = await pairedCookie(ctx, { role: 'reports', queueUnitId: 'qu_main' })
    expect(await read(ctx, `/daily?${DAY}`, device)).toEqual(byKey)
    // A clerk signed in on the paired reports PC: the device decides, as for the staff report.
    const alice = await signedIn(ctx, 'alice')
    expect(await read(ctx, `/daily?${DAY}`, `${device}; ${alice}`)).toEqual(byKey)
    // A manager signed in on a browser paired as a desk: the session decides.
    const desk = await pairedCookie(ctx, { role: 'desk', queueUnitId: 'qu_main', locationId: 'loc_hall', counterId: 'cnt_1' })
    const mona = await signedIn(ctx, 'mona')
    expect(await read(ctx, `/daily?${DAY}`, `${desk}; ${mona}`)).toEqual(byKey)
    await expectError(await get(ctx, `${REPORTS}/daily?${DAY}`, null, { cookie: desk }), 401, ReportCodes.AUTHENTICATION_FAILED)
    // With an Authorization header the cookies are not read: a key without the scope stays refused.
    await expectError(await get(ctx, `${REPORTS}/daily?${DAY}`, ctx.key('all'), { cookie: mona }), 403, ReportCodes.SCOPE_FORBIDDEN)
  })

  test(`range reads are limited per person: ${REPORT_RANGE_READS_PER_MINUTE} a minute, then 429 with Retry-After; another person keeps reading`, async () => {
    const ctx = await peopleReports()
    const mona = await signedIn(ctx, 'mona')
    for (let i = 0; i < REPORT_RANGE_READS_PER_MINUTE; i++) {
      expect((await get(ctx, `${REPORTS}/${['summary', 'daily', 'counters'][i % 3]}?${DAY}`, null, { cookie: mona })).status).toBe(200)
    }
    const over = await get(ctx, `${REPORTS}/daily?${DAY}`, null, { cookie: mona })
    await expectError(over, 429, ReportCodes.RATE_LIMITED)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    const root = await signedIn(ctx, 'root')
    expect((await get(ctx, `${REPORTS}/daily?${DAY}`, null, { cookie: root })).status).toBe(200)
  })
})

describe('the /reports page for people (contract §24)', () => {
  async function page(ctx: QueueTestContext, path: string, cookie?: string) {
    const res = await get(ctx, path, null, cookie === undefined ? {} : { cookie })
    return { status: res.status, html: await res.text() }
  }

  test('a manager or an admin gets the reports page, not "not paired"; so does a paired reports device', async () => {
    const ctx = await peopleReports()
    for (const cookie of [await signedIn(ctx, 'mona'), await signedIn(ctx, 'root'), await pairedCookie(ctx, { role: 'reports', queueUnitId: 'qu_main' })]) {
      const { status, html } = await page(ctx, '/reports', cookie)
      expect(status).toBe(200)
      expect(html).toContain('data-kind="reports"')
      expect(html).not.toContain('not paired')
      expect(html).not.toContain('Sign in or pair')
    }
  })

  test('a clerk is told in words that reports are for managers and administrators (403), in English and Arabic', async () => {
    const ctx = await peopleReports()
    const alice = await signedIn(ctx, 'alice')
    const en = await page(ctx, '/reports', alice)
    expect(en.status).toBe(403)
    expect(en.html).toContain('Reports are for managers and administrators')
    expect(en.html).not.toContain('data-kind="reports"')
    expect(en.html).toContain('href="/login"')
    const ar = await page(ctx, '/reports?lang=ar', alice)
    expect(ar.status).toBe(403)
    expect(ar.html).toContain('dir="rtl"')
    expect(ar.html).toContain('التقارير للمديرين والمسؤولين')
  })

  test('signed out and unpaired (or paired as another device): the page says so and links /login and /pair', async () => {
    const ctx = await peopleReports()
    const desk = await pairedCookie(ctx, { role: 'desk', queueUnitId: 'qu_main', locationId: 'loc_hall', counterId: 'cnt_1' })
    for (const cookie of [undefined, desk]) {
      const { status, html } = await page(ctx, '/reports', cookie)
      expect(status).toBe(200)
      expect(html).toContain('You are not signed in, and this browser is not paired as a reports device.')
      expect(html).toContain('href="/login"')
      expect(html).toContain('href="/pair"')
      expect(html).not.toContain('data-kind="reports"')
    }
    const ar = await page(ctx, '/reports?lang=ar')
    expect(ar.html).toContain('href="/login?lang=ar"')
    expect(ar.html).toContain('href="/pair?lang=ar"')
  })

  test('the start page links /reports for a manager and an admin, and that link opens the page; a clerk is not offered it', async () => {
    const ctx = await peopleReports()
    for (const username of ['mona', 'root']) {
      const cookie = await signedIn(ctx, username)
      const start = await page(ctx, '/', cookie)
      expect(start.html).toContain('href="/reports"')
      expect((await page(ctx, '/reports', cookie)).html).toContain('data-kind="reports"')
    }
    const clerk = await page(ctx, '/', await signedIn(ctx, 'alice'))
    expect(clerk.html).not.toContain('href="/reports"')
    const device = await pairedCookie(ctx, { role: 'reports', queueUnitId: 'qu_main' })
    expect((await page(ctx, '/', device)).html).toContain('href="/reports"')
    expect((await page(ctx, '/')).html).not.toContain('href="/reports"')
  })
})
