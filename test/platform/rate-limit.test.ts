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
