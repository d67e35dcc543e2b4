import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { callOrder, callsAhead, chooseNext, normalCallsAfter, type LinePlace, type PriorityPolicy } from '../../src/tickets/priority'

/** A waiting line: unique ranks (as the store hands them out), random lanes. */
const line = fc
  .uniqueArray(fc.integer({ min: -50, max: 500 }), { minLength: 0, maxLength: 40 })
  .chain((ranks) => fc.tuple(fc.constant(ranks), fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 9 })), { minLength: ranks.length, maxLength: ranks.length })))
  .map(([ranks, flags]) => ranks.map((rank, i): LinePlace => ({
    id: `t${String(i).padStart(3, '0')}`,
    priority: flags[i]![0],
    // About one in ten waits at the front (requeued or transferred FIRST).
    front: flags[i]![1] === 0,
    queueRank: rank,
    createdAt: 1000 + i,
  })))

const policy: fc.Arbitrary<PriorityPolicy> = fc.oneof(
  fc.constant<PriorityPolicy>({ mode: 'FIRST' }),
  fc.integer({ min: 1, max: 5 }).map((n): PriorityPolicy => ({ mode: 'INTERLEAVE', normalPerPriority: n })),
)

/** The model: one counter calling next, again and again, with its count. */
function simulate(waiting: LinePlace[], rule: PriorityPolicy, start: number): LinePlace[] {
  const left = [...waiting]
  const order: LinePlace[] = []
  let count = start
  for (;;) {
    const next = chooseNext(left, rule, count)
    if (next === null) return order
    left.splice(left.indexOf(next), 1)
    order.push(next)
    count = normalCallsAfter(count, next)
  }
}

describe('the priority rule (src/tickets/priority.ts)', () => {
  test('callOrder is one counter calling next again and again (model-based)', () => {
    fc.assert(fc.property(line, policy, fc.integer({ min: 0, max: 6 }), (waiting, rule, start) => {
      expect(callOrder(waiting, rule, start).map((t) => t.id)).toEqual(simulate(waiting, rule, start).map((t) => t.id))
    }), { numRuns: 300 })
  })

  test('front tickets first, by rank; under FIRST every priority ticket before every normal one', () => {
    fc.assert(fc.property(line, (waiting) => {
      const order = callOrder(waiting, { mode: 'FIRST' })
      const lane = (t: LinePlace) => (t.front ? 0 : t.priority ? 1 : 2)
      const lanes = order.map(lane)
      expect([...lanes].sort()).toEqual(lanes)
      for (let i = 1; i < order.length; i++) {
        if (lane(order[i]!) === lane(order[i - 1]!)) expect(order[i]!.queueRank).toBeGreaterThan(order[i - 1]!.queueRank)
      }
    }), { numRuns: 200 })
  })

  test('INTERLEAVE: never more than N normal calls in a row while a priority ticket waits; no ticket is called later than without priority', () => {
    fc.assert(fc.property(line, fc.integer({ min: 1, max: 5 }), (waiting, n) => {
      const order = callOrder(waiting, { mode: 'INTERLEAVE', normalPerPriority: n })
      let run = 0
      order.forEach((t, i) => {
        const priorityWaiting = order.slice(i).some((u) => u.priority && !u.front)
        if (t.front) return
        if (t.priority) run = 0
        else {
          run += 1
          if (priorityWaiting) expect(run).toBeLessThanOrEqual(n)
        }
      })
      // A priority ticket is called no later than in plain rank order (front first).
      const plain = [...waiting].sort((a, b) => Number(b.front) - Number(a.front) || a.queueRank - b.queueRank)
      for (const t of waiting.filter((u) => u.priority)) {
        expect(order.indexOf(t)).toBeLessThanOrEqual(plain.indexOf(t))
      }
    }), { numRuns: 200 })
  })

  test('callsAhead is the place in callOrder; a new ticket goes behind its own lane', () => {
    const t = (id: string, rank: number, priority = false, front = false): LinePlace => ({ id, priority, front, queueRank: rank, createdAt: rank })
    const waiting = [t('n1', 1), t('n2', 2), t('p1', 3, true), t('f', 0, false, true)]
    expect(callsAhead(waiting, waiting[2]!, { mode: 'FIRST' })).toBe(1)
    expect(callsAhead(waiting, waiting[1]!, { mode: 'FIRST' })).toBe(3)
    expect(callsAhead(waiting, t('new', Infinity, true), { mode: 'FIRST' })).toBe(2)
    // f (a normal call: count 1 = N), p1 (due), n1 (older than the new one), then the new one.
    expect(callsAhead(waiting, t('new', Infinity, true), { mode: 'INTERLEAVE', normalPerPriority: 1 })).toBe(3)
  })
})
