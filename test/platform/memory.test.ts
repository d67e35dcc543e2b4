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

  test('stays bounded in keys', () => {
    const limiter = new RollingWindowLimiter(100)
    for (let i = 0; i < 1000; i++) limiter.attempt(`k${i}`, 5, i)
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
