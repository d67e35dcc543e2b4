import { CommonCodes, CommonErrorExamples } from '../platform/errors'
import type { ErrorExample } from '../platform/openapi'

/** Every error code the prayer routes answer with (contract §5); tests import these. */
export const PrayerCodes = {
  /** 400: bad source ID or period in the path, or a content type that is not JSON. */
  INVALID_REQUEST: CommonCodes.INVALID_REQUEST,
  /** 400: the body is not JSON (or not UTF-8). */
  INVALID_JSON: CommonCodes.INVALID_JSON,
  /** 400: Idempotency-Key missing or not 12–160 printable ASCII characters. */
  INVALID_IDEMPOTENCY_KEY: 'INVALID_IDEMPOTENCY_KEY',
  /** 400: Authorization and x-service-api-key both sent. */
  MULTIPLE_CREDENTIALS: CommonCodes.MULTIPLE_CREDENTIALS,
  /** 401: no workspace key presented. */
  AUTHENTICATION_REQUIRED: 'AUTHENTICATION_REQUIRED',
  /** 403: unknown, revoked or wrong key; unknown source; another workspace's source. */
  SOURCE_NOT_FOUND_OR_FORBIDDEN: 'SOURCE_NOT_FOUND_OR_FORBIDDEN',
  /** 404 (read only): no month stored for this source and period. */
  MONTH_NOT_FOUND: 'MONTH_NOT_FOUND',
  /** 409: the same Idempotency-Key with other raw bytes. */
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  /** 413: body over 256 KiB. */
  PAYLOAD_TOO_LARGE: CommonCodes.PAYLOAD_TOO_LARGE,
  /** 422: the month breaks the schema or a rule of contract §5. */
  SCHEMA_VALIDATION_FAILED: 'SCHEMA_VALIDATION_FAILED',
  /** 429: over the source's push rate. */
  RATE_LIMITED: CommonCodes.RATE_LIMITED,
} as const

/** An example of each code for the OpenAPI document (the messages the routes answer with). */
export const PrayerErrorExamples = {
  ...CommonErrorExamples,
  INVALID_REQUEST: {
    message: 'sourceId must match ^psrc_[A-Za-z0-9-]{20,}$',
    details: [{ path: 'sourceId', message: 'does not match the source ID pattern' }],
  },
  INVALID_IDEMPOTENCY_KEY: {
    message: 'Idempotency-Key must be 12 to 160 printable ASCII characters',
    details: [{ path: 'Idempotency-Key', message: 'required: 12 to 160 printable ASCII characters' }],
  },
  AUTHENTICATION_REQUIRED: 'a Workspace API Key is required (Authorization: Bearer or x-service-api-key)',
  SOURCE_NOT_FOUND_OR_FORBIDDEN: 'unknown source, or the key may not push to it',
  MONTH_NOT_FOUND: 'no month stored for this source and period',
  IDEMPOTENCY_KEY_REUSED: 'this Idempotency-Key was used with a different body; use a new key for new content',
  PAYLOAD_TOO_LARGE: 'request body exceeds 262144 bytes',
  SCHEMA_VALIDATION_FAILED: {
    message: 'the month breaks the rules of the month contract',
    details: [{ path: '/days/4/asr', message: 'must be after dhuhr (12:05)' }],
  },
} as const satisfies Record<keyof typeof PrayerCodes, ErrorExample>
