import { describe, expect, test } from 'bun:test'
import {
  ALWAYS_OPEN, closedDatesErrors, openStateAt, weeklyHoursErrors, type LocationHours, type WeeklyHours,
} from '../../src/structure/opening-hours'

const at = (iso: string) => Date.parse(iso)
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())
const WEEKDAYS_9_TO_5: WeeklyHours = { mon: [['09:00', '17:00']], tue: [['09:00', '17:00']], wed: [['09:00', '17:00']], thu: [['09:00', '17:00']], fri: [['09:00', '17:00']] }
const everyDay = (from: string, to: string): WeeklyHours => Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [[from, to]]]))
/** Where and what, in English (the rule each detail names: test/admin/error-words.test.ts). */
const plain = (details: { path: string; message: string }[]) => details.map(({ path, message }) => ({ path, message }))
const hours = (weekly: WeeklyHours | null, extra: Partial<LocationHours> = {}): LocationHours => ({ weekly, closedDates: [], lastTicketMinutesBeforeClose: 0, ...extra })

describe('opening hours (contract §18)', () => {
  test('absent hours: always open, never closing', () => {
    expect(openStateAt(ALWAYS_OPEN, null, at('2026-11-29T03:00:00Z'), 'Europe/London')).toEqual({ open: true, opensAt: null, closesAt: null })
  })

  test('a split day in London (GMT in November): before, inside, between and after the intervals', () => {
    const location = hours({ mon: [['08:30', '12:00'], ['13:00', '16:30']], tue: [['08:30', '12:00']] })
    const state = (when: string) => {
      const s = openStateAt(location, null, at(when), 'Europe/London')
      return { open: s.open, opensAt: iso(s.opensAt), closesAt: iso(s.closesAt) }
    }
    expect(state('2026-11-30T07:00:00Z')).toEqual({ open: false, opensAt: '2026-11-30T08:30:00.000Z', closesAt: null })
    expect(state('2026-11-30T10:00:00Z')).toEqual({ open: true, opensAt: null, closesAt: '2026-11-30T12:00:00.000Z' })
    expect(state('2026-11-30T12:00:00Z')).toEqual({ open: false, opensAt: '2026-11-30T13:00:00.000Z', closesAt: null })
    expect(state('2026-11-30T17:00:00Z')).toEqual({ open: false, opensAt: '2026-12-01T08:30:00.000Z', closesAt: null })
    // Tuesday afternoon: nothing until next Monday.
    expect(state('2026-12-01T13:00:00Z')).toEqual({ open: false, opensAt: '2026-12-07T08:30:00.000Z', closesAt: null })
  })

  test('the last ticket some minutes before closing: closed for tickets then, open again at the next interval', () => {
    const location = hours(WEEKDAYS_9_TO_5, { lastTicketMinutesBeforeClose: 15 })
    const late = openStateAt(location, null, at('2026-11-30T16:50:00Z'), 'Europe/London')
    expect(late.open).toBe(false)
    expect(iso(late.opensAt)).toBe('2026-12-01T09:00:00.000Z')
    expect(iso(openStateAt(location, null, at('2026-11-30T16:40:00Z'), 'Europe/London').closesAt)).toBe('2026-11-30T16:45:00.000Z')
  })

  test('an interval past midnight is open after midnight, and ends at its end on the next day', () => {
    const location = hours({ fri: [['22:00', '02:00']] })
    const night = openStateAt(location, null, at('2026-11-28T01:00:00Z'), 'Europe/London') // Saturday 01:00
    expect(night.open).toBe(true)
    expect(iso(night.closesAt)).toBe('2026-11-28T02:00:00.000Z')
    expect(iso(openStateAt(hours({ mon: [['20:00', '24:00']] }), null, at('2026-11-30T21:00:00Z'), 'Europe/London').closesAt)).toBe('2026-12-01T00:00:00.000Z')
  })

  test('a closed date skips its intervals: the next opening is the next working day', () => {
    const location = hours(WEEKDAYS_9_TO_5, { closedDates: ['2026-12-25'] })
    const christmasEve = openStateAt(location, null, at('2026-12-24T18:00:00Z'), 'Europe/London')
    expect(iso(christmasEve.opensAt)).toBe('2026-12-28T09:00:00.000Z')
    expect(openStateAt(location, null, at('2026-12-25T10:00:00Z'), 'Europe/London').open).toBe(false)
  })

  test('a service narrows its location: open only where both are', () => {
    const location = hours({ mon: [['08:30', '16:30']] })
    const mornings: WeeklyHours = { mon: [['10:00', '12:00']] }
    const early = openStateAt(location, mornings, at('2026-11-30T09:00:00Z'), 'Europe/London')
    expect([early.open, iso(early.opensAt)]).toEqual([false, '2026-11-30T10:00:00.000Z'])
    const inside = openStateAt(location, mornings, at('2026-11-30T11:00:00Z'), 'Europe/London')
    expect([inside.open, iso(inside.closesAt)]).toEqual([true, '2026-11-30T12:00:00.000Z'])
    // A service's own hours on an always-open location.
    expect(openStateAt(ALWAYS_OPEN, mornings, at('2026-11-30T13:00:00Z'), 'Europe/London').opensAt).toBe(at('2026-12-07T10:00:00Z'))
  })

  test('hours that never open: closed, no next opening', () => {
    expect(openStateAt(hours({}), null, at('2026-11-30T10:00:00Z'), 'Europe/London')).toEqual({ open: false, opensAt: null, closesAt: null })
  })

  describe('daylight-saving changes follow the wall clock', () => {
    test('Europe/London, spring forward (Sunday 29 March 2026, 01:00 GMT → 02:00 BST)', () => {
      const location = hours(everyDay('08:30', '17:00'))
      // Saturday 17:30 GMT: Sunday opens at 08:30 BST = 07:30Z.
      expect(iso(openStateAt(location, null, at('2026-03-28T17:30:00Z'), 'Europe/London').opensAt)).toBe('2026-03-29T07:30:00.000Z')
      // A night interval across the change is an hour shorter: 00:30 GMT to 03:00 BST is 00:30Z–02:00Z.
      const night = openStateAt(hours({ sun: [['00:30', '03:00']] }), null, at('2026-03-29T01:30:00Z'), 'Europe/London')
      expect([night.open, iso(night.closesAt)]).toEqual([true, '2026-03-29T02:00:00.000Z'])
      // 01:30 does not exist that night: it reads as 02:30 BST.
      expect(iso(openStateAt(hours({ sun: [['01:30', '04:00']] }), null, at('2026-03-29T00:00:00Z'), 'Europe/London').opensAt)).toBe('2026-03-29T01:30:00.000Z')
    })

    test('Europe/London, fall back (Sunday 25 October 2026, 02:00 BST → 01:00 GMT)', () => {
      const location = hours(everyDay('08:30', '17:00'))
      expect(iso(openStateAt(location, null, at('2026-10-24T06:00:00Z'), 'Europe/London').opensAt)).toBe('2026-10-24T07:30:00.000Z')
      expect(iso(openStateAt(location, null, at('2026-10-24T17:00:00Z'), 'Europe/London').opensAt)).toBe('2026-10-25T08:30:00.000Z')
      // A night interval across the change is an hour longer: 00:00 BST to 03:00 GMT is 23:00Z–03:00Z.
      const night = openStateAt(hours({ sun: [['00:00', '03:00']] }), null, at('2026-10-25T02:30:00Z'), 'Europe/London')
      expect([night.open, iso(night.closesAt)]).toEqual([true, '2026-10-25T03:00:00.000Z'])
    })

    test('America/New_York, spring forward (Sunday 8 March 2026) and fall back (Sunday 1 November 2026)', () => {
      const location = hours(everyDay('09:00', '17:00'))
      expect(iso(openStateAt(location, null, at('2026-03-07T23:00:00Z'), 'America/New_York').opensAt)).toBe('2026-03-08T13:00:00.000Z')
      expect(iso(openStateAt(location, null, at('2026-03-07T12:00:00Z'), 'America/New_York').opensAt)).toBe('2026-03-07T14:00:00.000Z')
      expect(iso(openStateAt(location, null, at('2026-10-31T23:00:00Z'), 'America/New_York').opensAt)).toBe('2026-11-01T14:00:00.000Z')
      expect(iso(openStateAt(location, null, at('2026-11-01T20:00:00Z'), 'America/New_York').closesAt)).toBe('2026-11-01T22:00:00.000Z')
    })
  })
})

describe('opening hours validation: each problem with the JSON Pointer of its field', () => {
  test('good hours have no problems', () => {
    expect(weeklyHoursErrors({ mon: [['08:30', '12:00'], ['13:00', '16:30']], fri: [['22:00', '02:00']], sun: [] }, '/locations/0/openingHours')).toEqual([])
    expect(weeklyHoursErrors({ mon: [['00:00', '24:00']] }, '/h')).toEqual([])
  })

  test('unknown weekdays, bad times, empty intervals and wrong shapes', () => {
    const errors = weeklyHoursErrors({ monday: [], tue: [['8:30', '12:00']], wed: [['12:00', '25:00']], thu: [['10:00', '10:00']], fri: 'closed', sat: [['09:00']] }, '/h')
    expect(errors.map((e) => e.path).sort()).toEqual(['/h/fri', '/h/monday', '/h/sat/0', '/h/thu/0', '/h/tue/0/0', '/h/wed/0/1'])
    expect(plain(weeklyHoursErrors([], '/h'))).toEqual([{ path: '/h', message: expect.stringContaining('object of weekdays') }])
  })

  test('overlaps: within a day, past midnight into the next day, and Sunday night into Monday', () => {
    expect(plain(weeklyHoursErrors({ mon: [['08:00', '12:00'], ['11:00', '13:00']] }, '/h'))).toEqual([{ path: '/h/mon/1', message: 'overlaps /h/mon/0' }])
    expect(plain(weeklyHoursErrors({ mon: [['22:00', '03:00']], tue: [['02:00', '08:00']] }, '/h'))).toEqual([{ path: '/h/tue/0', message: 'overlaps /h/mon/0' }])
    expect(plain(weeklyHoursErrors({ sun: [['23:00', '01:00']], mon: [['00:30', '08:00']] }, '/h'))).toEqual([{ path: '/h/mon/0', message: 'overlaps /h/sun/0' }])
    // Touching is no overlap.
    expect(weeklyHoursErrors({ mon: [['08:00', '12:00'], ['12:00', '13:00']] }, '/h')).toEqual([])
  })

  test('closed dates', () => {
    expect(closedDatesErrors(['2026-12-25', '2026-02-30', '2026-12-25', 'tomorrow'], '/c').map((e) => e.path)).toEqual(['/c/1', '/c/2', '/c/3'])
    expect(closedDatesErrors('2026-12-25', '/c')).toHaveLength(1)
  })
})

describe('open time without a gap stays open', () => {
  test('an evening to midnight and the next day from midnight are one stretch', () => {
    const location = hours({ mon: [['20:00', '24:00']], tue: [['00:00', '02:00']] }, { lastTicketMinutesBeforeClose: 30 })
    const state = openStateAt(location, null, at('2026-11-30T23:45:00Z'), 'Europe/London')
    // Not closed for tickets at 23:30: the last ticket is 30 minutes before 02:00, the real close.
    expect([state.open, iso(state.closesAt)]).toEqual([true, '2026-12-01T01:30:00.000Z'])
  })

  test('closed dates without weekly hours: open every day but those', () => {
    const location = hours(null, { closedDates: ['2026-12-25'] })
    const eve = openStateAt(location, null, at('2026-12-24T18:00:00Z'), 'Europe/London')
    expect([eve.open, iso(eve.closesAt)]).toEqual([true, '2026-12-25T00:00:00.000Z'])
    expect(iso(openStateAt(location, null, at('2026-12-25T10:00:00Z'), 'Europe/London').opensAt)).toBe('2026-12-26T00:00:00.000Z')
  })
})

describe('a wall-clock time the change skips reads as the same time after it, whichever way the zone lies from UTC', () => {
  test('America/New_York skips 02:00–03:00 on 8 March 2026: 02:30 opens at 03:30 EDT', () => {
    expect(iso(openStateAt(hours({ sun: [['02:30', '04:00']] }), null, at('2026-03-08T05:00:00Z'), 'America/New_York').opensAt)).toBe('2026-03-08T07:30:00.000Z')
  })

  test('America/Santiago skips 00:00–01:00 on 6 September 2026: midnight opens at 01:00', () => {
    expect(iso(openStateAt(hours({ sun: [['00:00', '02:00']] }), null, at('2026-09-05T12:00:00Z'), 'America/Santiago').opensAt)).toBe('2026-09-06T04:00:00.000Z')
  })

  test('a time shown twice (the clocks go back) opens at its first showing', () => {
    expect(iso(openStateAt(hours({ sun: [['01:30', '04:00']] }), null, at('2026-11-01T00:00:00Z'), 'America/New_York').opensAt)).toBe('2026-11-01T05:30:00.000Z')
  })
})
