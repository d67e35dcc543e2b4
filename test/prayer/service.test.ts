import { describe, expect, test } from 'bun:test'
import { findSource, prayerToday, pushMonth, readMonth, type PrayerSource } from '../../src/prayer/service'
import type { PrayerMonthEvent } from '../../src/prayer/events'
import { canonicalJson, monthChecksum } from '../../src/prayer/checksum'
import type { Month } from '../../src/prayer/model'
import { EAST_SOURCE, OTHER_SOURCE, SOURCE, makeMonth, newKey, prayerContext, type PrayerContext } from './support'

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))

function source(ctx: PrayerContext, id = SOURCE): PrayerSource {
  const found = findSource(ctx.db, id)
  if (found === null) throw new Error(`source ${id} not provisioned`)
  return found
}

function store(ctx: PrayerContext, month: Month, id = SOURCE) {
  return pushMonth(ctx.deps, source(ctx, id), newKey(), bytes(month), ctx.clock.now())
}

describe('findSource', () => {
  test('the configured source with its location; name falls back to the source name', () => {
    const ctx = prayerContext()
    expect(findSource(ctx.db, SOURCE)).toEqual({
      id: SOURCE,
      workspaceId: 'ws_demo',
      name: 'Central Mosque',
      timezone: 'Europe/London',
      location: { name: 'Central Mosque', city: 'London', country: 'GB', latitude: 51.52, longitude: -0.08 },
      pushRateLimitPerMinute: 30,
    })
    expect(findSource(ctx.db, EAST_SOURCE)?.location).toEqual({ name: 'East Mosque', city: null, country: null, latitude: null, longitude: null })
    expect(findSource(ctx.db, 'psrc_nosuchsource-000000000')).toBeNull()
  })
})

describe('readMonth', () => {
  test('null before a push; the current revision after', () => {
    const ctx = prayerContext()
    expect(readMonth(ctx.db, SOURCE, '2026-11')).toBeNull()
    const month = makeMonth('2026-11')
    store(ctx, month)
    ctx.clock.advance(1000)
    const second = makeMonth('2026-11', { shiftMinutes: 1 })
    store(ctx, second)
    const stored = readMonth(ctx.db, SOURCE, '2026-11')
    expect(stored).toEqual({
      sourceId: SOURCE,
      period: '2026-11',
      revision: 2,
      checksum: monthChecksum(canonicalJson(second)),
      storedAt: ctx.clock.now(),
      dayCount: 30,
      month: second,
    })
    expect(readMonth(ctx.db, SOURCE, '2026-12')).toBeNull()
  })
})

describe('onPrayerMonth', () => {
  test('hears each new revision once, after commit, and never a replay', () => {
    const ctx = prayerContext()
    const events: PrayerMonthEvent[] = []
    const stop = ctx.deps.events.prayerMonths.on((event) => {
      // The revision is already visible when the listener runs.
      expect(readMonth(ctx.db, event.sourceId, event.period)?.revision).toBe(event.revision)
      events.push(event)
    })
    const month = makeMonth('2026-11')
    const key = newKey()
    pushMonth(ctx.deps, source(ctx), key, bytes(month), ctx.clock.now())
    pushMonth(ctx.deps, source(ctx), key, bytes(month), ctx.clock.now())
    store(ctx, month)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ sourceId: SOURCE, workspaceId: 'ws_demo', period: '2026-11', revision: 1, dayCount: 30, storedAt: ctx.clock.now() })
    expect(events[0]!.month).toEqual(month)
    stop()
    store(ctx, makeMonth('2026-11', { shiftMinutes: 2 }))
    expect(events).toHaveLength(1)
  })

  test('a failing listener is logged and affects neither the push nor other listeners', () => {
    const ctx = prayerContext()
    let heard = 0
    ctx.deps.events.prayerMonths.on(() => {
      throw new Error('screen offline')
    })
    ctx.deps.events.prayerMonths.on(() => {
      heard += 1
    })
    const outcome = store(ctx, makeMonth('2026-11'))
    expect(outcome.created).toBe(true)
    expect(heard).toBe(1)
    expect(ctx.logs.some((l) => l.level === 'error' && String(l.error).includes('screen offline'))).toBe(true)
  })

  test('listeners of one database do not hear another', () => {
    const a = prayerContext()
    const b = prayerContext()
    let heard = 0
    a.deps.events.prayerMonths.on(() => {
      heard += 1
    })
    store(b, makeMonth('2026-11'))
    expect(heard).toBe(0)
  })
})

describe('prayerToday', () => {
  // makeMonth: day n has fajr 05:30, dhuhr 12:00, asr 14:30, maghrib 16:30, isha 18:00, each
  // plus (n-1) % 10 minutes. 25 November is day 25: +4 minutes. London is on GMT in November.
  test('null when the source is unknown or today is not stored', () => {
    const ctx = prayerContext()
    expect(prayerToday(ctx.db, SOURCE, ctx.clock.now())).toBeNull()
    expect(prayerToday(ctx.db, 'psrc_nosuchsource-000000000', ctx.clock.now())).toBeNull()
  })

  test("today's entry and the next prayer, from the injected clock", () => {
    const ctx = prayerContext()
    const month = makeMonth('2026-11')
    store(ctx, month)
    ctx.clock.set('2026-11-25T09:30:00.000Z')
    const today = prayerToday(ctx.db, SOURCE, ctx.clock.now())!
    expect(today).toMatchObject({ sourceId: SOURCE, timezone: 'Europe/London', date: '2026-11-25', localTime: '09:30', period: '2026-11', revision: 1 })
    expect(today.day).toEqual(month.days[24]!)
    expect(today.location.city).toBe('London')
    expect(today.next).toEqual({ prayer: 'dhuhr', date: '2026-11-25', time: '12:04', at: '2026-11-25T12:04:00.000Z', iqamah: '12:19' })
  })

  test('before fajr, at an adhan, and after isha', () => {
    const ctx = prayerContext()
    store(ctx, makeMonth('2026-11'))
    const nextAt = (iso: string) => prayerToday(ctx.db, SOURCE, Date.parse(iso))?.next
    expect(nextAt('2026-11-25T00:10:00.000Z')?.prayer).toBe('fajr')
    // At the very minute of asr, asr is current and maghrib is next.
    expect(nextAt('2026-11-25T14:34:00.000Z')?.prayer).toBe('maghrib')
    // After isha the next prayer is tomorrow's fajr.
    expect(nextAt('2026-11-25T20:00:00.000Z')).toEqual({ prayer: 'fajr', date: '2026-11-26', time: '05:35', at: '2026-11-26T05:35:00.000Z', iqamah: '05:55' })
  })

  test("after isha on the last day: next month's fajr when stored, else none", () => {
    const ctx = prayerContext()
    store(ctx, makeMonth('2026-11'))
    const lateOn30th = Date.parse('2026-11-30T22:00:00.000Z')
    expect(prayerToday(ctx.db, SOURCE, lateOn30th)?.next).toBeNull()
    store(ctx, makeMonth('2026-12', { iqamah: false }))
    expect(prayerToday(ctx.db, SOURCE, lateOn30th)?.next).toEqual({ prayer: 'fajr', date: '2026-12-01', time: '05:30', at: '2026-12-01T05:30:00.000Z', iqamah: null })
  })

  test("today is the source's local date, and times are in its zone", () => {
    const ctx = prayerContext()
    // 20:30 UTC on 30 November is 01:30 on 1 December in Karachi (UTC+5).
    const now = Date.parse('2026-11-30T20:30:00.000Z')
    expect(prayerToday(ctx.db, OTHER_SOURCE, now)).toBeNull()
    store(ctx, makeMonth('2026-12', { timezone: 'Asia/Karachi' }), OTHER_SOURCE)
    const today = prayerToday(ctx.db, OTHER_SOURCE, now)!
    expect(today).toMatchObject({ date: '2026-12-01', localTime: '01:30', period: '2026-12' })
    expect(today.next).toMatchObject({ prayer: 'fajr', time: '05:30', at: '2026-12-01T00:30:00.000Z' })
  })

  test('summer time: the adhan instant follows the zone offset', () => {
    const ctx = prayerContext()
    store(ctx, makeMonth('2026-07'))
    const today = prayerToday(ctx.db, SOURCE, Date.parse('2026-07-01T08:00:00.000Z'))!
    expect(today.next).toMatchObject({ prayer: 'dhuhr', time: '12:00', at: '2026-07-01T11:00:00.000Z' })
  })
})
