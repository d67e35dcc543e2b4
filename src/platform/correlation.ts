import { randomToken } from './ids'

/** Spec: 1 to 120 chars of letters, digits, `_`, `.`, `:`, `-`. */
const VALID = /^[A-Za-z0-9_.:-]{1,120}$/

/** The caller's `X-Correlation-ID` when valid, else a generated one (never a rejection). */
export function correlationIdFor(header: string | null): string {
  return header !== null && VALID.test(header) ? header : `lby-${randomToken(10)}`
}
