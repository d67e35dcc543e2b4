import { describe, expect, test } from 'bun:test'
import { addDays, daysInMonth, isFriday, localDateTime, umalquraDate, zonedInstant } from '../../src/prayer/calendar'

describe('calendar arithmetic', () => {
  test('days in a month, leap years included', () => {
    expect(['2026-01', '2026-02', '2028-02', '2100-02', '2000-02', '2026-04', '2026-12'].map(daysInMonth)).toEqual([31, 28, 29, 28, 29, 30, 31])
  })

  test('Fridays come from the date itself', () => {
    expect(isFriday('2026-11-27')).toBe(true)
    expect(isFriday('2026-11-26')).toBe(false)
    expect(isFriday('2028-02-25')).toBe(true)
  })

  test('adding days crosses months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29')
  })

  test('Umm al-Qura dates', () => {
    expect(umalquraDate('2025-03-01')).toEqual({ year: 1446, month: 9, day: 1 })
    expect(umalquraDate('2025-06-26')).toEqual({ year: 1447, month: 1, day: 1 })
  })

  test('local date and time in a zone', () => {
    const ms = Date.parse('2026-11-30T20:30:00Z')
    expect(localDateTime(ms, 'Asia/Karachi')).toEqual({ date: '2026-12-01', time: '01:30' })
    expect(localDateTime(ms, 'Europe/London')).toEqual({ date: '2026-11-30', time: '20:30' })
    expect(localDateTime(Date.parse('2026-07-01T23:30:00Z'), 'Europe/London')).toEqual({ date: '2026-07-02', time: '00:30' })
  })

  test('a local wall-clock time as an instant, across daylight saving', () => {
    expect(new Date(zonedInstant('2026-01-15', '12:00', 'Europe/London')).toISOString()).toBe('2026-01-15T12:00:00.000Z')
    expect(new Date(zonedInstant('2026-07-15', '12:00', 'Europe/London')).toISOString()).toBe('2026-07-15T11:00:00.000Z')
    expect(new Date(zonedInstant('2026-07-15', '05:00', 'Asia/Karachi')).toISOString()).toBe('2026-07-15T00:00:00.000Z')
    expect(new Date(zonedInstant('2026-11-01', '06:00', 'America/New_York')).toISOString()).toBe('2026-11-01T11:00:00.000Z')
    // 01:30 does not exist in London on 29 March 2026: the clock reads 02:30 BST an hour later.
    expect(new Date(zonedInstant('2026-03-29', '01:30', 'Europe/London')).toISOString()).toBe('2026-03-29T01:30:00.000Z')
  })
})
