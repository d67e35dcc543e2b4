import canonicalize from 'canonicalize'
import { sha256Hex } from '../platform/idempotency'

/**
 * RFC 8785 (JSON Canonicalization Scheme) text of a parsed JSON value: keys sorted by UTF-16
 * code units, no whitespace, numbers in their shortest ECMAScript form. Two bodies that differ
 * only in key order, whitespace or number spelling (`1.0` vs `1`) canonicalize the same.
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value)
  if (text === undefined) throw new TypeError('value has no JSON representation')
  return text
}

/** Contract §5: `checksum` = `sha256:` + hex of the RFC 8785 canonical JSON of the body. */
export function monthChecksum(canonical: string): string {
  return `sha256:${sha256Hex(canonical)}`
}
