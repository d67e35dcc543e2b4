import { describe, expect, test } from 'bun:test'
import { RollingWindowLimiter } from '../../src/platform/rate-limit'
import { InMemoryNonces } from '../../src/platform/nonces'

describe('rolling-window rate limiter', () => {
  test('allows `limit` attempts per rolling minute, then refuses with Retry-After, then forgets', () => {
    const limiter = new RollingWindowLimiter()
    const t0 = 1_000_000
    for (let i = 0; i < 3; i++) expect(limiter.attempt('k', 3, t0 + i * 1000)).toEqual({ allowed: true })
    expect(limiter.attempt('k', 3, t0 + 10_000)).toEqual({ allowed: false, retryAfterSeconds: 50 })
    // Refusals are not counted: once the first attempt leaves the window, one slot frees.
    expect(limiter.attempt('k', 3, t0 + 60_000)).toEqual({ allowed: true })
    expect(limiter.attempt('k', 3, t0 + 60_001)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(limiter.attempt('other', 3, t0 + 60_001)).toEqual({ allowed: true })
  })

  test('stays bounded in per-address keys', () => {
    const limiter = new RollingWindowLimiter(100)
    for (let i = 0; i < 1000; i++) limiter.attempt(`k${i}`, 5, i, 60_000, 'address')
    expect(limiter.size).toBe(100)
  })
})

describe('nonce memory', () => {
  test('a nonce is a replay within its window and new again after it', () => {
    const nonces = new InMemoryNonces(10 * 60_000)
    expect(nonces.remember('cred1', 'nonce-123456', 0)).toBe(true)
    expect(nonces.remember('cred1', 'nonce-123456', 9 * 60_000)).toBe(false)
    expect(nonces.remember('cred2', 'nonce-123456', 9 * 60_000)).toBe(true)
    expect(nonces.remember('cred1', 'nonce-123456', 10 * 60_000)).toBe(true)
  })

  test('expired nonces are dropped and the memory stays bounded', () => {
    const nonces = new InMemoryNonces(1000, 50)
    for (let i = 0; i < 500; i++) nonces.remember('c', `n${i}`, 0)
    expect(nonces.size).toBe(50)
    nonces.remember('c', 'late', 5000)
    expect(nonces.size).toBe(1)
  })
})

describe('nonce memory: the typed-array store answers like a plain map', () => {
  /** The previous implementation, kept as the model: a Map in insertion order. */
  class ModelNonces {
    private readonly entries = new Map<string, number>()
    constructor(private readonly ttlMs: number, private readonly maxEntries: number) {}
    remember(scope: string, nonce: string, now: number): boolean {
      for (const [key, expiresAt] of this.entries) {
        if (expiresAt > now) break
        this.entries.delete(key)
      }
      const key = `${scope}\u0000${nonce}`
      const expiresAt = this.entries.get(key)
      if (expiresAt !== undefined && expiresAt > now) return false
      this.entries.set(key, now + this.ttlMs)
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string)
      return true
    }
    get size() {
      return this.entries.size
    }
  }

  test('50,000 random requests (replays, growth past the first ring, eviction, a clock that goes back)', () => {
    let seed = 42
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    for (const maxEntries of [3000, 100_000]) {
      const real = new InMemoryNonces(60_000, maxEntries)
      const model = new ModelNonces(60_000, maxEntries)
      let now = 1_000_000
      for (let i = 0; i < 50_000; i++) {
        now += random() < 0.001 ? -30_000 : Math.floor(random() * 5)
        const scope = random() < 0.5 ? 'ticket:qu_main/all' : 'ticket:qu_main/kiosk'
        const nonce = `nonce-${Math.floor(random() * 20_000)}`
        expect(real.remember(scope, nonce, now)).toBe(model.remember(scope, nonce, now))
      }
      expect(real.size).toBe(model.size)
    }
  })
})
