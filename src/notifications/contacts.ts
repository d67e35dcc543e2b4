import type { CountryCode, parsePhoneNumberFromString as Parse } from 'libphonenumber-js'

/**
 * libphonenumber-js on first use: its metadata (every country's numbering plan) took ~10 ms of
 * every start, and most branches never parse a number (issue 50).
 */
let parser: typeof Parse | undefined
function parsePhoneNumberFromString(...args: Parameters<typeof Parse>): ReturnType<typeof Parse> {
  parser ??= (require('libphonenumber-js') as { parsePhoneNumberFromString: typeof Parse }).parsePhoneNumberFromString
  return parser(...args)
}
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'

/*
 * Contract §25's personal data at the edge: numbers parsed in the branch's country and kept as
 * E.164, addresses checked, push endpoints refused when they point inside a network, and every
 * contact shown masked.
 */

/** E.164 of a number typed in local or international form, or null when it is not a valid number. */
export function parsePhone(raw: string, country: string | undefined): string | null {
  const text = raw.trim()
  if (text.length === 0 || text.length > 40) return null
  const parsed = parsePhoneNumberFromString(text, country as CountryCode | undefined)
  return parsed !== undefined && parsed.isValid() ? parsed.number : null
}

/** A plain e-mail address (one `@`, a dotted domain, no spaces or angle brackets), lower-cased domain; else null. */
export function parseEmail(raw: string): string | null {
  const text = raw.trim()
  if (text.length < 3 || text.length > 254) return null
  const match = /^([^\s@<>(),;:"[\]\\]+)@([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+)$/.exec(text)
  return match === null ? null : `${match[1]}@${match[2]!.toLowerCase()}`
}

/** `+44 •••• ••34`: the country code and the last two digits, in one shape whatever the number's length. */
export function maskPhone(e164: string): string {
  const cc = parsePhoneNumberFromString(e164)?.countryCallingCode ?? ''
  return `+${cc} •••• ••${e164.replace(/\D/g, '').slice(-2)}`
}

/** `a••••@e••••.com`: the first letter of the name and of the domain, and the top-level domain. */
export function maskEmail(address: string): string {
  const [name = '', domain = ''] = address.split('@')
  const dot = domain.lastIndexOf('.')
  return `${name.slice(0, 1)}••••@${domain.slice(0, 1)}••••${dot >= 0 ? domain.slice(dot) : ''}`
}

/** What a page shows of a contact. */
export function maskContact(channel: string, address: string): string {
  if (channel === 'sms') return maskPhone(address)
  if (channel === 'email') return maskEmail(address)
  return 'this browser'
}

/** A loopback, private, link-local, unique-local or unspecified address (IPv4 or IPv6). */
export function isInternalAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase()
  if (isIP(ip) === 4) {
    const [a = 0, b = 0] = ip.split('.').map(Number)
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224
  }
  if (isIP(ip) === 6) {
    if (ip === '::' || ip === '::1') return true
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip)
    if (mapped !== null) return isInternalAddress(mapped[1]!)
    return /^(fc|fd|fe8|fe9|fea|feb|ff)/.test(ip)
  }
  return true
}

/**
 * Why a push endpoint is refused, or null: it must be `https:` and, unless private endpoints are
 * allowed, resolve only to public addresses (checked after DNS resolution, so a name pointing
 * inside the branch is refused too).
 */
export async function pushEndpointProblem(endpoint: string, allowPrivate: boolean, resolve: (host: string) => Promise<string[]> = resolveAll): Promise<string | null> {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return 'not a URL'
  }
  if (url.protocol !== 'https:') return 'a push endpoint must be https:'
  if (url.username !== '' || url.password !== '') return 'a push endpoint must not carry credentials'
  if (allowPrivate) return null
  const host = url.hostname.replace(/^\[|\]$/g, '')
  let addresses: string[]
  try {
    addresses = isIP(host) === 0 ? await resolve(host) : [host]
  } catch {
    return 'the push endpoint\'s host does not resolve'
  }
  if (addresses.length === 0 || addresses.some(isInternalAddress)) return 'the push endpoint points inside a private network'
  return null
}

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true })).map((a) => a.address)
}
