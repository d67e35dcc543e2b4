// Bun's native HMAC and constant-time compare: importing node:crypto costs ~11 ms at every start.

/**
 * `Lobby-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed with the
 * endpoint's `lbh_` secret (contract §3 Webhooks).
 */
export function signatureHeader(secret: string, unixSeconds: number, rawBody: string): string {
  const mac = new Bun.CryptoHasher('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex')
  return `t=${unixSeconds},v1=${mac}`
}

/**
 * What a receiver does (and what the README shows): recompute and compare in constant time,
 * and refuse timestamps far from now so a captured request cannot be replayed later.
 * Both MACs are 32-byte digests, so `timingSafeEqual` never sees unequal lengths.
 */
export function verifySignature(secret: string, header: string, rawBody: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]))
  const t = Number(parts.t)
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false
  if (typeof parts.v1 !== 'string' || !/^[0-9a-f]{64}$/.test(parts.v1)) return false
  const expected = new Bun.CryptoHasher('sha256', secret).update(`${t}.${rawBody}`).digest()
  return crypto.timingSafeEqual(expected, Buffer.from(parts.v1, 'hex'))
}
