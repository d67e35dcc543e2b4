/**
 * Who is calling (contract §23 "Behind a reverse proxy"): the peer address of the connection,
 * or, when the peer is a trusted proxy (`--trusted-proxy CIDR`), the last address in
 * `X-Forwarded-For` that is not a trusted proxy. Forwarding headers from any other peer are
 * ignored for attribution. One answer per request, used by rate limits, the access log and the
 * `/metrics` loopback rule.
 */

/** An address range: 16 bytes (IPv4 as `::ffff:a.b.c.d`) and the prefix length over them. */
export interface Cidr {
  readonly bytes: Uint8Array
  readonly prefix: number
  /** As given, for messages. */
  readonly text: string
}

/** The peer as Bun's server knows it (absent when the app is handed a Request directly). */
export interface PeerSource {
  requestIP(request: Request): { address: string } | null
}

export interface Client {
  /** The attributed address (normalised text), or null when nothing is known. */
  readonly address: string | null
  /**
   * The request carries forwarding headers (`X-Forwarded-For`, `Forwarded`, `X-Real-IP`) that
   * were not used for attribution: it came through a proxy Lobby does not trust, so its peer
   * address is not where it comes from (a loopback peer still counts as remote for /metrics).
   */
  readonly forwardedUnattributed: boolean
}

function parseIPv4(text: string): number[] | null {
  const parts = text.split('.')
  if (parts.length !== 4) return null
  const out: number[] = []
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null
    const n = Number(p)
    if (n > 255) return null
    out.push(n)
  }
  return out
}

/** An IPv4 or IPv6 address as 16 bytes (IPv4 mapped into `::ffff:0:0/96`), or null. */
export function parseIp(input: string): Uint8Array | null {
  let text = input.trim()
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1)
  if (text.length === 0 || text.length > 64) return null
  const zone = text.indexOf('%')
  if (zone >= 0) text = text.slice(0, zone)
  const bytes = new Uint8Array(16)
  if (!text.includes(':')) {
    const v4 = parseIPv4(text)
    if (v4 === null) return null
    bytes[10] = 0xff
    bytes[11] = 0xff
    bytes.set(v4, 12)
    return bytes
  }
  let tail: number[] = []
  const lastColon = text.lastIndexOf(':')
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = parseIPv4(text.slice(lastColon + 1))
    if (v4 === null) return null
    tail = v4
    text = text.slice(0, lastColon + 1) + '0:0'
  }
  const halves = text.split('::')
  if (halves.length > 2) return null
  const groups = (s: string) => (s === '' ? [] : s.split(':'))
  const head = groups(halves[0]!)
  const rest = halves.length === 2 ? groups(halves[1]!) : []
  const missing = 8 - head.length - rest.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest]
  for (let i = 0; i < 8; i++) {
    const g = all[i]!
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null
    const n = parseInt(g, 16)
    bytes[i * 2] = n >> 8
    bytes[i * 2 + 1] = n & 0xff
  }
  if (tail.length === 4) bytes.set(tail, 12)
  return bytes
}

const isMappedV4 = (b: Uint8Array) => b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff

/** The canonical text of an address: dotted IPv4 for IPv4 (mapped or not), compressed IPv6 otherwise. */
export function formatIp(bytes: Uint8Array): string {
  if (isMappedV4(bytes)) return `${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}`
  const groups: number[] = []
  for (let i = 0; i < 8; i++) groups.push((bytes[i * 2]! << 8) | bytes[i * 2 + 1]!)
  // The longest run of zero groups (two or more) becomes `::`.
  let bestStart = -1
  let bestLength = 1
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) { i++; continue }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLength) { bestStart = i; bestLength = j - i }
    i = j
  }
  const hex = groups.map((g) => g.toString(16))
  if (bestStart < 0) return hex.join(':')
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`
}

/** `a.b.c.d/n` (n ≤ 32), `x:…:y/n` (n ≤ 128) or a bare address (the one address); null when malformed. */
export function parseCidr(text: string): Cidr | null {
  const trimmed = text.trim()
  const slash = trimmed.indexOf('/')
  const addressText = slash < 0 ? trimmed : trimmed.slice(0, slash)
  const bytes = parseIp(addressText)
  if (bytes === null) return null
  const v4 = !addressText.includes(':')
  const max = v4 ? 32 : 128
  let prefix = max
  if (slash >= 0) {
    const p = trimmed.slice(slash + 1)
    if (!/^\d{1,3}$/.test(p) || Number(p) > max) return null
    prefix = Number(p)
  }
  return { bytes, prefix: v4 ? prefix + 96 : prefix, text: trimmed }
}

export function inCidr(address: Uint8Array, cidr: Cidr): boolean {
  let bits = cidr.prefix
  for (let i = 0; i < 16 && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff
    if ((address[i]! & mask) !== (cidr.bytes[i]! & mask)) return false
  }
  return true
}

/**
 * The key a per-address rate limit counts a client under (contract §27): an IPv4 address
 * itself, an IPv6 address's /64 (`2001:db8:1:2::/64`) — one household or phone network is
 * handed a whole /64, so counting each of its addresses apart would let one client take 2^64
 * turns. Anything that is not an address (`unknown`) is its own key.
 */
export function rateKeyOf(address: string): string {
  const bytes = parseIp(address)
  if (bytes === null) return address
  if (isMappedV4(bytes)) return formatIp(bytes)
  bytes.fill(0, 8)
  return `${formatIp(bytes)}/64`
}

export function isLoopback(address: string): boolean {
  const bytes = parseIp(address)
  if (bytes === null) return false
  if (isMappedV4(bytes)) return bytes[12] === 127
  return bytes.slice(0, 15).every((x) => x === 0) && bytes[15] === 1
}

function hasForwardingHeaders(request: Request): boolean {
  const h = request.headers
  return h.has('forwarded') || h.has('x-forwarded-for') || h.has('x-real-ip')
}

/** Resolves each request's client once; built once per app with the trusted proxies. */
export class ClientAddresses {
  /**
   * Where this instance keeps a request's resolved client: a property of the Request under a
   * symbol of its own (an app with other proxies resolves apart), cheaper per request than a
   * WeakMap entry (src/platform/http.ts keeps its per-request record the same way).
   */
  private readonly resolved = Symbol('lobby.client')

  constructor(readonly trustedProxies: readonly Cidr[] = []) {}

  private trusted(bytes: Uint8Array): boolean {
    for (const cidr of this.trustedProxies) if (inCidr(bytes, cidr)) return true
    return false
  }

  /** The request's client; `peer` is Bun's server (null when the app was handed the Request directly). */
  of(request: Request, peer: PeerSource | null | undefined): Client {
    const slot = request as Request & Record<symbol, Client | undefined>
    const known = slot[this.resolved]
    if (known !== undefined) return known
    let peerAddress: string | null = null
    try {
      peerAddress = peer?.requestIP(request)?.address ?? null
    } catch {
      peerAddress = null
    }
    const client = this.attribute(request, peerAddress)
    slot[this.resolved] = client
    return client
  }

  /** The attribution rule for a request that arrived from `peerAddress`. */
  attribute(request: Request, peerAddress: string | null): Client {
    const forwarded = hasForwardingHeaders(request)
    const peerBytes = peerAddress === null ? null : parseIp(peerAddress)
    const peerText = peerBytes === null ? peerAddress : formatIp(peerBytes)
    if (peerBytes === null || !this.trusted(peerBytes)) return { address: peerText, forwardedUnattributed: forwarded }
    const xff = request.headers.get('x-forwarded-for')
    if (xff === null) return { address: peerText, forwardedUnattributed: forwarded }
    // From the right: each hop a trusted proxy appended; the first one not trusted is the client.
    const hops = xff.split(',')
    let nearest = peerText
    for (let i = hops.length - 1; i >= 0; i--) {
      const bytes = parseIp(hops[i]!)
      // A hop that is not an address cannot be attributed: the nearest trusted hop for rate
      // limits and logs, and still "forwarded" (remote) for the /metrics rule.
      if (bytes === null) return { address: nearest, forwardedUnattributed: true }
      const text = formatIp(bytes)
      if (!this.trusted(bytes)) return { address: text, forwardedUnattributed: false }
      nearest = text
    }
    return { address: nearest, forwardedUnattributed: false }
  }
}

/** `--trusted-proxy` values (each `CIDR`), throwing with the bad one named. */
export function parseTrustedProxies(values: readonly string[]): Cidr[] {
  return values.map((value) => {
    const cidr = parseCidr(value)
    if (cidr === null) throw new Error(`--trusted-proxy must be an IPv4 or IPv6 address or CIDR like 10.0.0.0/8 or fd00::/8: ${value.slice(0, 100)}`)
    return cidr
  })
}
