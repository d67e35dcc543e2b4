export interface NonceMemory {
  /** True when `nonce` is new for `scope` (and now remembered); false when it is a replay. */
  remember(scope: string, nonce: string, now: number): boolean
}

/**
 * Nonces remembered in memory for `ttlMs` (contract §3: per instance, no shared store).
 * Each entry is a 64-bit hash of scope + nonce, not the nonce itself, to keep memory per
 * remembered nonce small. Entries sit in insertion order, which is expiry order, so expired
 * ones are dropped from the front. Bounded: past `maxEntries` the oldest is forgotten early —
 * it is close to expiry, and the ±5-minute timestamp window still refuses old requests.
 */
export class InMemoryNonces implements NonceMemory {
  private readonly entries = new Map<string, number>()
  constructor(
    private readonly ttlMs = 10 * 60_000,
    private readonly maxEntries = 2_000_000,
  ) {}

  remember(scope: string, nonce: string, now: number): boolean {
    this.prune(now)
    const key = Bun.hash(`${scope}\u0000${nonce}`).toString(36)
    const expiresAt = this.entries.get(key)
    if (expiresAt !== undefined && expiresAt > now) return false
    this.entries.set(key, now + this.ttlMs)
    if (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string)
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
