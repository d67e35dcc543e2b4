import { describe, expect, test } from 'bun:test'
import { heapStats } from 'bun:jsc'
import { RollingWindowLimiter } from '../../src/platform/rate-limit'

const MB = 1024 * 1024

function heapBytes(): number {
  Bun.gc(true)
  return heapStats().heapSize + heapStats().extraMemorySize
}

describe('rate-limit memory (contract §23)', () => {
  test('100,000 distinct addresses at a limit of 120 stay under 50 MB, and a window costs the same whatever its limit', () => {
    const before = heapBytes()
    const limiter = new RollingWindowLimiter()
    const t0 = 1_800_000_000_000
    for (let i = 0; i < 100_000; i++) {
      const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
      limiter.attempt(`phone:read:${address}`, 120, t0 + i, 60_000, 'address')
    }
    const grown = heapBytes() - before
    expect(limiter.size).toBe(100_000)
    expect(grown).toBeLessThan(50 * MB)

    // The same keys at a limit of 6,000 cost no more than at 120.
    const big = new RollingWindowLimiter()
    const beforeBig = heapBytes()
    for (let i = 0; i < 20_000; i++) big.attempt(`k${i}`, 6_000, t0, 60_000, 'address')
    const small = new RollingWindowLimiter()
    const mid = heapBytes()
    for (let i = 0; i < 20_000; i++) small.attempt(`k${i}`, 5, t0, 60_000, 'address')
    const after = heapBytes()
    expect(mid - beforeBig).toBeLessThan((after - mid) * 1.5 + 2 * MB)
    // Both alive until measured (the collector may free what is not used again).
    expect(big.size + small.size).toBe(40_000)
  })

  test('a global counter survives eviction pressure from per-address keys', () => {
    const limiter = new RollingWindowLimiter(1_000)
    const t0 = 1_800_000_000_000
    for (let i = 0; i < 30; i++) expect(limiter.attempt('pair:all', 30, t0).allowed).toBe(true)
    expect(limiter.attempt('pair:all', 30, t0).allowed).toBe(false)
    for (let i = 0; i < 5_000; i++) limiter.attempt(`pair:address:192.0.2.${i}`, 10, t0 + 1, 60_000, 'address')
    expect(limiter.attempt('pair:all', 30, t0 + 2)).toEqual({ allowed: false, retryAfterSeconds: 60 })
    expect(limiter.addresses.size).toBe(1_000)
  })

  test('the window rolls in slices: an attempt leaves it a window after its slice began', () => {
    const limiter = new RollingWindowLimiter()
    const t0 = 1_800_000_000_000 // a whole second
    for (let i = 0; i < 4; i++) expect(limiter.attempt('k', 4, t0 + i * 250).allowed).toBe(true)
    expect(limiter.attempt('k', 4, t0 + 30_000)).toEqual({ allowed: false, retryAfterSeconds: 30 })
    expect(limiter.attempt('k', 4, t0 + 59_999)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    // The four fell in one slice (t0 … t0+1 s): they all leave at t0 + 60 s.
    for (let i = 0; i < 4; i++) expect(limiter.attempt('k', 4, t0 + 60_000).allowed).toBe(true)
    expect(limiter.attempt('k', 4, t0 + 60_000).allowed).toBe(false)
    // Idle for longer than a window: everything is forgotten.
    expect(limiter.attempt('k', 4, t0 + 10 * 60_000).allowed).toBe(true)
  })
})

describe('rate windows of constant size (issue 37)', () => {
  test("the bench's limit of 1,000,000 a minute costs a key no more than a limit of 5, and is counted to the last attempt", () => {
    const t0 = 1_800_000_000_000 // a whole minute
    const huge = new RollingWindowLimiter()
    const before = heapBytes()
    for (let i = 0; i < 10_000; i++) huge.attempt(`credential:${i}`, 1_000_000, t0)
    const grown = heapBytes() - before
    // A ring of timestamps (8 bytes per unit of limit) would need 80 GB here; slices need ~4 MiB.
    expect(grown).toBeLessThan(10 * MB)
    expect(huge.size).toBe(10_000)

    // One key takes its whole million within 50 s of the window (20,000 a second), then is refused.
    const one = new RollingWindowLimiter()
    let allowed = 0
    for (let i = 0; i < 1_000_000; i++) if (one.attempt('bench', 1_000_000, t0 + i / 20).allowed) allowed++
    expect(allowed).toBe(1_000_000)
    expect(one.attempt('bench', 1_000_000, t0 + 50_000)).toEqual({ allowed: false, retryAfterSeconds: 10 })
    // A second after the first slice began, its 20,000 have left: room for exactly 20,000 more.
    for (let i = 0; i < 20_000; i++) expect(one.attempt('bench', 1_000_000, t0 + 60_000).allowed).toBe(true)
    expect(one.attempt('bench', 1_000_000, t0 + 60_000).allowed).toBe(false)
  })

  test('the window slides across the minute: attempts at the end of one minute still count early in the next', () => {
    const limiter = new RollingWindowLimiter()
    const t0 = 1_800_000_000_000 // a whole minute
    for (let i = 0; i < 10; i++) expect(limiter.attempt('k', 10, t0 + 59_000 + i * 10).allowed).toBe(true)
    // A fixed per-minute window would start again at t0 + 60 s; the rolling one still holds all ten.
    expect(limiter.attempt('k', 10, t0 + 60_000)).toEqual({ allowed: false, retryAfterSeconds: 59 })
    expect(limiter.attempt('k', 10, t0 + 118_999)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    // A window after their slice began they leave together: ten fit again, the eleventh does not.
    for (let i = 0; i < 10; i++) expect(limiter.attempt('k', 10, t0 + 119_000).allowed).toBe(true)
    expect(limiter.attempt('k', 10, t0 + 119_000)).toEqual({ allowed: false, retryAfterSeconds: 60 })
  })

  test('many keys stay bounded: a flood of addresses never holds more than the bound', () => {
    const limiter = new RollingWindowLimiter(1_000)
    const t0 = 1_800_000_000_000
    const before = heapBytes()
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 20_000; i++) limiter.attempt(`addr:${round}:${i}`, 1_000_000, t0 + round, 60_000, 'address')
      expect(limiter.addresses.size).toBe(1_000)
    }
    // 100,000 addresses went through, at a limit of a million: the store kept 1,000 slots.
    expect(heapBytes() - before).toBeLessThan(5 * MB)
  })
})
