import { describe, expect, test } from 'bun:test'
import { admitRate, RateBuckets, clientAddressOf } from '../../src/platform/admission'
import { RollingWindowLimiter } from '../../src/platform/rate-limit'
import { ApiError } from '../../src/platform/errors'
import { ClientAddresses } from '../../src/platform/client-address'
import { readIdempotencyKeyHeader, type IdempotencyKeyPolicy } from '../../src/platform/idempotency'

describe('the admission kit', () => {
  test('admitRate: a named bucket, a key and a limit; over it the standard 429 with Retry-After, not counted', () => {
    const limiter = new RollingWindowLimiter()
    const t0 = 1_800_000_000_000
    for (let i = 0; i < 3; i++) admitRate(limiter, RateBuckets.queueRead, 'qu_main/kiosk', 3, t0, () => 'x')
    let refused: unknown
    try {
      admitRate(limiter, RateBuckets.queueRead, 'qu_main/kiosk', 3, t0 + 1000, (retry) => `retry after ${retry} s`)
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: 'retry after 59 s', headers: { 'retry-after': '59' } })
    // The bucket's name is the key's prefix: routes sharing a window share it by name.
    expect(limiter.attempt('queue:read:qu_main/kiosk', 3, t0 + 2000).allowed).toBe(false)
    // An overall window has no key; per-address buckets go to the bounded store.
    admitRate(limiter, RateBuckets.pairOverall, null, 1, t0, () => 'x')
    expect(limiter.fixed.size).toBe(2)
    admitRate(limiter, RateBuckets.pairPerAddress, '192.0.2.1', 1, t0, () => 'x')
    expect(limiter.addresses.size).toBe(1)
  })

  test('contract §27: a per-address bucket counts an IPv6 client by its /64, an IPv4 client by its address; other buckets by their key as given', () => {
    const limiter = new RollingWindowLimiter()
    const t0 = 1_800_000_000_000
    admitRate(limiter, RateBuckets.phonePerAddress, '2001:db8:1:2::1', 2, t0, () => 'x')
    admitRate(limiter, RateBuckets.phonePerAddress, '2001:db8:1:2:aaaa::9', 2, t0, () => 'x')
    expect(() => admitRate(limiter, RateBuckets.phonePerAddress, '2001:db8:1:2::ffff', 2, t0, () => 'x')).toThrow(ApiError)
    admitRate(limiter, RateBuckets.phonePerAddress, '2001:db8:1:3::1', 2, t0, () => 'x')
    admitRate(limiter, RateBuckets.phonePerAddress, '192.0.2.1', 2, t0, () => 'x')
    admitRate(limiter, RateBuckets.phonePerAddress, '192.0.2.2', 2, t0, () => 'x')
    expect(limiter.addresses.size).toBe(4)
    admitRate(limiter, RateBuckets.queueRead, '2001:db8:1:2::1', 1, t0, () => 'x')
    admitRate(limiter, RateBuckets.queueRead, '2001:db8:1:2::2', 1, t0, () => 'x')
  })

  test('clientAddressOf: the peer, or unknown when the app was handed the request directly', () => {
    const clients = new ClientAddresses()
    const request = new Request('http://lobby/x')
    expect(clientAddressOf(clients, request, null)).toBe('unknown')
    expect(clientAddressOf(clients, new Request('http://lobby/y'), { requestIP: () => ({ address: '::ffff:192.0.2.7' }) })).toBe('192.0.2.7')
  })

  test('readIdempotencyKeyHeader: required or optional, code points, pattern, the API\'s messages', () => {
    const required: IdempotencyKeyPolicy = { required: true, min: 1, max: 4, missing: 'missing', invalid: 'bad' }
    const optional: IdempotencyKeyPolicy = { ...required, required: false }
    const ascii: IdempotencyKeyPolicy = { ...required, pattern: /^[\x20-\x7e]+$/ }
    const req = (key?: string) => new Request('http://lobby/x', { headers: key === undefined ? {} : { 'idempotency-key': key } })
    expect(readIdempotencyKeyHeader(req(), required)).toEqual({ key: null, problem: { path: 'Idempotency-Key', message: 'missing' } })
    expect(readIdempotencyKeyHeader(req(), optional)).toEqual({ key: null, problem: null })
    expect(readIdempotencyKeyHeader(req('abcd'), required)).toEqual({ key: 'abcd', problem: null })
    expect(readIdempotencyKeyHeader(req('abcde'), optional).problem).toEqual({ path: 'Idempotency-Key', message: 'bad' })
    expect(readIdempotencyKeyHeader('😀😀😀😀', required).problem).toBeNull()
    expect(readIdempotencyKeyHeader('é', ascii).problem).toEqual({ path: 'Idempotency-Key', message: 'bad' })
  })
})
