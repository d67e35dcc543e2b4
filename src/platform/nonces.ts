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
 * its expiry time, kept in typed arrays outside the JS heap: a ring in insertion order (which
 * is expiry order, so expired entries leave from the front) and an open-addressing index into
 * it, ~24 bytes per remembered nonce at full size and no garbage per request. Bounded: past
 * `maxEntries` the oldest is forgotten early — it is close to expiry, and the ±5-minute
 * timestamp window still refuses old requests.
 */
export class InMemoryNonces implements NonceMemory {
  /** Ring of entries in insertion order: key and expiry time of each slot. */
  private keys = new Float64Array(1024)
  private expires = new Float64Array(1024)
  private head = 0
  private count = 0
  /** Linear-probing index: ring slot + 1, or 0 for an empty cell; twice the ring's capacity. */
  private index = new Int32Array(2048)

  constructor(
    private readonly ttlMs = 10 * 60_000,
    private readonly maxEntries = 2_000_000,
  ) {}

  remember(scope: string, nonce: string, now: number): boolean {
    this.prune(now)
    const key = nonceKey(scope, nonce)
    const slot = this.find(key)
    if (slot >= 0) {
      if (this.expires[slot]! > now) return false
      // Present but expired (only when the clock went back): remembered again in its place.
      this.expires[slot] = now + this.ttlMs
      return true
    }
    if (this.count === this.keys.length) {
      if (this.keys.length < this.maxEntries) this.grow()
      else this.removeOldest()
    }
    if (this.count >= this.maxEntries) this.removeOldest()
    const pos = (this.head + this.count) % this.keys.length
    this.keys[pos] = key
    this.expires[pos] = now + this.ttlMs
    this.count += 1
    this.link(pos)
    return true
  }

  get size(): number {
    return this.count
  }

  private prune(now: number): void {
    while (this.count > 0 && this.expires[this.head]! <= now) this.removeOldest()
  }

  private home(key: number): number {
    return (key >>> 0) & (this.index.length - 1)
  }

  /** The ring slot holding `key`, or -1. */
  private find(key: number): number {
    const mask = this.index.length - 1
    for (let i = this.home(key); ; i = (i + 1) & mask) {
      const cell = this.index[i]!
      if (cell === 0) return -1
      if (this.keys[cell - 1] === key) return cell - 1
    }
  }

  private link(slot: number): void {
    const mask = this.index.length - 1
    let i = this.home(this.keys[slot]!)
    while (this.index[i] !== 0) i = (i + 1) & mask
    this.index[i] = slot + 1
  }

  /** Drops the front of the ring from the index (backward-shift deletion, no tombstones). */
  private removeOldest(): void {
    const slot = this.head
    const mask = this.index.length - 1
    let i = this.home(this.keys[slot]!)
    while (this.index[i] !== slot + 1) i = (i + 1) & mask
    for (let j = (i + 1) & mask; this.index[j] !== 0; j = (j + 1) & mask) {
      const home = this.home(this.keys[this.index[j]! - 1]!)
      // Move j's entry into the hole at i when its home is not within (i, j] cyclically.
      const between = i <= j ? home > i && home <= j : home > i || home <= j
      if (!between) {
        this.index[i] = this.index[j]!
        i = j
      }
    }
    this.index[i] = 0
    this.head = (this.head + 1) % this.keys.length
    this.count -= 1
  }

  /** Doubles the ring (up to `maxEntries`), in order from slot 0, and rebuilds the index. */
  private grow(): void {
    const capacity = Math.min(this.keys.length * 2, Math.max(this.maxEntries, 1))
    const keys = new Float64Array(capacity)
    const expires = new Float64Array(capacity)
    for (let n = 0; n < this.count; n++) {
      const from = (this.head + n) % this.keys.length
      keys[n] = this.keys[from]!
      expires[n] = this.expires[from]!
    }
    this.keys = keys
    this.expires = expires
    this.head = 0
    let size = 1
    while (size < capacity * 2) size *= 2
    this.index = new Int32Array(size)
    for (let n = 0; n < this.count; n++) this.link(n)
  }
}
