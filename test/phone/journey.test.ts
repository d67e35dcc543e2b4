import { describe, expect, test } from 'bun:test'
import { request, jsonOf } from '../support/app'
import { act, callNext, counterContext, deliveriesOf, eventsOf, issued, ok, revision, ticketRow } from '../counters/helpers'
import { expectError, type QueueTestContext } from '../queue/helpers'
import { PhoneCodes } from '../../src/phone/errors'
import { PHONE_WRITES_PER_ADDRESS } from '../../src/phone/routes'
import { planMoreTime } from '../../src/tickets'
import { anonymousBodyBudget } from '../../src/platform/anonymous-forms'
import { bodyBudget } from '../../src/platform/body'

/*
 * Contract §20 on the phone page: "Leave the queue", "I need more time", the rating of a
 * completed visit, and what the status says of a missed turn and a transfer. The tracking code
 * is the capability; every change carries the server's Origin.
 */

const PHONE = '/api/phone/v1/tickets'
const ORIGIN = { origin: 'http://localhost' }

function codeOf(ctx: QueueTestContext, ticketId: string): string {
  return ticketRow(ctx, ticketId).tracking_code as string
}
const change = (ctx: QueueTestContext, code: string, action: 'leave' | 'more-time' | 'feedback', body?: unknown, headers: Record<string, string> = ORIGIN) =>
  request(ctx.app, 'POST', `${PHONE}/${code}/${action}`, { headers, ...(body === undefined ? {} : { body }) })
const status = async (ctx: QueueTestContext, code: string) => (await jsonOf(await request(ctx.app, 'GET', `${PHONE}/${code}`))).data
/** The line's waiting tickets in the order call-next takes them. */
async function callOrderOf(ctx: QueueTestContext, ids: string[]): Promise<string[]> {
  const order: string[] = []
  for (const id of ids) {
    const s = await status(ctx, codeOf(ctx, id))
    if (s.state === 'WAITING') order[s.peopleAhead] = id
  }
  return order
}
async function line(ctx: QueueTestContext, n: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < n; i++) ids.push((await issued(ctx)).id)
  return ids
}

describe('POST /api/phone/v1/tickets/{code}/leave', () => {
  test('a waiting ticket is cancelled by the customer: history, webhook and counts as any cancel', async () => {
    const ctx = counterContext()
    const [a, b] = await line(ctx, 2)
    const before = revision(ctx)
    const res = await change(ctx, codeOf(ctx, a!), 'leave')
    expect(res.status).toBe(200)
    expect((await jsonOf(res)).data).toEqual({ state: 'ENDED', language: 'en', outcome: 'CANCELLED', feedback: null })
    expect(ticketRow(ctx, a!).status).toBe('CANCELLED')
    const last = eventsOf(ctx, a!).at(-1)!
    expect([last.type, last.from_status, last.to_status, last.actor]).toEqual(['cancelled', 'WAITING', 'CANCELLED', `customer:${a}`])
    expect(revision(ctx)).toBeGreaterThan(before)
    // The one behind moved up.
    expect((await status(ctx, codeOf(ctx, b!))).peopleAhead).toBe(0)
    const history = await jsonOf(await request(ctx.app, 'GET', `/api/operator/v1/tickets/${a}/events`, { headers: { authorization: `Bearer ${ctx.key('operator')}` } }))
    expect(history.data.events.at(-1)).toMatchObject({ type: 'cancelled', actor: { type: 'customer', id: a } })
    const hooks = deliveriesOf(ctx, a!)
    expect(hooks.map((d) => d.event_type)).toEqual(['ticket.created', 'ticket.cancelled'])
    expect(JSON.parse(hooks.at(-1)!.body as string).actor).toEqual({ type: 'customer', id: a })
  })

  test('only while WAITING: a called ticket is 409 and stays called', async () => {
    const ctx = counterContext()
    const [a] = await line(ctx, 1)
    await ok(callNext(ctx, 'cnt_1'))
    await expectError(await change(ctx, codeOf(ctx, a!), 'leave'), 409, PhoneCodes.INVALID_TRANSITION)
    expect(ticketRow(ctx, a!).status).toBe('CALLED')
  })

  test('the code is the capability: another site, no Origin, an unknown code are refused and change nothing', async () => {
    const ctx = counterContext()
    const [a] = await line(ctx, 1)
    const code = codeOf(ctx, a!)
    await expectError(await change(ctx, code, 'leave', undefined, { origin: 'https://evil.example' }), 403, PhoneCodes.ORIGIN_FORBIDDEN)
    await expectError(await change(ctx, code, 'leave', undefined, {}), 403, PhoneCodes.ORIGIN_FORBIDDEN)
    await expectError(await change(ctx, 'a'.repeat(24), 'leave'), 404, PhoneCodes.TICKET_NOT_FOUND)
    expect(ticketRow(ctx, a!).status).toBe('WAITING')
  })

  test(`at most ${PHONE_WRITES_PER_ADDRESS} changes a minute per address, then 429 with Retry-After`, async () => {
    const ctx = counterContext()
    const [a] = await line(ctx, 1)
    const code = codeOf(ctx, a!)
    // Refusals count too: the bound is on what an address sends, not on what succeeds.
    for (let i = 0; i < PHONE_WRITES_PER_ADDRESS; i++) expect((await change(ctx, code, 'feedback', { rating: 5 })).status).toBe(409)
    const refused = await change(ctx, code, 'leave')
    await expectError(refused, 429, PhoneCodes.RATE_LIMITED)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(ticketRow(ctx, a!).status).toBe('WAITING')
    ctx.clock.advance(61_000)
    expect((await change(ctx, code, 'leave')).status).toBe(200)
  })
})

describe('POST /api/phone/v1/tickets/{code}/more-time', () => {
  test('moves behind the next 3 tickets of the call order, twice at most; the desk calls in the new order', async () => {
    const ctx = counterContext()
    const ids = await line(ctx, 6)
    const [t1, t2, t3, t4, t5, t6] = ids as [string, string, string, string, string, string]
    const before = revision(ctx)
    const res = await change(ctx, codeOf(ctx, t1), 'more-time')
    expect(res.status).toBe(200)
    expect((await jsonOf(res)).data).toMatchObject({ state: 'WAITING', peopleAhead: 3, moreTimeLeft: 1 })
    expect(await callOrderOf(ctx, ids)).toEqual([t2, t3, t4, t1, t5, t6])
    expect(revision(ctx)).toBeGreaterThan(before)
    const event = eventsOf(ctx, t1).at(-1)!
    expect([event.type, event.from_status, event.to_status, event.actor]).toEqual(['more_time', 'WAITING', 'WAITING', `customer:${t1}`])
    expect(JSON.parse(event.detail as string)).toEqual({ aheadBefore: 0, aheadAfter: 3, moreTimeCount: 1 })
    // No webhook: nothing about the ticket's status changed.
    expect(deliveriesOf(ctx, t1).map((d) => d.event_type)).not.toContain('ticket.more_time')
    // Second time: fewer than 3 behind (t5, t6): it goes last.
    expect((await jsonOf(await change(ctx, codeOf(ctx, t1), 'more-time'))).data).toMatchObject({ peopleAhead: 5, moreTimeLeft: 0 })
    expect(await callOrderOf(ctx, ids)).toEqual([t2, t3, t4, t5, t6, t1])
    await expectError(await change(ctx, codeOf(ctx, t1), 'more-time'), 409, PhoneCodes.MORE_TIME_LIMIT_REACHED)
    expect(ticketRow(ctx, t1).more_time_count).toBe(2)
    // The desk's call-next follows the same order.
    const called: string[] = []
    for (let i = 0; i < 6; i++) {
      const data = await ok(callNext(ctx, 'cnt_1'))
      called.push(data.id ?? data.ticket?.id)
      await ok(act(ctx, called.at(-1)!, 'start'))
      await ok(act(ctx, called.at(-1)!, 'complete'))
    }
    expect(called).toEqual([t2, t3, t4, t5, t6, t1])
  })

  test('a ticket of another line keeps its place; only WAITING may ask', async () => {
    const ctx = counterContext()
    const [a, b] = await line(ctx, 2)
    const loans = (await issued(ctx, { locationId: 'loc_hall', serviceId: 'svc_loans' })).id
    const c = (await issued(ctx)).id
    await ok(change(ctx, codeOf(ctx, a!), 'more-time'))
    expect(await callOrderOf(ctx, [a!, b!, c])).toEqual([b!, c, a!])
    expect((await status(ctx, codeOf(ctx, loans))).peopleAhead).toBe(0)
    await ok(callNext(ctx, 'cnt_1'))
    const calledId = (ticketRow(ctx, b!).status === 'CALLED') ? b! : c
    await expectError(await change(ctx, codeOf(ctx, calledId), 'more-time'), 409, PhoneCodes.TICKET_NOT_WAITING)
  })

  test('the plan follows the call order under priority: behind the next 3 as they will be called, priority kept', () => {
    const t = (id: string, queueRank: number, priority = false, front = false) => ({ id, queueRank, priority, front, createdAt: queueRank })
    const waiting = [t('n1', 1), t('n2', 2), t('p1', 3, true), t('n3', 4), t('n4', 5), t('n5', 6)]
    // INTERLEAVE 1: n1 p1 n2 n3 n4 n5 (after n1, p1 is due). n1 moves behind p1, n2, n3.
    expect(planMoreTime(waiting, 'n1', { mode: 'INTERLEAVE', normalPerPriority: 1 })).toEqual({ afterId: 'n3', aheadBefore: 0, aheadAfter: 3 })
    // FIRST: p1 n1 n2 n3 n4 n5; the front ticket leaves the front.
    expect(planMoreTime([...waiting, t('f', 0, false, true)], 'f', { mode: 'FIRST' })).toEqual({ afterId: 'n2', aheadBefore: 0, aheadAfter: 3 })
    // A priority ticket under FIRST with only normal tickets behind: last of its lane, still ahead of them.
    expect(planMoreTime(waiting, 'p1', { mode: 'FIRST' })).toEqual({ afterId: null, aheadBefore: 0, aheadAfter: 0 })
  })
})

/** A ticket issued, called at cnt_1, started and completed at `completedAt` by `actor` (a clerk when given). */
async function completed(ctx: QueueTestContext, completedAt: string, clerk?: string): Promise<string> {
  const { id } = await issued(ctx)
  await ok(act(ctx, id, 'call', { counterId: 'cnt_1' }))
  await ok(act(ctx, id, 'start'))
  ctx.clock.set(completedAt)
  if (clerk === undefined) await ok(act(ctx, id, 'complete'))
  else ctx.deps.writes.now(() => ctx.deps.tickets.complete(ctx.deps.tickets.byId(id)!, `clerk:${clerk}`, ctx.clock.now()))
  return id
}
const feedbackRow = (ctx: QueueTestContext, id: string) => ctx.db.$client.query('SELECT * FROM ticket_feedback WHERE ticket_id = ?1').get(id) as Record<string, unknown> | null

describe('POST /api/phone/v1/tickets/{code}/feedback', () => {
  test('once per completed ticket, with its service, counter, clerk and day; the comment stored as given', async () => {
    const ctx = counterContext()
    const id = await completed(ctx, '2026-11-25T10:00:00.000Z', 'alice')
    const code = codeOf(ctx, id)
    expect(await status(ctx, code)).toEqual({ state: 'ENDED', language: 'en', outcome: 'COMPLETED', feedback: 'OPEN' })
    const html = '<img src=x onerror=alert(1)> <b>great</b>'
    const res = await change(ctx, code, 'feedback', { rating: 4, comment: html })
    expect(res.status).toBe(200)
    expect((await jsonOf(res)).data).toEqual({ state: 'ENDED', language: 'en', outcome: 'COMPLETED', feedback: 'GIVEN' })
    expect(feedbackRow(ctx, id)).toMatchObject({
      ticket_id: id, queue_unit_id: 'qu_main', location_id: 'loc_hall', service_id: 'svc_accounts', counter_id: 'cnt_1',
      clerk: 'clerk:alice', business_day: '2026-11-25', rating: 4, comment: html,
    })
    await expectError(await change(ctx, code, 'feedback', { rating: 5 }), 409, PhoneCodes.FEEDBACK_ALREADY_GIVEN)
    expect(feedbackRow(ctx, id)!.rating).toBe(4)
  })

  test('a desk without a clerk leaves the clerk empty; no comment is none', async () => {
    const ctx = counterContext()
    const id = await completed(ctx, '2026-11-25T10:00:00.000Z')
    await ok(change(ctx, codeOf(ctx, id), 'feedback', { rating: 2, comment: '   ' }))
    expect(feedbackRow(ctx, id)).toMatchObject({ clerk: null, rating: 2, comment: null })
  })

  test('1–5 only, the comment at most 500 characters (code points), a closed body: 422 and nothing stored', async () => {
    const ctx = counterContext()
    const id = await completed(ctx, '2026-11-25T10:00:00.000Z')
    const code = codeOf(ctx, id)
    for (const body of [{ rating: 0 }, { rating: 6 }, { rating: 3.5 }, { rating: '5' }, {}, { rating: 5, comment: 'x'.repeat(501) }, { rating: 5, extra: 1 }]) {
      await expectError(await change(ctx, code, 'feedback', body), 422, PhoneCodes.VALIDATION_FAILED)
    }
    await expectError(await request(ctx.app, 'POST', `${PHONE}/${code}/feedback`, { headers: { ...ORIGIN, 'content-type': 'application/json' }, raw: '{"rating":' }), 400, PhoneCodes.INVALID_JSON)
    expect(feedbackRow(ctx, id)).toBeNull()
    // 500 characters of 4 UTF-16 units' worth each still fit.
    await ok(change(ctx, code, 'feedback', { rating: 5, comment: '😀'.repeat(500) }))
    expect(feedbackRow(ctx, id)!.comment).toBe('😀'.repeat(500))
  })

  test('within 24 hours of completion, past the end of its business day; then closed', async () => {
    const ctx = counterContext()
    const early = await completed(ctx, '2026-11-25T10:00:00.000Z')
    const late = await completed(ctx, '2026-11-25T10:00:00.000Z')
    // The next day, 23 h 59 min later: the day is over, the rating is still open.
    ctx.clock.set('2026-11-26T09:59:00.000Z')
    expect((await status(ctx, codeOf(ctx, early))).feedback).toBe('OPEN')
    await ok(change(ctx, codeOf(ctx, early), 'feedback', { rating: 5 }))
    ctx.clock.set('2026-11-26T10:00:00.000Z')
    await expectError(await change(ctx, codeOf(ctx, late), 'feedback', { rating: 5 }), 409, PhoneCodes.FEEDBACK_WINDOW_CLOSED)
    expect(feedbackRow(ctx, late)).toBeNull()
    expect((await status(ctx, codeOf(ctx, late))).state).toBe('EXPIRED')
  })

  test('only a completed visit: waiting, cancelled and missed tickets are 409 TICKET_NOT_COMPLETED', async () => {
    const ctx = counterContext()
    const [waiting, cancelled] = await line(ctx, 2)
    await ok(change(ctx, codeOf(ctx, cancelled!), 'leave'))
    for (const id of [waiting!, cancelled!]) await expectError(await change(ctx, codeOf(ctx, id), 'feedback', { rating: 5 }), 409, PhoneCodes.TICKET_NOT_COMPLETED)
  })
})

/** A chunked JSON change whose body sends `first` bytes and then waits until `end()` breaks it off. */
function heldChange(ctx: QueueTestContext, code: string, action: 'leave' | 'more-time' | 'feedback', first: number) {
  let stop: (() => void) | null = null
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"rating":5,"comment":"'.padEnd(first, 'x')))
      stop = () => controller.error(new Error('client gone'))
    },
  })
  const response = ctx.app.handle(new Request(`http://localhost${PHONE}/${code}/${action}`, {
    method: 'POST', headers: { ...ORIGIN, 'content-type': 'application/json' }, body, duplex: 'half',
  } as RequestInit))
  return { response, end: () => stop?.() }
}

const within = <T,>(promise: Promise<T>, ms = 2000) => Promise.race([promise, Bun.sleep(ms).then(() => 'timeout' as const)])

describe('the phone page\'s changes are admitted before their body (contract §27)', () => {
  test('a wrong tracking code is 404 at once, a never-ending body unread, Connection: close', async () => {
    const ctx = counterContext()
    for (const action of ['feedback', 'leave', 'more-time'] as const) {
      const held = heldChange(ctx, 'a'.repeat(24), action, 200)
      const response = await within(held.response)
      held.end()
      expect(response).not.toBe('timeout')
      await expectError(response as Response, 404, PhoneCodes.TICKET_NOT_FOUND)
      expect((response as Response).headers.get('connection')).toBe('close')
    }
    expect(anonymousBodyBudget.inFlight).toBe(0)
  })

  test('a right code\'s body is held against the anonymous budget, never the authenticated one; over 4 KiB is 413', async () => {
    const ctx = counterContext()
    const id = await completed(ctx, '2026-11-25T10:00:00.000Z')
    const code = codeOf(ctx, id)
    const held = heldChange(ctx, code, 'feedback', 200)
    try {
      await Bun.sleep(50)
      expect(anonymousBodyBudget.inFlight).toBe(200)
      expect(bodyBudget.inFlight).toBe(0)
    } finally {
      held.end()
    }
    expect((await held.response).status).toBe(400)
    expect(anonymousBodyBudget.inFlight).toBe(0)
    expect(feedbackRow(ctx, id)).toBeNull()
    const big = await change(ctx, code, 'feedback', { rating: 5, comment: 'x'.repeat(4200) })
    await expectError(big, 413, PhoneCodes.PAYLOAD_TOO_LARGE)
    await ok(change(ctx, code, 'feedback', { rating: 5 }))
  })
})

describe('the status of a missed turn and a transfer', () => {
  test('NO_SHOW is its own outcome (the page says "You missed your turn"); a transferred ticket says so; the unit\'s approachingAhead rides along', async () => {
    const ctx = counterContext()
    const [a, b] = await line(ctx, 2)
    await ok(callNext(ctx, 'cnt_1'))
    await ok(act(ctx, a!, 'no-show'))
    expect(await status(ctx, codeOf(ctx, a!))).toEqual({ state: 'ENDED', language: 'en', outcome: 'NO_SHOW', feedback: null })
    expect(await status(ctx, codeOf(ctx, b!))).toMatchObject({ state: 'WAITING', transferred: false, approachingAhead: 3, moreTimeLeft: 2 })
    // The transfer's origin is written by the transfer (another part of contract §20); the phone reads it.
    ctx.db.$client.query("UPDATE tickets SET transferred_from_service_id = 'svc_loans' WHERE id = ?1").run(b!)
    expect(await status(ctx, codeOf(ctx, b!))).toMatchObject({ state: 'WAITING', transferred: true, serviceName: 'Accounts' })
  })
})
