import { describe, expect, test } from 'bun:test'
import { APPOINTMENTS, appointmentContext, asKey, book, jsonOf } from './helpers'
import { mainUnit } from '../queue/helpers'

/** Sunday 00:00–03:00 at the hall in `zone`, hour-long slots of 1 seat. */
function nightContext(zone: string) {
  return appointmentContext((doc) => {
    const unit = mainUnit(doc)
    unit.locations![0]!.timezone = zone
    unit.locations![0]!.openingHours = { sun: [['00:00', '03:00']] } as never
    unit.services!.find((s) => s.id === 'svc_accounts')!.appointments = { enabled: true, slotMinutes: 60, capacityPerSlot: 1, bookAheadDays: 14, checkIn: { earlyMinutes: 15, lateMinutes: 10 }, retainDays: 30 }
  })
}

async function slotsOn(ctx: ReturnType<typeof nightContext>, date: string) {
  const body = await jsonOf(await asKey(ctx, 'GET', `${APPOINTMENTS}/slots?date=${date}&locationId=loc_hall&serviceId=svc_accounts`))
  return body.data.slots.map((s: any) => [s.startAt, s.localTime])
}

describe('slots across daylight-saving changes (contract §18, §21)', () => {
  test('Europe/London: the spring night has two hours of slots, the autumn night four', async () => {
    const ctx = nightContext('Europe/London')
    ctx.clock.set('2026-03-28T12:00:00.000Z')
    expect(await slotsOn(ctx, '2026-03-29')).toEqual([['2026-03-29T00:00:00.000Z', '00:00'], ['2026-03-29T01:00:00.000Z', '02:00']])
    ctx.clock.set('2026-10-24T12:00:00.000Z')
    expect(await slotsOn(ctx, '2026-10-25')).toEqual([
      ['2026-10-24T23:00:00.000Z', '00:00'], ['2026-10-25T00:00:00.000Z', '01:00'], ['2026-10-25T01:00:00.000Z', '01:00'], ['2026-10-25T02:00:00.000Z', '02:00'],
    ])
    // Both 01:00s are bookable, one seat each.
    expect((await book(ctx, { startAt: '2026-10-25T00:00:00.000Z', name: 'First one' })).status).toBe(201)
    expect((await book(ctx, { startAt: '2026-10-25T01:00:00.000Z', name: 'Second one' })).status).toBe(201)
    expect((await book(ctx, { startAt: '2026-10-25T01:00:00.000Z', name: 'Third one' })).status).toBe(409)
    // 01:30 BST on the spring night does not exist: no slot there.
    ctx.clock.set('2026-03-28T12:00:00.000Z')
    const skipped = await book(ctx, { startAt: '2026-03-29T00:30:00.000Z' })
    expect((await jsonOf(skipped)).error.details).toEqual([{ path: '/startAt', message: 'OUTSIDE_HOURS' }])
  })

  test('America/New_York: the same nights in November and March', async () => {
    const ctx = nightContext('America/New_York')
    ctx.clock.set('2026-10-31T12:00:00.000Z')
    expect(await slotsOn(ctx, '2026-11-01')).toEqual([
      ['2026-11-01T04:00:00.000Z', '00:00'], ['2026-11-01T05:00:00.000Z', '01:00'], ['2026-11-01T06:00:00.000Z', '01:00'], ['2026-11-01T07:00:00.000Z', '02:00'],
    ])
    ctx.clock.set('2026-03-07T12:00:00.000Z')
    expect(await slotsOn(ctx, '2026-03-08')).toEqual([['2026-03-08T05:00:00.000Z', '00:00'], ['2026-03-08T06:00:00.000Z', '01:00']])
  })

  test('"today" and the window follow the location\'s midnight, not UTC\'s', async () => {
    const ctx = nightContext('Europe/London')
    // 00:30 BST on Sunday 25 October is 23:30Z on the 24th: today is the 25th there.
    ctx.clock.set('2026-10-24T23:30:00.000Z')
    expect((await slotsOn(ctx, '2026-10-25')).map((s: string[]) => s[0])).toEqual(['2026-10-25T00:00:00.000Z', '2026-10-25T01:00:00.000Z', '2026-10-25T02:00:00.000Z'])
    // The 14 days are the 25th to 7 November: Sunday 8 November is beyond them.
    expect(await slotsOn(ctx, '2026-11-01')).toHaveLength(3)
    expect(await slotsOn(ctx, '2026-11-08')).toEqual([])
    const beyond = await book(ctx, { startAt: '2026-11-08T00:00:00.000Z' })
    expect((await jsonOf(beyond)).error.details).toEqual([{ path: '/startAt', message: 'BEYOND_BOOKING_WINDOW' }])
  })
})
