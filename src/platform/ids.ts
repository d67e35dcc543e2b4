/** IDs come in through deps so tests can make them predictable. */
export interface IdGenerator {
  /** A new opaque ID with the given prefix, e.g. `tkt_` + 20 random base32 characters. */
  next(prefix: string): string
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'

/** Lowercase base32 of `bytes` random bytes. */
export function randomToken(bytes: number): string {
  // Web Crypto, not node:crypto, whose import costs ~11 ms at every start.
  const buf = crypto.getRandomValues(new Uint8Array(bytes))
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of buf) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31]
  return out
}

/** 100 random bits per ID: collisions are not a practical concern. */
export const randomIds: IdGenerator = { next: (prefix) => `${prefix}${randomToken(13).slice(0, 20)}` }

/** Predictable IDs for tests: `tkt_000001`, `tkt_000002`, ... */
export class SequentialIds implements IdGenerator {
  private n = 0
  next(prefix: string): string {
    this.n += 1
    return `${prefix}${String(this.n).padStart(6, '0')}`
  }
}
