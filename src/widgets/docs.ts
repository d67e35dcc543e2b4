import { routeDetail } from '../platform/openapi'
import { PUSH_ERROR_STATUSES, WidgetErrorExamples } from './errors'
import {
  ENVELOPES, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_MIN, PAYLOADS, PushResponseSchema, PushSourceSchema, PushWarningSchema,
  WIDGET_TYPES, byWidgetType, type WidgetType,
} from './model'

/*
 * The OpenAPI details of the widget data push (src/widgets/routes.ts): an envelope schema and a
 * realistic example per widget type, the response and its headers, and the error codes.
 */

const revisionHeader = { description: 'The dataRevision of the response', required: true, schema: { type: 'integer' as const } }

const pushEnvelopeNames = byWidgetType((type) => `${type.split('_').map((w) => w[0] + w.slice(1).toLowerCase()).join('')}Push`)
const pushEnvelopeSchemas = Object.fromEntries(WIDGET_TYPES.map((type) => [pushEnvelopeNames[type], ENVELOPES[type]]))
const payloadSchemas = Object.fromEntries(WIDGET_TYPES.map((type) => [`${pushEnvelopeNames[type].slice(0, -'Push'.length)}Payload`, PAYLOADS[type].schema]))

/** A realistic push of each widget type (the demo's lobby widgets). */
const PUSH_EXAMPLES: Record<WidgetType, unknown> = {
  TODAYS_SCHEDULE: {
    title: "Today's schedule",
    locale: 'en-GB',
    timezone: 'Europe/Berlin',
    date: '2026-11-25',
    items: [
      { id: 'opening', title: 'Branch opens', startAt: '2026-11-25T09:00:00+01:00', endAt: '2026-11-25T09:15:00+01:00', location: 'Main hall', status: 'SCHEDULED' },
      { id: 'pension-advice', title: 'Pension advice drop-in', startAt: '2026-11-25T10:00:00+01:00', endAt: '2026-11-25T12:00:00+01:00', location: 'Room 2', host: 'A. Rahman', status: 'IN_PROGRESS' },
    ],
  },
  ANNOUNCEMENTS: {
    title: 'Notices',
    locale: 'en-GB',
    items: [
      { id: 'closure-dec-24', title: 'Closed on 24 December', body: 'The branch is closed on 24 December. Cash machines stay open.', priority: 'HIGH', category: 'Opening hours', displaySeconds: 20 },
    ],
  },
  EVENTS: {
    title: 'Events this week',
    timezone: 'Europe/Berlin',
    items: [
      { id: 'workshop-2026-11-27', title: 'Online banking workshop', startAt: '2026-11-27T14:00:00+01:00', endAt: '2026-11-27T15:30:00+01:00', location: 'Annex', organizer: 'Branch team', status: 'SCHEDULED' },
    ],
  },
  TRANSPORT_BOARD: {
    title: 'Departures',
    timezone: 'Europe/Berlin',
    stop: { id: 'de:11000:900100001', name: 'Friedrichstraße' },
    items: [
      { id: 'u6-0935', direction: 'DEPARTURE', line: { shortName: 'U6', color: '#7D66AB', textColor: '#FFFFFF' }, destination: 'Alt-Mariendorf', scheduledAt: '2026-11-25T09:35:00+01:00', status: 'ON_TIME', platform: '2' },
      { id: 's1-0938', direction: 'DEPARTURE', line: { shortName: 'S1' }, destination: 'Wannsee', scheduledAt: '2026-11-25T09:38:00+01:00', estimatedAt: '2026-11-25T09:42:00+01:00', status: 'DELAYED', remarks: 'Signal failure' },
    ],
  },
}

export const pushWidgetDataDocs = routeDetail({
  operationId: 'pushWidgetData',
  summary: 'Push a widget snapshot',
  description:
    'Replaces the whole data snapshot of one widget (no partial patches). Checks run in this order: ' +
    'declared body size (1 MiB; a chunked body is measured while read, after the rate limit) → Content-Type includes application/json → credential (exactly one of ' +
    'Authorization: Bearer / x-service-api-key) → widget access → rate limit (per widget, default 120 per rolling ' +
    'minute) → Idempotency-Key format → idempotency lookup on the raw bytes → JSON → envelope and payload schema ' +
    '(every failing path listed as a JSON Pointer) → source.sequence → write. Text fields must not contain HTML ' +
    `(a '<' followed by a letter, '/', '!' or '?'). Widget types: ${WIDGET_TYPES.join(', ')}.`,
  tags: ['Widgets'],
  security: 'workspace',
  params: { widgetId: { description: 'a widget of the key\'s workspace with an active push source', example: 'wdg_schedule_lobby' } },
  headers: {
    'Idempotency-Key': {
      required: false,
      description: `Optional, strongly recommended: ${IDEMPOTENCY_KEY_MIN} to ${IDEMPOTENCY_KEY_MAX} characters, kept 24 hours. ` +
        'The same key with the same raw body replays the original response; any changed byte is 409 IDEMPOTENCY_KEY_REUSED.',
      example: 'cms-schedule-2026-11-25-0042',
      schema: { type: 'string', minLength: IDEMPOTENCY_KEY_MIN, maxLength: IDEMPOTENCY_KEY_MAX },
    },
    'X-Correlation-ID': { description: '1 to 120 of [A-Za-z0-9_.:-]; echoed, else generated', example: 'cms-push-0042' },
  },
  body: {
    name: 'WidgetPushRequest',
    description: 'The push envelope; `data` is the payload of the widget\'s type.',
    schema: { oneOf: WIDGET_TYPES.map((type) => ENVELOPES[type]), discriminator: { propertyName: 'widgetType', mapping: Object.fromEntries(WIDGET_TYPES.map((type) => [type, `#/components/schemas/${pushEnvelopeNames[type]}`])) } },
    examples: Object.fromEntries(WIDGET_TYPES.map((type, i) => [type, {
      summary: `A ${type} snapshot`,
      value: {
        pushVersion: 1,
        widgetType: type,
        writeMode: 'REPLACE_SNAPSHOT',
        source: { eventId: `cms-${type.toLowerCase()}-0042`, sequence: 42 + i, generatedAt: '2026-11-25T09:29:58+01:00' },
        data: { schemaVersion: 2, ...(PUSH_EXAMPLES[type] as object) },
      },
    }])),
  },
  responses: {
    200: {
      description: 'Snapshot accepted, or the replay of an earlier identical request (`Idempotent-Replayed: true`)',
      headers: {
        'X-Service-Data-Revision': revisionHeader,
        'Idempotent-Replayed': { description: '`true` on a replay of an earlier identical request', schema: { type: 'string' as const, enum: ['true'] } },
      },
      name: 'WidgetPushResponse',
      schema: PushResponseSchema,
      example: {
        accepted: true, widgetId: 'wdg_schedule_lobby', widgetType: 'TODAYS_SCHEDULE', dataRevision: 17, schemaVersion: 2,
        acceptedAt: '2026-11-25T08:30:00.412Z', itemCount: 2, warnings: [],
      },
    },
  },
  errors: PUSH_ERROR_STATUSES,
  errorExamples: WidgetErrorExamples,
  schemas: { ...pushEnvelopeSchemas, ...payloadSchemas, PushSource: PushSourceSchema, PushWarning: PushWarningSchema },
})
