import { CommonCodes } from '../platform/errors'

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
