import { describe, expect, test } from 'bun:test'
import { request, jsonOf } from '../support/app'
import { act, callNext, callNextOnly, openCounter, ok } from '../counters/helpers'
import { issue, HALL_ACCOUNTS } from '../queue/helpers'
import { issuedAtKiosk, kioskContext } from '../kiosk/helpers'
import { TRACKING_CODE_PATTERN, newTrackingCode, trackingMinute } from '../../src/tickets/tracking'
import { PhoneCodes } from '../../src/phone/errors'

const PHONE = '/api/phone/v1/tickets'
const codeOf = (trackingUrl: string) => trackingUrl.slice('/t/'.length)
const status = async (ctx: { app: { handle(r: Request): Promise<Response> } }, code: string, since?: string) => {
  const response = await request(ctx.app, 'GET', `${PHONE}/${code}${since ? `?since=${since}` : ''}`)
  return { status: response.status, body: await jsonOf(response) }
}

describe('tracking codes', () => {
  test('24 URL-safe characters, 100 of their bits random: unique, unrelated to the ticket ID, never guessed', async () => {
    const at = Date.parse('2026-11-25T09:30:15Z')
    const codes = new Set(Array.from({ length: 5000 }, () => newTrackingCode(at)))
    expect(codes.size).toBe(5000)
    for (const code of codes) expect(code).toMatch(TRACKING_CODE_PATTERN)
    // The first 4 characters are the minute of issue; each of the other 20 takes all 32 values.
    expect(new Set([...codes].map((c) => c.slice(0, 4)))).toEqual(new Set([trackingMinute(at)]))
    for (let i = 4; i < 24; i++) expect(new Set([...codes].map((c) => c[i])).size).toBe(32)
    // Codes of a later minute sort after: a commit's tickets share the unique index's last page.
    expect(newTrackingCode(at + 60_000) > newTrackingCode(at)).toBe(true)
    expect(trackingMinute(at + 59_000 - 15_000)).toBe(trackingMinute(at))
    const ctx = await kioskContext()
    const ticket = await issuedAtKiosk(ctx)
    const code = codeOf(ticket.ticket.trackingUrl)
    expect(code).not.toContain(ticket.ticket.id.slice(4))
    // Neighbouring codes (one character changed) and random ones find nothing.
    for (const guess of [code.slice(0, -1) + (code.endsWith('a') ? 'b' : 'a'), newTrackingCode(), ticket.ticket.id, 'A001', '']) {
      const answer = await request(ctx.app, 'GET', `${PHONE}/${encodeURIComponent(guess)}`)
      expect(answer.status).toBe(guess === '' ? 404 : 404)
      if (guess !== '') expect((await jsonOf(answer)).error.code).toBe(PhoneCodes.TICKET_NOT_FOUND)
    }
  })
})

describe('GET /api/phone/v1/tickets/{code}', () => {
  test('while waiting: its number, service, location, branch, people ahead and wait; called: the counter; then ended, and nothing more', async () => {
    const ctx = await kioskContext()
    const first = await issuedAtKiosk(ctx)
    const mine = await issuedAtKiosk(ctx)
    const code = codeOf(mine.ticket.trackingUrl)
    const waiting = await status(ctx, code)
    expect(waiting.status).toBe(200)
    expect(waiting.body.data).toEqual({
      state: 'WAITING', language: 'en', defaultLanguage: 'en', languages: ['en'], ticketNumber: 'A002',
      serviceName: 'Accounts', serviceNames: { en: 'Accounts' }, locationName: 'Main hall', locationNames: { en: 'Main hall' }, branchName: 'Main branch', branchNames: { en: 'Main branch' },
      peopleAhead: 1, estimatedWaitSeconds: 600, noCounterOpen: true, counterFree: false, counterName: null, counterNames: null, callCount: 0,
      approachingAhead: 3, transferred: false, moreTimeLeft: 2,
    })
    await ok(callNext(ctx, 'cnt_1'))
    expect((await status(ctx, code)).body.data).toMatchObject({ state: 'WAITING', peopleAhead: 0, estimatedWaitSeconds: 300 })
    await ok(act(ctx, first.ticket.id, 'start'))
    await ok(callNext(ctx, 'cnt_2'))
    expect((await status(ctx, code)).body.data).toMatchObject({ state: 'CALLED', counterName: 'Counter 2', peopleAhead: 0, callCount: 1 })
    await ok(act(ctx, mine.ticket.id, 'recall'))
    expect((await status(ctx, code)).body.data).toMatchObject({ state: 'CALLED', callCount: 2 })
    await ok(act(ctx, mine.ticket.id, 'start'))
    expect((await status(ctx, code)).body.data).toMatchObject({ state: 'SERVING', counterName: 'Counter 2' })
    await ok(act(ctx, mine.ticket.id, 'complete'))
    const ended = await status(ctx, code)
    expect(ended.body).toEqual({ data: { state: 'ENDED', language: 'en', outcome: 'COMPLETED', feedback: 'OPEN' }, version: expect.any(String) })
  })

  test('a ticket of an earlier business day has expired, open or not, and says only that', async () => {
    const ctx = await kioskContext()
    const ticket = await issuedAtKiosk(ctx)
    const code = codeOf(ticket.ticket.trackingUrl)
    // 09:30 UTC is 10:30 in Berlin; 22:59 UTC is still the same day there, 23:00 UTC the next.
    ctx.clock.set('2026-11-25T22:59:00.000Z')
    expect((await status(ctx, code)).body.data.state).toBe('WAITING')
    ctx.clock.set('2026-11-25T23:00:00.000Z')
    expect((await status(ctx, code)).body).toEqual({ data: { state: 'EXPIRED', language: 'en' }, version: expect.any(String) })
  })

  test('reveals nothing about other tickets beyond the count ahead', async () => {
    const ctx = await kioskContext()
    for (let i = 0; i < 3; i++) await issue(ctx, ctx.key('all'), { ...HALL_ACCOUNTS, externalReference: `crm-secret-${i}` })
    const mine = await issuedAtKiosk(ctx)
    await ok(callNext(ctx, 'cnt_1'))
    const text = JSON.stringify((await status(ctx, codeOf(mine.ticket.trackingUrl))).body)
    for (const other of ['A001', 'A002', 'A003', 'crm-secret', 'tkt_', 'Counter 1', mine.ticket.id]) expect(text).not.toContain(other)
    expect(JSON.parse(text).data.peopleAhead).toBe(2)
  })

  test('with `since` the answer waits for the next change of the ticket and comes as soon as it is called', async () => {
    const ctx = await kioskContext()
    await openCounter(ctx, 'cnt_2') // before the polls: the open is a change of its own
    const mine = await issuedAtKiosk(ctx)
    const code = codeOf(mine.ticket.trackingUrl)
    const first = await status(ctx, code)
    let answered = false
    const waiting = status(ctx, code, first.body.version).then((r) => {
      answered = true
      return r
    })
    await Bun.sleep(30)
    expect(answered).toBe(false)
    // Another line's change that leaves this ticket's status as it was does not answer.
    await issue(ctx, ctx.key('all'), { locationId: 'loc_hall', serviceId: 'svc_loans' })
    await Bun.sleep(30)
    expect(answered).toBe(false)
    await ok(callNextOnly(ctx, 'cnt_2'))
    const next = await waiting
    expect(next.body.data).toMatchObject({ state: 'CALLED', counterName: 'Counter 2' })
    expect(next.body.version).not.toBe(first.body.version)
  })

  test('the page /t/{code} and its QR code; scripts and styles under 60 KB together', async () => {
    const ctx = await kioskContext()
    const mine = await issuedAtKiosk(ctx)
    const page = await request(ctx.app, 'GET', mine.ticket.trackingUrl)
    expect(page.status).toBe(200)
    expect(page.headers.get('referrer-policy')).toBe('no-referrer')
    const html = await page.text()
    const assets = [...html.matchAll(/(?:src|href)="(\/phone\/assets\/[^"]+)"/g)].map((m) => m[1]!)
    expect(assets.length).toBe(2)
    let bytes = Buffer.byteLength(html.match(/<script(?![^>]*src)[^>]*>[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g)?.join('') ?? '')
    for (const asset of assets) bytes += (await (await request(ctx.app, 'GET', asset)).arrayBuffer()).byteLength
    expect(bytes).toBeLessThan(60 * 1024)
    const qr = await request(ctx.app, 'GET', `${mine.ticket.trackingUrl}/qr.svg`)
    expect(qr.headers.get('content-type')).toBe('image/svg+xml')
    expect(await qr.text()).toStartWith('<svg')
    expect((await request(ctx.app, 'GET', `/t/${newTrackingCode()}/qr.svg`)).status).toBe(404)
  })
})

describe('waiting phone polls (contract §23)', () => {
  /** Lets the app take in requests already sent (their handlers run up to their wait). */
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
  }
  /** Counts the ticket reads behind a phone status: the unit's lines, a ticket by code, a place in line. */
  function countReads(ctx: { deps: { tickets: object } }) {
    const tickets = ctx.deps.tickets as Record<string, (...args: unknown[]) => unknown>
    const counts: Record<string, number> = {}
    for (const name of ['lines', 'byTrackingCode', 'placeInLine', 'placesInLine']) {
      const original = tickets[name]
      if (typeof original !== 'function') continue
      counts[name] = 0
      tickets[name] = (...args: unknown[]) => {
        counts[name]! += 1
        return original.apply(tickets, args)
      }
    }
    return () => ({ ...counts })
  }
  const delta = (after: Record<string, number>, before: Record<string, number>) =>
    Object.fromEntries(Object.keys(after).map((k) => [k, after[k]! - (before[k] ?? 0)]))

  test('a change costs one unit computation and one per distinct tracking code, however many polls wait', async () => {
    const ctx = await kioskContext()
    await openCounter(ctx, 'cnt_1') // before the polls: the open is a change of its own
    const tickets = [await issuedAtKiosk(ctx), await issuedAtKiosk(ctx), await issuedAtKiosk(ctx)]
    const codes = tickets.map((t) => codeOf(t.ticket.trackingUrl))
    const versions = await Promise.all(codes.map(async (c) => (await status(ctx, c)).body.version as string))
    const reads = countReads(ctx)
    // The same change with no poll waiting: what the change costs by itself.
    const quiet0 = reads()
    await issue(ctx, ctx.key('all'), { locationId: 'loc_hall', serviceId: 'svc_loans' })
    await settle()
    const quiet = delta(reads(), quiet0)
    // Four polls on the first code, two on the second, one on the third: 7 polls, 3 codes.
    let answered = 0
    const polls = [0, 0, 0, 0, 1, 1, 2].map((i) => status(ctx, codes[i]!, versions[i]).then((r) => (answered++, { i, ...r })))
    await settle()
    expect(answered).toBe(0)
    const busy0 = reads()
    await issue(ctx, ctx.key('all'), { locationId: 'loc_hall', serviceId: 'svc_loans' })
    await settle()
    const busy = delta(reads(), busy0)
    expect(answered).toBe(0) // another line's ticket: no status changed
    const cost = delta(busy, quiet)
    expect(cost.lines).toBeLessThanOrEqual(1)
    expect(cost.byTrackingCode).toBeLessThanOrEqual(3)
    expect((cost.placeInLine ?? 0) + (cost.placesInLine ?? 0)).toBeLessThanOrEqual(3)
    // A call changes every status: all seven are answered, each with its own ticket's news.
    await ok(callNextOnly(ctx, 'cnt_1'))
    const answers = await Promise.all(polls)
    expect(answers.map((a) => [a.i, a.body.data.state, a.body.data.peopleAhead ?? null])).toEqual([
      [0, 'CALLED', 0], [0, 'CALLED', 0], [0, 'CALLED', 0], [0, 'CALLED', 0], [1, 'WAITING', 0], [1, 'WAITING', 0], [2, 'WAITING', 1],
    ])
  })

  test('at most 4 polls wait per tracking code: a fifth is answered at once with the current state', async () => {
    const ctx = await kioskContext()
    await openCounter(ctx, 'cnt_1') // before the polls: the open is a change of its own
    const mine = await issuedAtKiosk(ctx)
    const code = codeOf(mine.ticket.trackingUrl)
    const first = await status(ctx, code)
    const answered: number[] = []
    const polls = Array.from({ length: 5 }, (_, i) => status(ctx, code, first.body.version).then((r) => (answered.push(i), r)))
    await settle()
    const fifth = await polls[4]!
    expect(answered).toEqual([4])
    expect(fifth.status).toBe(200)
    expect(fifth.body).toEqual(first.body)
    await ok(callNextOnly(ctx, 'cnt_1'))
    const rest = await Promise.all(polls.slice(0, 4))
    expect(rest.map((r) => r.body.data.state)).toEqual(['CALLED', 'CALLED', 'CALLED', 'CALLED'])
  })
})
