import type { DetailParams, DetailRule } from './detail-rules'

/**
 * One failing field: `path` is a JSON Pointer into the request body (or a header name);
 * `rule` and `params` say which rule it breaks, machine-readable (./detail-rules.ts), for a page
 * to say in its own language (contract §24); `message` says it in English.
 */
export interface ErrorDetail {
  path: string
  message: string
  rule?: DetailRule
  params?: DetailParams
}

/**
 * The one error type features throw. The app's error handler turns it into the envelope
 * `{"error": {"code", "message", "details"?, "correlationId"}}` with this status and headers.
 */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly details?: ErrorDetail[],
    public readonly headers?: Record<string, string>,
    /** More members of `error` beside code and message (an edit conflict's `current` entity, contract §17). */
    public readonly extra?: Record<string, unknown>,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/** Codes shared by every route. Feature-specific codes live with their feature. */
export const CommonCodes = {
  NOT_FOUND: 'NOT_FOUND',
  INVALID_JSON: 'INVALID_JSON',
  INVALID_REQUEST: 'INVALID_REQUEST',
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_CONTENT_TYPE: 'UNSUPPORTED_CONTENT_TYPE',
  MULTIPLE_CREDENTIALS: 'MULTIPLE_CREDENTIALS',
  RATE_LIMITED: 'RATE_LIMITED',
  SERVER_BUSY: 'SERVER_BUSY',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
} as const

export function envelope(code: string, message: string, correlationId?: string, details?: ErrorDetail[], extra?: Record<string, unknown>) {
  return {
    error: {
      ...extra,
      code,
      message,
      ...(details && details.length > 0 ? { details } : {}),
      ...(correlationId ? { correlationId } : {}),
    },
  }
}

/** Escape one JSON Pointer segment (RFC 6901). */
export function pointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1')
}
export function pointer(...segments: (string | number)[]): string {
  return segments.map((s) => '/' + pointerSegment(s)).join('')
}

/**
 * An example of each shared code for the OpenAPI document (`routeDetail` shows one per code a
 * route declares); each feature's errors.ts spreads these into its own table.
 */
export const CommonErrorExamples = {
  NOT_FOUND: 'no such route or method',
  INVALID_JSON: 'request body is not valid JSON',
  INVALID_REQUEST: { message: 'invalid request headers: Content-Type', details: [{ path: 'Content-Type', message: 'must be application/json' }] },
  VALIDATION_FAILED: { message: 'request validation failed', details: [{ path: '/serviceId', message: 'unknown or inactive service' }] },
  PAYLOAD_TOO_LARGE: 'request body exceeds 16384 bytes',
  UNSUPPORTED_CONTENT_TYPE: 'Content-Type must include application/json',
  MULTIPLE_CREDENTIALS: 'send the key in Authorization or x-service-api-key, not both',
  RATE_LIMITED: 'rate limit exceeded; retry after the time in Retry-After',
  SERVER_BUSY: 'the server is receiving too many request bodies at once; retry shortly',
  INTERNAL_ERROR: 'internal error; quote the correlation ID when reporting it',
} as const satisfies Record<keyof typeof CommonCodes, string | { message: string; details: ErrorDetail[] }>
