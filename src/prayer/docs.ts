import { routeDetail } from '../platform/openapi'
import { Calculation, Day, Hijri, Iqamah, JumuahSession, LocationSchema, Month, PushResponse, StoredMonthResponse } from './model'
import { PrayerCodes, PrayerErrorExamples } from './errors'

/*
 * The OpenAPI details of the prayer-schedule month push and read (src/prayer/routes.ts): a
 * realistic month for the examples, and the error codes of each route by status.
 */

const SOURCE_ID = 'psrc_centralmosque-0001-london'
const sourceIdDoc = { description: 'a configured Custom Push source; pattern ^psrc_[A-Za-z0-9-]{20,}$ (else 400 INVALID_REQUEST)', example: SOURCE_ID }

/** A realistic month for the examples: February 2026 in London (28 days, four Fridays). */
function exampleMonth() {
  const days = Array.from({ length: 28 }, (_, i) => {
    const date = `2026-02-${String(i + 1).padStart(2, '0')}`
    const friday = new Date(`${date}T12:00:00Z`).getUTCDay() === 5
    return {
      date,
      fajr: '05:40', sunrise: '07:20', dhuhr: '12:20', asr: '14:40', maghrib: '17:10', isha: '18:40',
      iqamah: { fajr: '06:00', dhuhr: '12:45', asr: '15:00', maghrib: '17:15', isha: '19:00' },
      ...(friday ? { jumuah: [{ khutbah: '12:45', iqamah: '13:15' }] } : {}),
    }
  })
  return { period: '2026-02', timezone: 'Europe/London', calculation: { method: 'MWL', asrSchool: 'STANDARD', fajrAngle: 18, ishaAngle: 17 }, days }
}
const LOCATION_EXAMPLE = { name: 'Central Mosque', city: 'London', country: 'GB', latitude: 51.52, longitude: -0.08 }
const CHECKSUM_EXAMPLE = 'sha256:9f2c4e1b7a0d5c3e8f6a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e'
const pushExample = (replay: boolean) => ({
  success: true, replay, sourceId: SOURCE_ID, period: '2026-02', checksum: CHECKSUM_EXAMPLE, revision: 3, location: LOCATION_EXAMPLE, dayCount: 28,
})
const schemas = { PrayerDay: Day, PrayerCalculation: Calculation, Iqamah, JumuahSession, Hijri, PrayerLocation: LocationSchema }

const pushDescription = [
  'Stores one complete, validated month of a prayer schedule for a Custom Push source (body: the month contract).',
  '201 with `replay: false` when a new revision is stored; 200 with `replay: true` for the same Idempotency-Key and the same bytes,',
  "and for a new key whose content (RFC 8785 checksum) equals the current revision's.",
  'Checks, in order: declared body size (a chunked body is measured while read, after the rate limit) → content type → sourceId pattern → credential → source access → rate limit →',
  'Idempotency-Key format → idempotency lookup → JSON → schema and month rules → write.',
].join(' ')

export const pushPrayerMonthDocs = routeDetail({
  operationId: 'pushPrayerMonth',
  summary: 'Push a complete prayer-schedule month',
  description: pushDescription,
  tags: ['Prayer schedules'],
  security: 'workspace',
  params: { sourceId: sourceIdDoc },
  headers: {
    'Idempotency-Key': {
      required: true,
      description: '12 to 160 printable ASCII characters, kept 24 hours, compared on the raw body bytes (else 400 INVALID_IDEMPOTENCY_KEY)',
      example: 'cms-prayer-2026-02-rev3',
      schema: { type: 'string', minLength: 12, maxLength: 160 },
    },
  },
  body: { name: 'PrayerMonth', schema: Month, examples: { february: { summary: 'February 2026 in London, with iqamah and jumuah', value: exampleMonth() } } },
  responses: {
    201: {
      description: 'a new revision was stored',
      headers: { Location: { description: 'the URL of the stored month', required: true, schema: { type: 'string' } } },
      name: 'PrayerPushResponse',
      schema: PushResponse,
      example: pushExample(false),
    },
    200: { description: 'replay: nothing new was stored', name: 'PrayerPushResponse', schema: PushResponse, example: pushExample(true) },
  },
  errors: {
    400: [PrayerCodes.INVALID_JSON, PrayerCodes.INVALID_IDEMPOTENCY_KEY, PrayerCodes.MULTIPLE_CREDENTIALS, PrayerCodes.INVALID_REQUEST],
    401: [PrayerCodes.AUTHENTICATION_REQUIRED],
    403: [PrayerCodes.SOURCE_NOT_FOUND_OR_FORBIDDEN],
    409: [PrayerCodes.IDEMPOTENCY_KEY_REUSED],
    413: [PrayerCodes.PAYLOAD_TOO_LARGE],
    422: [PrayerCodes.SCHEMA_VALIDATION_FAILED],
    429: [PrayerCodes.RATE_LIMITED],
  },
  errorExamples: PrayerErrorExamples,
  schemas,
})

export const readPrayerMonthDocs = routeDetail({
  operationId: 'readPrayerMonth',
  summary: 'Read a stored prayer-schedule month',
  description: 'The current revision of the month as stored (its canonical JSON), with its revision and checksum.',
  tags: ['Prayer schedules'],
  security: 'workspace',
  params: { sourceId: sourceIdDoc, period: { description: 'YYYY-MM (else 400 INVALID_REQUEST)', example: '2026-02' } },
  responses: {
    200: {
      description: 'the stored month',
      name: 'StoredPrayerMonthResponse',
      schema: StoredMonthResponse,
      example: {
        data: {
          sourceId: SOURCE_ID, period: '2026-02', revision: 3, checksum: CHECKSUM_EXAMPLE, storedAt: '2026-01-28T18:02:11.530Z',
          dayCount: 28, location: LOCATION_EXAMPLE, month: exampleMonth(),
        },
      },
    },
  },
  errors: {
    400: [PrayerCodes.MULTIPLE_CREDENTIALS, PrayerCodes.INVALID_REQUEST],
    401: [PrayerCodes.AUTHENTICATION_REQUIRED],
    403: [PrayerCodes.SOURCE_NOT_FOUND_OR_FORBIDDEN],
    404: [PrayerCodes.MONTH_NOT_FOUND],
  },
  errorExamples: PrayerErrorExamples,
  schemas,
})
