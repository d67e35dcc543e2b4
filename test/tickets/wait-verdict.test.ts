import { describe, expect, test } from 'bun:test'
import { minutesAsSaid, waitVerdict, type WaitFacts, type WaitVerdict } from '../../src/screens/shared/wait-verdict'
import { LocationEstimates } from '../../src/tickets/lines'
import type { LocationNow, ReplayCounter, ReplayTicket } from '../../src/tickets/estimate'

/*
 * Contract §28: "You're next" only when nobody is ahead and a counter of the service is open and
 * free; never beside minutes, a number ahead or "No counter is open right now"; with nobody
 * ahead and no counter free, "about N min". Every combination, through the real estimator.
 */

const OPENS_AT = '2026-11-26T07:30:00.000Z'
const AVERAGE = 300

type Ahead = 0 | 1
type Counter = 'free' | 'busy' | 'none'

/** One location: service `a`, 300 s a ticket, `ahead` tickets waiting (priority ones when the new ticket is priority, so they stay ahead of it), one counter as `counter` says. */
function location(ahead: Ahead, counter: Counter, priority: boolean): LocationEstimates {
  const waiting: ReplayTicket[] = ahead === 0 ? [] : [{ id: 'w1', serviceId: 'a', priority, front: false, queueRank: 1, createdAt: 1 }]
  const counters: ReplayCounter[] = counter === 'none' ? [] : [{ id: 'c1', serviceIds: ['a'], restSeconds: counter === 'free' ? 0 : 200, normalCalls: 0 }]
  const now: LocationNow = { waiting, counters, averageSeconds: new Map([['a', AVERAGE]]), policy: { mode: 'FIRST' } }
  return new LocationEstimates(now)
}

/** What the page must say, by the rule. */
function expected(ahead: Ahead, counter: Counter, open: boolean): WaitVerdict {
  if (!open) return { kind: 'closed', opensAt: OPENS_AT }
  if (counter === 'none') return { kind: 'noCounter', ahead, minutes: ahead === 0 ? 5 : 10 } // one counter assumed, busy for one average
  if (counter === 'free') return ahead === 0 ? { kind: 'next' } : { kind: 'wait', ahead, minutes: 5 }
  return { kind: 'wait', ahead, minutes: ahead === 0 ? 4 : 9 } // 200 s rest, then 300 s a ticket ahead
}

const rows: [Ahead, Counter, boolean, boolean][] = []
for (const ahead of [0, 1] as const) for (const counter of ['free', 'busy', 'none'] as const) for (const open of [true, false]) for (const priority of [false, true]) rows.push([ahead, counter, open, priority])

describe('the wait verdict (contract §28), every combination through the estimator', () => {
  test.each(rows)('ahead %p, counter %p, service open %p, priority %p', (ahead, counter, open, priority) => {
    const facts = location(ahead, counter, priority).placeForNew('a', priority)
    expect(facts.ahead).toBe(ahead)
    expect(facts.counterFree).toBe(counter === 'free')
    expect(facts.noCounterOpen).toBe(counter === 'none')
    const verdict = waitVerdict({ ...facts, peopleAhead: facts.ahead, open, opensAt: open ? null : OPENS_AT })
    expect(verdict).toEqual(expected(ahead, counter, open))
  })

  test('a waiting ticket reads the same facts as the new ticket it was: its place in line is its call order', () => {
    for (const counter of ['free', 'busy', 'none'] as const) {
      const estimates = location(1, counter, false)
      const place = estimates.placeOf('w1')!
      expect(place.ahead).toBe(0)
      const verdict = waitVerdict({ ...place, peopleAhead: place.ahead })
      expect(verdict.kind).toBe(counter === 'free' ? 'next' : counter === 'busy' ? 'wait' : 'noCounter')
    }
  })

  test('a shared counter free now but giving another line\'s older ticket the first turn is not "You\'re next" (issue 48, R001)', () => {
    const now: LocationNow = {
      waiting: [
        { id: 'c1', serviceId: 'c', priority: false, front: false, queueRank: 1, createdAt: 1 },
        { id: 'r1', serviceId: 'r', priority: false, front: false, queueRank: 2, createdAt: 2 },
      ],
      counters: [{ id: 'shared', serviceIds: ['c', 'r'], restSeconds: 0, normalCalls: 0 }],
      averageSeconds: new Map([['c', 600], ['r', 600]]),
      policy: { mode: 'FIRST' },
    }
    const place = new LocationEstimates(now).placeOf('r1')!
    expect(place).toEqual({ ahead: 0, estimatedWaitSeconds: 600, noCounterOpen: false, counterFree: true })
    expect(waitVerdict({ ...place, peopleAhead: place.ahead })).toEqual({ kind: 'wait', ahead: 0, minutes: 10 })
  })
})

describe('the wait verdict alone', () => {
  test('"You\'re next" never comes with minutes, a number ahead or no counter open', () => {
    for (const peopleAhead of [0, 1, 3]) for (const estimatedWaitSeconds of [0, 1, 59, 300, 4000]) for (const noCounterOpen of [false, true]) for (const counterFree of [false, true]) for (const open of [undefined, true, false]) {
      const facts: WaitFacts = { peopleAhead, estimatedWaitSeconds, noCounterOpen, counterFree, ...(open === undefined ? {} : { open, opensAt: null }) }
      const verdict = waitVerdict(facts)
      const next = open !== false && peopleAhead === 0 && counterFree && !noCounterOpen && estimatedWaitSeconds === 0
      expect({ facts, kind: verdict.kind }).toEqual({ facts, kind: open === false ? 'closed' : next ? 'next' : noCounterOpen ? 'noCounter' : 'wait' })
      if (verdict.kind === 'wait' || verdict.kind === 'noCounter') expect(verdict.minutes).toBeGreaterThanOrEqual(1)
    }
  })

  test('the issue\'s own cases', () => {
    // C001: nobody ahead, no counter open: "about 5 min", "No counter is open right now", not "You're next".
    expect(waitVerdict({ peopleAhead: 0, estimatedWaitSeconds: 300, noCounterOpen: true, counterFree: false })).toEqual({ kind: 'noCounter', ahead: 0, minutes: 5 })
    // The join list's "1 waiting · You're next": one ahead, a second counter free (0 s) is about 1 min.
    expect(waitVerdict({ peopleAhead: 1, estimatedWaitSeconds: 0, noCounterOpen: false, counterFree: true, open: true })).toEqual({ kind: 'wait', ahead: 1, minutes: 1 })
    // The floor's "15 min (no counter open)" for a service closed until Thursday: when it opens.
    expect(waitVerdict({ peopleAhead: 0, estimatedWaitSeconds: 900, noCounterOpen: true, counterFree: false, open: false, opensAt: OPENS_AT })).toEqual({ kind: 'closed', opensAt: OPENS_AT })
  })

  test('minutes as people say them: at least 1, up to 10, then to the nearest 5', () => {
    expect([0, 1, 60, 61, 600, 601, 780, 900].map(minutesAsSaid)).toEqual([1, 1, 1, 2, 10, 10, 15, 15])
  })
})
