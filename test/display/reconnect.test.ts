import { expect, test } from 'bun:test'
import { reconnectDelayMs } from '../../src/client/reconnect'

test('pages retry at most every 2 s while the server is away, so they are back within 3 s of it (contract §23)', () => {
  for (const random of [0, 0.5, 0.999]) {
    const delays = Array.from({ length: 30 }, (_, attempt) => reconnectDelayMs(attempt, random))
    expect(Math.max(...delays)).toBeLessThanOrEqual(2000)
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(250)
  }
  // Spread out: a random 0.5–1 of the step.
  expect([reconnectDelayMs(2, 0), reconnectDelayMs(2, 0.999)]).toEqual([1000, 1999])
  // Refused for load (1013): 1 s doubling to 15 s, as before.
  expect(Array.from({ length: 6 }, (_, attempt) => reconnectDelayMs(attempt, 0.999, true))).toEqual([1000, 1999, 3998, 7996, 14993, 14993])
})
