import { describe, expect, test } from 'bun:test'
import { jsonOf } from '../support/app'
import { issue, mainUnit, HALL_ACCOUNTS, SERVICES } from './helpers'
import { counterContext, op } from '../counters/helpers'
import { kioskContext, tapService, ticketCount } from '../kiosk/helpers'
import type { ProvisioningFile } from '../../src/provisioning/model'

/** The main hall (Europe/Berlin) open weekdays 08:30–16:30, last ticket 15 minutes before closing, closed on Christmas Day. */
function withHours(doc: ProvisioningFile) {
  const hall = mainUnit(doc).locations![0]! as any
  hall.openingHours = { mon: [['08:30', '16:30']], tue: [['08:30', '16:30']], wed: [['08:30', '16:30']], thu: [['08:30', '16:30']], fri: [['08:30', '16:30']] }
  hall.closedDates = ['2026-12-25']
  hall.lastTicketMinutesBeforeClose = 15
}

describe('SERVICE_CLOSED outside opening hours (contract §18)', () => {
  test('the public issue: 409 with the next opening in details and in words; nothing written; open again at the opening', async () => {
    const ctx = counterContext(withHours)
    ctx.clock.set('2026-11-27T18:00:00Z') // Friday 19:00 in Berlin
    const closed = await issue(ctx, ctx.key('all'), HALL_ACCOUNTS)
    expect(closed.status).toBe(409)
    expect((await jsonOf(closed)).error).toMatchObject({
      code: 'SERVICE_CLOSED',
      message: 'this service is closed now; it opens 2026-11-30 at 08:30 (Europe/Berlin)',
      details: [{ path: '/serviceId', message: 'opens at 2026-11-30T07:30:00.000Z' }],
    })
    expect(ticketCount(ctx)).toBe(0)
    ctx.clock.set('2026-11-30T07:30:00Z')
    expect((await issue(ctx, ctx.key('all'), HALL_ACCOUNTS)).status).toBe(201)
  })

  test('the last ticket margin and a closed date refuse too; the location and service are checked first', async () => {
    const ctx = counterContext(withHours)
    ctx.clock.set('2026-11-30T15:20:00Z') // Monday 16:20 in Berlin: within the last 15 minutes
    expect((await jsonOf(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS))).error.details).toEqual([{ path: '/serviceId', message: 'opens at 2026-12-01T07:30:00.000Z' }])
    ctx.clock.set('2026-12-25T10:00:00Z')
    expect((await issue(ctx, ctx.key('all'), HALL_ACCOUNTS)).status).toBe(409)
    // An unknown service is still the 422 that names the field, not SERVICE_CLOSED.
    expect((await jsonOf(await issue(ctx, ctx.key('all'), { locationId: 'loc_hall', serviceId: 'svc_nope' }))).error.code).toBe('VALIDATION_FAILED')
  })

  test('a service narrowing its location\'s hours is closed outside its own; another service of the location is open', async () => {
    const ctx = counterContext((doc) => {
      withHours(doc)
      ;(mainUnit(doc).services![1]! as any).openingHours = { mon: [['10:00', '12:00']] }
    })
    ctx.clock.set('2026-11-30T08:00:00Z') // Monday 09:00 in Berlin
    const loans = await issue(ctx, ctx.key('all'), { locationId: 'loc_hall', serviceId: 'svc_loans' })
    expect((await jsonOf(loans)).error.details).toEqual([{ path: '/serviceId', message: 'opens at 2026-11-30T09:00:00.000Z' }])
    expect((await issue(ctx, ctx.key('all'), HALL_ACCOUNTS)).status).toBe(201)
  })

  test('the kiosk issue is refused the same way', async () => {
    const ctx = await kioskContext({ edit: withHours })
    ctx.clock.set('2026-11-28T10:00:00Z') // Saturday
    const tap = await tapService(ctx, 'svc_accounts')
    expect(tap.status).toBe(409)
    expect((await jsonOf(tap)).error.code).toBe('SERVICE_CLOSED')
    expect(ticketCount(ctx)).toBe(0)
  })

  test('an operator walk-in is still allowed when closed: staff decide', async () => {
    const ctx = counterContext(withHours)
    ctx.clock.set('2026-11-28T10:00:00Z')
    const walkIn = await op(ctx, 'POST', '/tickets', HALL_ACCOUNTS)
    expect(walkIn.status).toBe(201)
    expect((await jsonOf(walkIn)).data.source).toBe('OPERATOR')
  })

  test('hours that never open: no next opening', async () => {
    const ctx = counterContext((doc) => { (mainUnit(doc).locations![0]! as any).openingHours = {} })
    const closed = await jsonOf(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS))
    expect(closed.error).toMatchObject({ code: 'SERVICE_CLOSED', details: [{ path: '/serviceId', message: 'no next opening' }] })
  })
})

describe('the services list of a closed service (contract §19, §28)', () => {
  const entry = async (ctx: ReturnType<typeof counterContext>, serviceId: string, locationId: string, headers: Record<string, string> = {}) => {
    const res = await ctx.app.handle(new Request(`http://localhost${SERVICES}`, { headers: { authorization: `Bearer ${ctx.key('all')}`, ...headers } }))
    expect(res.status).toBe(200)
    return (await jsonOf(res)).data.services.find((s: { id: string; locationId: string }) => s.id === serviceId && s.locationId === locationId)
  }

  test('estimatedWaitSeconds is the time until it opens plus the estimate, counted down at every read with no write between', async () => {
    const ctx = counterContext(withHours)
    ctx.clock.set('2026-11-27T18:00:00Z') // Friday 19:00 in Berlin; opens Monday 08:30 (07:30Z)
    const untilOpening = (Date.parse('2026-11-30T07:30:00Z') - ctx.clock.now()) / 1000
    // No counter open: the estimate assumes one, busy for one service time (300 s).
    expect(await entry(ctx, 'svc_accounts', 'loc_hall')).toMatchObject({ waiting: 0, estimatedWaitSeconds: untilOpening + 300 })
    // The annex has no hours: open, the estimate alone.
    expect(await entry(ctx, 'svc_accounts', 'loc_annex')).toMatchObject({ estimatedWaitSeconds: 300 })
    ctx.clock.advance(10 * 60_000 + 500)
    expect(await entry(ctx, 'svc_accounts', 'loc_hall')).toMatchObject({ estimatedWaitSeconds: untilOpening - 600 + 300 })
    // The body asked in another language counts down too.
    expect(await entry(ctx, 'svc_accounts', 'loc_hall', { 'accept-language': 'en' })).toMatchObject({ estimatedWaitSeconds: untilOpening - 600 + 300 })
    ctx.clock.set('2026-11-30T07:29:59Z')
    expect(await entry(ctx, 'svc_accounts', 'loc_hall')).toMatchObject({ estimatedWaitSeconds: 1 + 300 })
    // Open: the estimate alone.
    ctx.clock.set('2026-11-30T07:30:00Z')
    expect(await entry(ctx, 'svc_accounts', 'loc_hall')).toMatchObject({ estimatedWaitSeconds: 300 })
  })

  test('a service that closes while nothing is written: the next read adds the time until it opens again', async () => {
    const ctx = counterContext(withHours)
    ctx.clock.set('2026-11-30T15:14:00Z') // Monday 16:14 in Berlin: the last ticket is at 16:15
    expect(await entry(ctx, 'svc_loans', 'loc_hall')).toMatchObject({ estimatedWaitSeconds: 300 })
    ctx.clock.set('2026-11-30T15:15:00Z')
    expect(await entry(ctx, 'svc_loans', 'loc_hall')).toMatchObject({ estimatedWaitSeconds: (Date.parse('2026-12-01T07:30:00Z') - ctx.clock.now()) / 1000 + 300 })
  })
})
