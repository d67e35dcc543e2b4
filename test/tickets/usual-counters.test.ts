import { describe, expect, test } from 'bun:test'
import { AWAY, PRESENT, SLOT_MINUTES, UNKNOWN, usualDayOf, usuallyPresent } from '../../src/tickets/usual-counters'

/*
 * Contract §19 "the counters usually open at that hour of that weekday (from the last 4 weeks)":
 * the roll-up read from what the counters did on the same weekday of four earlier weeks.
 */

const MIN = 60_000
const DAY = 24 * 60 * MIN

/** One history day: c1 serves tickets all morning except 12:00–12:30, while a ticket waits through it; c2 does nothing. */
function day(midnight: number, priorityAt: number[] = []) {
  const at = (h: number, m = 0) => midnight + (h * 60 + m) * MIN
  const tickets = []
  for (let m = 0; m < 120; m += 10) tickets.push({ counterId: 'c1', serviceId: 'a', businessDay: '', priority: 0, createdAt: at(10, m), calledAt: at(10, m), completedAt: at(10, m + 8) })
  // Issued at 11:58, called when c1 came back at 12:31: it waited through 12:00–12:30.
  tickets.push({ counterId: 'c1', serviceId: 'a', businessDay: '', priority: 0, createdAt: at(11, 58), calledAt: at(12, 31), completedAt: at(12, 39) })
  for (const h of priorityAt) tickets.push({ counterId: 'c1', serviceId: 'a', businessDay: '', priority: 1, createdAt: at(h), calledAt: at(h), completedAt: at(h, 1) })
  return { midnight, tickets }
}

describe('the usual counters (src/tickets/usual-counters.ts)', () => {
  test('present where it held tickets, away where a ticket of its service waited a whole slot without it, unknown elsewhere', () => {
    const today = 28 * DAY
    const days = [1, 2, 3, 4].map((k) => day(today - 7 * k * DAY))
    const usual = usualDayOf(today, days, new Map([['c1', ['a']], ['c2', ['b']]]))
    const c1 = usual.slots.get('c1')!
    const slot = (h: number, m = 0) => (h * 60 + m) / SLOT_MINUTES
    expect(c1[slot(10, 30)]).toBe(PRESENT)
    expect([c1[slot(12, 0)], c1[slot(12, 10)], c1[slot(12, 20)]]).toEqual([AWAY, AWAY, AWAY])
    expect(c1[slot(12, 30)]).toBe(PRESENT)
    expect(c1[slot(15, 0)]).toBe(UNKNOWN)
    // c2 serves another service nobody waited for: nothing is known of it.
    expect(usual.slots.get('c2')!.every((s) => s === UNKNOWN)).toBe(true)
    expect(usuallyPresent(usual, ['c1', 'c2'], today + 10.5 * 60 * MIN)).toEqual(['c1'])
    expect(usuallyPresent(usual, ['c1', 'c2'], today + 12.2 * 60 * MIN)).toEqual([])
  })

  test('a break shorter than the slots around it: away where a ticket waited 5 minutes or more in a slot the counter held nothing in', () => {
    const today = 28 * DAY
    const days = [1, 2, 3, 4].map((k) => {
      const midnight = today - 7 * k * DAY
      const at = (h: number, m = 0) => midnight + (h * 60 + m) * MIN
      // c1 serves till 12:04, is away, and takes the ticket issued 12:12 (no slot waited through whole) at 12:24.
      return { midnight, tickets: [
        { counterId: 'c1', serviceId: 'a', businessDay: '', priority: 0, createdAt: at(11, 58), calledAt: at(11, 58), completedAt: at(12, 4) },
        { counterId: 'c1', serviceId: 'a', businessDay: '', priority: 0, createdAt: at(12, 12), calledAt: at(12, 24), completedAt: at(12, 30) },
        // Waited 3 minutes at 14:00 while c1 held nothing: too little to say c1 was away.
        { counterId: 'c1', serviceId: 'a', businessDay: '', priority: 0, createdAt: at(13, 57), calledAt: at(14, 3), completedAt: at(14, 30) },
      ] }
    })
    const c1 = usualDayOf(today, days, new Map([['c1', ['a']]])).slots.get('c1')!
    const slot = (h: number, m = 0) => (h * 60 + m) / SLOT_MINUTES
    expect([c1[slot(12, 0)], c1[slot(12, 10)], c1[slot(12, 20)]]).toEqual([PRESENT, AWAY, PRESENT])
    expect(c1[slot(13, 50)]).toBe(UNKNOWN)
  })

  test('one odd day of four changes nothing; priority tickets are counted per slot as a mean over the days', () => {
    const today = 28 * DAY
    const days = [1, 2, 3, 4].map((k) => day(today - 7 * k * DAY, k === 1 ? [9, 9] : [9]))
    // On one day c1 was also away at 10:30 (nothing held, someone waited): still usually present.
    days[0]!.tickets.splice(3, 1, { counterId: 'c1', serviceId: 'a', businessDay: '', priority: 0, createdAt: days[0]!.midnight + 10 * 60 * MIN + 25 * MIN, calledAt: days[0]!.midnight + 10 * 60 * MIN + 45 * MIN, completedAt: days[0]!.midnight + 10 * 60 * MIN + 48 * MIN })
    const usual = usualDayOf(today, days, new Map([['c1', ['a']]]))
    expect(usual.slots.get('c1')![(10 * 60 + 30) / SLOT_MINUTES]).toBe(PRESENT)
    expect(usual.priorityArrivals.get('a')![(9 * 60) / SLOT_MINUTES]).toBeCloseTo(5 / 4, 5)
  })
})
