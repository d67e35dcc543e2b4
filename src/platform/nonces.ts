export interface NonceMemory {
  /** True when `nonce` is new for `scope` (and now remembered); false when it is a replay. */
  remember(scope: string, nonce: string, now: number): boolean
}

/**
 * The key a nonce is remembered by: a 53-bit hash of scope + nonce, held as a plain number
 * (two 32-bit xxHash values of the nonce, seeded from the scope), so an entry allocates no
 * string. A different nonce has a 2^-53 chance per remembered entry of being taken for a
 * replay: below 10^-9 per request with the memory full.
 */
export function nonceKey(scope: string, nonce: string): number {
  const high = Bun.hash.xxHash32(nonce, Bun.hash.xxHash32(scope, 0x9e3779b1))
  const low = Bun.hash.xxHash32(nonce, Bun.hash.xxHash32(scope, 0x85ebca77)) >>> 11
  return high * 2 ** 21 + low
}

/**
 * Nonces remembered in memory for `ttlMs` (contract §3: per instance, no shared store).
 * Each entry is a number key (`nonceKey`: a hash of scope + nonce, not the nonce itself) and
 * its expiry time, ~70 bytes per remembered nonce. Entries sit in insertion order, which is
 * expiry order, so expired ones are dropped from the front. Bounded: past `maxEntries` the
 * oldest is forgotten early — it is close to expiry, and the ±5-minute timestamp window still
 * refuses old requests.
 */
export class InMemoryNonces implements NonceMemory {
  private readonly entries = new Map<number, number>()
  constructor(
    private readonly ttlMs = 10 * 60_000,
    private readonly maxEntries = 2_000_000,
  ) {}

  remember(scope: string, nonce: string, now: number): boolean {
    this.prune(now)
    const key = nonceKey(scope, nonce)
    const expiresAt = this.entries.get(key)
    if (expiresAt !== undefined && expiresAt > now) return false
    this.entries.set(key, now + this.ttlMs)
    if (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as number)
    }
    return true
  }

  private prune(now: number): void {
    for (const [key, expiresAt] of this.entries) {
      if (expiresAt > now) break
      this.entries.delete(key)
    }
  }

  get size(): number {
    return this.entries.size
  }
}
