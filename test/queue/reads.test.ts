import { describe, expect, test } from 'bun:test'
import { ESTIMATES_FRESH_MS } from '../../src/tickets/lines'
import { QueueCodes } from '../../src/queue/errors'
import { queueContext, mainUnit, issue, get, counts, expectError, jsonOf, HALL_ACCOUNTS, SERVICES, STATE, TICKETS, type QueueTestContext } from './helpers'

const sql = (ctx: QueueTestContext, query: string, ...params: (string | number | null)[]) => ctx.db.$client.query(query).run(...params)

describe('GET /queue/services', () => {
  test('active services at active locations, once per (service, location), with waiting and estimate', async () => {
    const ctx = queueContext()
    const res = await get(ctx, SERVICES, ctx.key('all'))
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual({
      data: {
        services: [
          { id: 'svc_accounts', name: 'Accounts', prefix: 'A', locationId: 'loc_annex', waiting: 0, estimatedWaitSeconds: 300 },
          { id: 'svc_accounts', name: 'Accounts', prefix: 'A', locationId: 'loc_hall', waiting: 0, estimatedWaitSeconds: 300 },
          { id: 'svc_loans', name: 'Loans', prefix: 'L', locationId: 'loc_hall', waiting: 0, estimatedWaitSeconds: 300 },
        ],
      },
    })
  })

  test('an inactive location is not listed, nor are its services', async () => {
    const ctx = queueContext((doc) => {
      mainUnit(doc).locations![1]!.active = false
    })
    const { data } = await jsonOf(await get(ctx, SERVICES, ctx.key('all')))
    expect(data.services.map((s: { id: string; locationId: string }) => `${s.id}@${s.locationId}`)).toEqual(['svc_accounts@loc_hall', 'svc_loans@loc_hall'])
  })

  // Contract §19 replaced Part one's ceil((waiting + 1) / max(open, 1)) × average: the estimate
  // now hands the waiting tickets to the open counters one by one, each free after what it holds.
  test('estimatedWaitSeconds: the waiting tickets shared out over the open counters of the service (contract §19)', async () => {
    const ctx = queueContext()
    for (let i = 0; i < 4; i++) await issue(ctx, ctx.key('all'))
    const entry = async (serviceId: string, locationId: string) =>
      (await jsonOf(await get(ctx, SERVICES, ctx.key('all')))).data.services.find((s: { id: string; locationId: string }) => s.id === serviceId && s.locationId === locationId)
    // No counter open: as if one were, busy for one average.
    expect(await entry('svc_accounts', 'loc_hall')).toMatchObject({ waiting: 4, estimatedWaitSeconds: 5 * 300 })
    // Both hall counters serve accounts; only cnt_1 serves loans. Two free counters take the 4
    // waiting two each: a new ticket is called after 2 × 300 s (Part one said 3 × 300).
    // Changed behind the app's back (SQL, no state revision): seen once the cached estimates age out.
    sql(ctx, 'UPDATE counters SET open = 1')
    ctx.clock.advance(ESTIMATES_FRESH_MS)
    expect(await entry('svc_accounts', 'loc_hall')).toMatchObject({ waiting: 4, estimatedWaitSeconds: 2 * 300 })
    // Nobody waits for loans, but cnt_1 calls the older accounts tickets first, as call-next does:
    // a0 and a1 at 0, a2 at cnt_1 and a3 at cnt_2 at 300, a new loan at cnt_1 at 600 (Part one said 300).
    expect(await entry('svc_loans', 'loc_hall')).toMatchObject({ waiting: 0, estimatedWaitSeconds: 600 })
    // The annex has no counter: its line is not shortened by the hall's.
    expect(await entry('svc_accounts', 'loc_annex')).toMatchObject({ waiting: 0, estimatedWaitSeconds: 300 })
    // The learned service time replaces the service default once completions exist.
    sql(ctx, "UPDATE service_stats SET avg_service_seconds = 120 WHERE service_id = 'svc_accounts' AND location_id = 'loc_hall'")
    ctx.clock.advance(ESTIMATES_FRESH_MS)
    expect(await entry('svc_accounts', 'loc_hall')).toMatchObject({ estimatedWaitSeconds: 2 * 120 })
  })

  test('the default service seconds of the service apply when no average exists', async () => {
    const ctx = queueContext((doc) => {
      mainUnit(doc).services![1]!.defaultServiceSeconds = 45
    })
    await issue(ctx, ctx.key('all'), { locationId: 'loc_hall', serviceId: 'svc_loans' })
    const loans = (await jsonOf(await get(ctx, SERVICES, ctx.key('all')))).data.services.find((s: { id: string }) => s.id === 'svc_loans')
    expect(loans).toMatchObject({ waiting: 1, estimatedWaitSeconds: 90 })
  })
})

describe('a location- or service-restricted key sees and may use only what it allows', () => {
  const restricted = () => queueContext((doc) => {
    mainUnit(doc).apiKeys!.push({ name: 'annex', locations: ['loc_annex'] })
  })

  test('services list and state show only the key\'s locations and services', async () => {
    const ctx = restricted()
    const annex = (await jsonOf(await get(ctx, SERVICES, ctx.key('annex')))).data.services
    expect(annex.map((s: { id: string; locationId: string }) => `${s.id}@${s.locationId}`)).toEqual(['svc_accounts@loc_annex'])
    const kiosk = (await jsonOf(await get(ctx, SERVICES, ctx.key('kiosk')))).data.services
    expect(kiosk.map((s: { id: string; locationId: string }) => `${s.id}@${s.locationId}`)).toEqual(['svc_accounts@loc_hall'])
    const state = (await jsonOf(await get(ctx, STATE, ctx.key('annex')))).data.services
    expect(state.map((s: { id: string; locationId: string }) => `${s.id}@${s.locationId}`)).toEqual(['svc_accounts@loc_annex'])
  })

  test('it may issue only at its location; tickets elsewhere are 404 to it', async () => {
    const ctx = restricted()
    expect((await issue(ctx, ctx.key('annex'), { locationId: 'loc_annex', serviceId: 'svc_accounts' })).status).toBe(201)
    const before = counts(ctx)
    await expectError(await issue(ctx, ctx.key('annex'), HALL_ACCOUNTS), 403, QueueCodes.LOCATION_FORBIDDEN)
    expect(counts(ctx)).toEqual(before)
    const hallTicket = (await jsonOf(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS))).data
    await expectError(await get(ctx, `${TICKETS}/${hallTicket.id}`, ctx.key('annex')), 404, QueueCodes.TICKET_NOT_FOUND)
    expect((await get(ctx, `${TICKETS}/${hallTicket.id}`, ctx.key('kiosk'))).status).toBe(200)
  })

  test('a service-restricted key does not see tickets of other services at its location', async () => {
    const ctx = restricted()
    const loans = (await jsonOf(await issue(ctx, ctx.key('all'), { locationId: 'loc_hall', serviceId: 'svc_loans' }))).data
    await expectError(await get(ctx, `${TICKETS}/${loans.id}`, ctx.key('kiosk')), 404, QueueCodes.TICKET_NOT_FOUND)
  })
})

describe('GET /queue/tickets/{ticketId}', () => {
  test('returns the current state of the ticket', async () => {
    const ctx = queueContext()
    const issued = (await jsonOf(await issue(ctx, ctx.key('all')))).data
    sql(ctx, "UPDATE tickets SET status = 'CALLED', called_at = ?, counter_id = 'cnt_1' WHERE id = ?", ctx.clock.now() + 60_000, issued.id)
    const res = await get(ctx, `${TICKETS}/${issued.id}`, ctx.key('all'))
    expect(res.status).toBe(200)
    expect((await jsonOf(res)).data).toEqual({ ...issued, status: 'CALLED', calledAt: '2026-11-25T09:31:00.000Z' })
  })

  test('404 TICKET_NOT_FOUND for an unknown ticket and for one of another Queue Unit', async () => {
    const ctx = queueContext((doc) => {
      doc.workspaces[0]!.queueUnits!.push({
        id: 'qu_other', name: 'Other branch',
        locations: [{ id: 'loc_other', name: 'Other', timezone: 'Europe/Berlin' }],
        services: [{ id: 'svc_other', name: 'Other', prefix: 'O', locations: ['loc_other'] }],
        apiKeys: [{ name: 'other' }],
      })
    })
    const other = ctx.provisioned.secret('queue', 'qu_other', 'other')
    const mine = (await jsonOf(await issue(ctx, ctx.key('all')))).data
    await expectError(await get(ctx, `${TICKETS}/tkt_unknown`, ctx.key('all')), 404, QueueCodes.TICKET_NOT_FOUND)
    await expectError(await get(ctx, `${TICKETS}/${mine.id}`, other), 404, QueueCodes.TICKET_NOT_FOUND)
    // The other unit's key lists only its own services.
    const list = (await jsonOf(await get(ctx, SERVICES, other))).data.services
    expect(list.map((s: { id: string }) => s.id)).toEqual(['svc_other'])
  })
})

describe('GET /queue/state', () => {
  test('waiting per (service, location); nowServing null until a ticket is called, then number and counter name', async () => {
    const ctx = queueContext()
    const first = (await jsonOf(await issue(ctx, ctx.key('all')))).data
    await issue(ctx, ctx.key('all'))
    const res = await get(ctx, STATE, ctx.key('all'))
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual({
      data: {
        generatedAt: '2026-11-25T09:30:00.000Z',
        services: [
          { id: 'svc_accounts', name: 'Accounts', locationId: 'loc_annex', waiting: 0, nowServing: null },
          { id: 'svc_accounts', name: 'Accounts', locationId: 'loc_hall', waiting: 2, nowServing: null },
          { id: 'svc_loans', name: 'Loans', locationId: 'loc_hall', waiting: 0, nowServing: null },
        ],
      },
    })
    // What the counters feature will do on a call.
    sql(ctx, "UPDATE tickets SET status = 'CALLED', called_at = ?, counter_id = 'cnt_2' WHERE id = ?", ctx.clock.now(), first.id)
    sql(ctx, "UPDATE service_stats SET waiting = waiting - 1, now_serving_ticket_id = ? WHERE service_id = 'svc_accounts' AND location_id = 'loc_hall'", first.id)
    const hall = (await jsonOf(await get(ctx, STATE, ctx.key('all')))).data.services[1]
    expect(hall).toEqual({ id: 'svc_accounts', name: 'Accounts', locationId: 'loc_hall', waiting: 1, nowServing: { number: 'A001', counterName: 'Counter 2' } })
    // A completed ticket is no longer "now serving", even if the pointer lags behind.
    sql(ctx, "UPDATE tickets SET status = 'COMPLETED' WHERE id = ?", first.id)
    expect((await jsonOf(await get(ctx, STATE, ctx.key('all')))).data.services[1].nowServing).toBeNull()
  })
})

describe('Queue error table, read endpoints', () => {
  const paths = [SERVICES, STATE, `${TICKETS}/tkt_000001`]

  test('401 AUTHENTICATION_FAILED without a valid Queue key', async () => {
    const ctx = queueContext()
    const workspaceKey = ctx.provisioned.secret('workspace', 'ws_demo', 'cms')
    for (const path of paths) {
      await expectError(await get(ctx, path, null), 401, QueueCodes.AUTHENTICATION_FAILED)
      await expectError(await get(ctx, path, 'lbq_nope'), 401, QueueCodes.AUTHENTICATION_FAILED)
      await expectError(await get(ctx, path, workspaceKey), 401, QueueCodes.AUTHENTICATION_FAILED)
    }
  })

  test('403 SCOPE_FORBIDDEN for each read scope', async () => {
    const ctx = queueContext((doc) => {
      mainUnit(doc).apiKeys!.push({ name: 'writer', scopes: ['tickets:write'] })
    })
    for (const path of paths) await expectError(await get(ctx, path, ctx.key('writer')), 403, QueueCodes.SCOPE_FORBIDDEN)
    // operator has tickets:read and state:read, not services:read.
    await expectError(await get(ctx, SERVICES, ctx.key('operator')), 403, QueueCodes.SCOPE_FORBIDDEN)
    expect((await get(ctx, STATE, ctx.key('operator'))).status).toBe(200)
  })

  test('403 QUEUE_UNIT_INACTIVE on every read of an inactive unit', async () => {
    const ctx = queueContext((doc) => {
      mainUnit(doc).active = false
    })
    for (const path of paths) await expectError(await get(ctx, path, ctx.key('all')), 403, QueueCodes.QUEUE_UNIT_INACTIVE)
  })

  test('429 RATE_LIMITED after the read limit, shared by the three reads, with Retry-After', async () => {
    const ctx = queueContext((doc) => {
      mainUnit(doc).apiKeys!.find((k) => k.name === 'all')!.rateLimits = { readPerMinute: 3 }
    })
    expect((await get(ctx, SERVICES, ctx.key('all'))).status).toBe(200)
    expect((await get(ctx, STATE, ctx.key('all'))).status).toBe(200)
    expect((await get(ctx, `${TICKETS}/tkt_unknown`, ctx.key('all'))).status).toBe(404) // counts too
    const limited = await get(ctx, STATE, ctx.key('all'))
    await expectError(limited, 429, QueueCodes.RATE_LIMITED)
    expect(limited.headers.get('retry-after')).toBe('60')
    ctx.clock.advance(60_000)
    expect((await get(ctx, STATE, ctx.key('all'))).status).toBe(200)
  })

  test('the default read limit is 600 per minute', async () => {
    const ctx = queueContext()
    for (let i = 0; i < 600; i++) {
      const res = await get(ctx, STATE, ctx.key('all'))
      if (res.status !== 200) throw new Error(`read ${i + 1} answered ${res.status}`)
    }
    await expectError(await get(ctx, STATE, ctx.key('all')), 429, QueueCodes.RATE_LIMITED)
  })

  test('a read writes nothing but the credential\'s last-used time', async () => {
    const ctx = queueContext()
    await issue(ctx, ctx.key('all'))
    const before = counts(ctx)
    for (const path of paths) await get(ctx, path, ctx.key('all'))
    expect(counts(ctx)).toEqual(before)
  })

  test('timestamp and nonce headers on a read are ignored', async () => {
    const ctx = queueContext()
    const res = await get(ctx, STATE, ctx.key('all'), { 'x-request-timestamp': 'garbage', 'x-request-nonce': 'x' })
    expect(res.status).toBe(200)
  })
})
