import { describe, expect, test } from 'bun:test'
import { simulateBranchDay, partOneEstimate, PartOneAverage } from '../../bench/sim/branch-day'
import { TINY_SCENARIO } from '../../bench/sim/scenarios'
import { figuresOf } from '../../bench/simulate'
import { accuracyOf, percentile } from '../../bench/sim/metrics'

/** Two simulated days each (about 1.5 s on an idle core): the 5 s default timed out on this shared 2-core machine at load 16. */
const SIMULATED_DAYS_TIMEOUT_MS = 30_000

describe('the wait-estimate simulator (contract §19, bench/simulate.ts)', () => {
  test('the same seed gives the same day and the same figures; every called ticket waited ≥ 0 s', () => {
    const first = simulateBranchDay(TINY_SCENARIO)
    const second = simulateBranchDay(TINY_SCENARIO)
    expect(second).toEqual(first)
    expect(figuresOf(second.called)).toEqual(figuresOf(first.called))
    expect(first.called.length).toBeGreaterThan(10)
    for (const ticket of first.called) expect(ticket.realWaitSeconds).toBeGreaterThanOrEqual(0)
    expect(first.called.length + first.leftAtClose).toBe(first.issued)
    // The tiny day has a break, a no-show share, priority tickets and transfers: some of them happen.
    expect(first.transfers).toBeGreaterThan(0)
    expect(first.called.some((t) => t.priority)).toBe(true)
    // The measured day's trace (bench/sim/diagnose.ts) covers every call of the day.
    expect(first.trace.calls.length).toBeGreaterThanOrEqual(first.called.length)
    expect(first.trace.issues.size).toBe(first.issued)
  }, SIMULATED_DAYS_TIMEOUT_MS)

  test('another seed gives another day', () => {
    const other = simulateBranchDay({ ...TINY_SCENARIO, seed: TINY_SCENARIO.seed + 1 })
    expect(other.called.map((t) => t.realWaitSeconds)).not.toEqual(simulateBranchDay(TINY_SCENARIO).called.map((t) => t.realWaitSeconds))
  }, SIMULATED_DAYS_TIMEOUT_MS)

  test("Part one's formula and the figures", () => {
    expect(partOneEstimate(0, 0, 300)).toBe(300)
    expect(partOneEstimate(3, 2, 300)).toBe(600)
    const average = new PartOneAverage(300)
    expect(average.seconds()).toBe(300)
    average.completed(100)
    average.completed(201)
    expect(average.seconds()).toBe(151) // the first completions' plain mean, rounded
    for (let i = 0; i < 18; i++) average.completed(150.5)
    average.completed(1150.5)
    expect(average.seconds()).toBe(201) // the 21st moves it by 1/20 of its difference
    expect(percentile([5, 1, 4, 2, 3], 90)).toBe(5)
    const figures = accuracyOf([
      { estimateSeconds: 600, realWaitSeconds: 400 },
      { estimateSeconds: 0, realWaitSeconds: 30 },
    ])
    expect(figures.meanAbsoluteErrorSeconds).toBe(115)
    expect(figures.biasSeconds).toBe(85)
    expect(figures.medianApeOver5MinPercent).toBe(50)
    expect(figures.ticketsOver5Min).toBe(1)
  })
})
