import { CommonCodes, CommonErrorExamples } from '../platform/errors'
import type { ErrorExample } from '../platform/openapi'

/**
 * Every code the widget push answers with (public-api.md "Widget push errors", contract §4).
 * Tests import these rather than copying the strings.
 */
export const WidgetCodes = {
  INVALID_JSON: CommonCodes.INVALID_JSON,
  INVALID_IDEMPOTENCY_KEY: 'INVALID_IDEMPOTENCY_KEY',
  MULTIPLE_CREDENTIALS: CommonCodes.MULTIPLE_CREDENTIALS,
  AUTHENTICATION_REQUIRED: 'AUTHENTICATION_REQUIRED',
  WIDGET_NOT_FOUND_OR_FORBIDDEN: 'WIDGET_NOT_FOUND_OR_FORBIDDEN',
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  STALE_SOURCE_SEQUENCE: 'STALE_SOURCE_SEQUENCE',
  PAYLOAD_TOO_LARGE: CommonCodes.PAYLOAD_TOO_LARGE,
  UNSUPPORTED_CONTENT_TYPE: CommonCodes.UNSUPPORTED_CONTENT_TYPE,
  SCHEMA_VALIDATION_FAILED: 'SCHEMA_VALIDATION_FAILED',
  UNSUPPORTED_WIDGET_TYPE: 'UNSUPPORTED_WIDGET_TYPE',
  WIDGET_TYPE_MISMATCH: 'WIDGET_TYPE_MISMATCH',
  RATE_LIMITED: CommonCodes.RATE_LIMITED,
} as const

/** Codes of the warnings an accepted push may carry (contract §4). */
export const WidgetWarnings = {
  SEQUENCE_MISSING: 'SEQUENCE_MISSING',
  ITEM_OUTSIDE_DATE: 'ITEM_OUTSIDE_DATE',
} as const

/** The error statuses of the push route and the codes each carries (for OpenAPI). */
export const PUSH_ERROR_STATUSES: Record<number, string[]> = {
  400: [WidgetCodes.INVALID_JSON, WidgetCodes.INVALID_IDEMPOTENCY_KEY, WidgetCodes.MULTIPLE_CREDENTIALS],
  401: [WidgetCodes.AUTHENTICATION_REQUIRED],
  403: [WidgetCodes.WIDGET_NOT_FOUND_OR_FORBIDDEN],
  409: [WidgetCodes.IDEMPOTENCY_KEY_REUSED, WidgetCodes.STALE_SOURCE_SEQUENCE],
  413: [WidgetCodes.PAYLOAD_TOO_LARGE],
  415: [WidgetCodes.UNSUPPORTED_CONTENT_TYPE],
  422: [WidgetCodes.SCHEMA_VALIDATION_FAILED, WidgetCodes.UNSUPPORTED_WIDGET_TYPE, WidgetCodes.WIDGET_TYPE_MISMATCH],
  429: [WidgetCodes.RATE_LIMITED],
}

/** An example of each code for the OpenAPI document (the messages the route answers with). */
export const WidgetErrorExamples = {
  ...CommonErrorExamples,
  INVALID_IDEMPOTENCY_KEY: {
    message: 'Idempotency-Key must be 8 to 180 characters',
    details: [{ path: 'Idempotency-Key', message: 'must be 8 to 180 characters' }],
  },
  AUTHENTICATION_REQUIRED: 'send a workspace API key in Authorization: Bearer or x-service-api-key',
  WIDGET_NOT_FOUND_OR_FORBIDDEN: 'no widget with an active push source for this key',
  IDEMPOTENCY_KEY_REUSED: {
    message: 'this Idempotency-Key was used with a different body; any changed byte counts',
    details: [{ path: 'Idempotency-Key', message: 'already used with another body' }],
  },
  STALE_SOURCE_SEQUENCE: {
    message: 'source.sequence must be greater than 41, the last accepted sequence',
    details: [{ path: '/source/sequence', message: 'last accepted sequence: 41' }],
  },
  PAYLOAD_TOO_LARGE: 'request body exceeds 1048576 bytes',
  SCHEMA_VALIDATION_FAILED: {
    message: 'the push envelope or its payload is invalid',
    details: [{ path: '/data/items/0/startAt', message: 'must be an ISO 8601 date-time with an explicit offset' }],
  },
  UNSUPPORTED_WIDGET_TYPE: {
    message: 'widgetType is not a supported widget type',
    details: [{ path: '/widgetType', message: 'must be one of TODAYS_SCHEDULE, ANNOUNCEMENTS, EVENTS, TRANSPORT_BOARD' }],
  },
  WIDGET_TYPE_MISMATCH: {
    message: 'widgetType does not match the target widget',
    details: [{ path: '/widgetType', message: 'this widget is TODAYS_SCHEDULE' }],
  },
} as const satisfies Record<keyof typeof WidgetCodes, ErrorExample>
