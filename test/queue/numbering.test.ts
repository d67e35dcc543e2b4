import { describe, expect, test } from 'bun:test'
import { formatTicketNumber, businessDayAt } from '../../src/tickets/numbering'
import { queueContext, mainUnit, issue, issueHeaders, counts, jsonOf, HALL_ACCOUNTS, TICKETS } from './helpers'

describe('ticket numbers (contract §3)', () => {
  test('prefix + number zero-padded to 3 digits, growing past 999', () => {
    expect(formatTicketNumber('A', 1)).toBe('A001')
    expect(formatTicketNumber('A', 7)).toBe('A007')
    expect(formatTicketNumber('AB', 42)).toBe('AB042')
    expect(formatTicketNumber('A', 999)).toBe('A999')
    expect(formatTicketNumber('A', 1000)).toBe('A1000')
  })

  test('A999 is followed by A1000', async () => {
    const ctx = queueContext()
    const day = businessDayAt(ctx.clock.now(), 'Europe/Berlin')
    ctx.db.$client.query('INSERT INTO ticket_sequences (location_id, prefix, business_day, last_seq) VALUES (?, ?, ?, ?)').run('loc_hall', 'A', day, 998)
    const numbers = []
    for (let i = 0; i < 2; i++) numbers.push((await jsonOf(await issue(ctx, ctx.key('all')))).data.ticketNumber)
    expect(numbers).toEqual(['A999', 'A1000'])
  })

  test('a ticket just before local midnight and one just after get numbers of different days', async () => {
    const ctx = queueContext()
    // Europe/Berlin is UTC+1 in November: local midnight of 25→26 November is 23:00 UTC.
    ctx.clock.set('2026-11-25T22:59:59.999Z')
    const before = [(await jsonOf(await issue(ctx, ctx.key('all')))).data, (await jsonOf(await issue(ctx, ctx.key('all')))).data]
    ctx.clock.set('2026-11-25T23:00:00.000Z')
    const after = (await jsonOf(await issue(ctx, ctx.key('all')))).data
    expect(before.map((t) => t.ticketNumber)).toEqual(['A001', 'A002'])
    expect(after.ticketNumber).toBe('A001')
    const days = ctx.db.$client.query('SELECT business_day AS day, seq FROM tickets ORDER BY created_at, seq').all()
    expect(days).toEqual([{ day: '2026-11-25', seq: 1 }, { day: '2026-11-25', seq: 2 }, { day: '2026-11-26', seq: 1 }])
  })

  test('the business day is the location\'s: at the same instant, Tokyo is already on the next day', async () => {
    const ctx = queueContext((doc) => {
      mainUnit(doc).locations!.push({ id: 'loc_tokyo', name: 'Tokyo desk', timezone: 'Asia/Tokyo' })
      mainUnit(doc).services![0]!.locations.push('loc_tokyo')
    })
    ctx.clock.set('2026-11-25T15:30:00.000Z') // 16:30 in Berlin, 00:30 on the 26th in Tokyo
    await issue(ctx, ctx.key('all'))
    await issue(ctx, ctx.key('all'), { locationId: 'loc_tokyo', serviceId: 'svc_accounts' })
    const rows = ctx.db.$client.query('SELECT location_id AS loc, business_day AS day FROM tickets ORDER BY location_id').all()
    expect(rows).toEqual([{ loc: 'loc_hall', day: '2026-11-25' }, { loc: 'loc_tokyo', day: '2026-11-26' }])
  })

  test('two services with the same prefix at one location share one sequence', async () => {
    // Provisioning refuses a prefix twice in one unit (contract §24); a database written before
    // that rule may still hold such a pair, and its numbers must not collide.
    const ctx = queueContext()
    ctx.db.$client.run("INSERT INTO services (id, queue_unit_id, name, prefix, created_at, updated_at) VALUES ('svc_audit', 'qu_main', 'Audit', 'A', 0, 0)")
    ctx.db.$client.run("INSERT INTO service_locations (service_id, location_id) VALUES ('svc_audit', 'loc_hall')")
    const a = (await jsonOf(await issue(ctx, ctx.key('all')))).data.ticketNumber
    const b = (await jsonOf(await issue(ctx, ctx.key('all'), { locationId: 'loc_hall', serviceId: 'svc_audit' }))).data.ticketNumber
    expect([a, b]).toEqual(['A001', 'A002'])
  })

  test('200 concurrent distinct requests (raised rate limit) get 200 distinct consecutive numbers', async () => {
    const ctx = queueContext((doc) => {
      mainUnit(doc).apiKeys!.find((k) => k.name === 'all')!.rateLimits = { issuePerMinute: 1000 }
    })
    const requests = Array.from({ length: 200 }, (_, i) => new Request(`http://localhost${TICKETS}`, {
      method: 'POST',
      headers: issueHeaders(ctx, ctx.key('all'), { idempotencyKey: `distinct-${i}` }),
      body: JSON.stringify({ ...HALL_ACCOUNTS, externalReference: `ref-${i}` }),
    }))
    const responses = await Promise.all(requests.map((r) => ctx.app.handle(r)))
    expect(responses.map((r) => r.status)).toEqual(Array(200).fill(201))
    const numbers = (await Promise.all(responses.map(jsonOf))).map((b) => b.data.ticketNumber)
    expect(new Set(numbers).size).toBe(200)
    const expected = Array.from({ length: 200 }, (_, i) => formatTicketNumber('A', i + 1))
    expect([...numbers].sort()).toEqual([...expected].sort())
    expect(counts(ctx)).toEqual({ tickets: 200, idempotency: 200, sequences: 1, stats: 200, events: 200 })
  })

  test('the unique index refuses a duplicate number even if a writer bypassed the sequence', async () => {
    const ctx = queueContext()
    await issue(ctx, ctx.key('all'))
    const dup = () => ctx.db.$client.query(`INSERT INTO tickets (id, queue_unit_id, location_id, service_id, prefix, business_day, seq, ticket_number, status, source, queue_rank, created_at)
      SELECT 'tkt_dup', queue_unit_id, location_id, service_id, prefix, business_day, seq, ticket_number, status, source, queue_rank, created_at FROM tickets`).run()
    expect(dup).toThrow(/UNIQUE/)
  })

  test('queue ranks follow creation order across the services of a location', async () => {
    const ctx = queueContext()
    await issue(ctx, ctx.key('all'))
    await issue(ctx, ctx.key('all'), { locationId: 'loc_hall', serviceId: 'svc_loans' })
    await issue(ctx, ctx.key('all'))
    const ranks = ctx.db.$client.query("SELECT ticket_number AS n, queue_rank AS r FROM tickets WHERE location_id = 'loc_hall' ORDER BY queue_rank").all()
    expect(ranks).toEqual([{ n: 'A001', r: 1 }, { n: 'L001', r: 2 }, { n: 'A002', r: 3 }])
  })
})
