import { randomToken } from './ids'

/** Spec: 1 to 120 chars of letters, digits, `_`, `.`, `:`, `-`. */
const VALID = /^[A-Za-z0-9_.:-]{1,120}$/

/**
 * Generated IDs are this process's random prefix and a count: unique within the process, and
 * between processes with 40 random bits. A correlation ID is no secret, and drawing random
 * bytes for each request cost 5 % of a hot read (bench/analysis.md "Hot reads").
 */
const processPrefix = `lby-${randomToken(5)}`
let issued = 0

/** The caller's `X-Correlation-ID` when valid, else a generated one (never a rejection). */
export function correlationIdFor(header: string | null): string {
  if (header !== null && VALID.test(header)) return header
  issued += 1
  return processPrefix + issued.toString(36)
}
