import { describe, expect, test } from 'bun:test'
import { ManageCodes } from '../../src/manage/errors'
import { jsonOf, request, testContext } from '../support/app'
import { QueueCodes } from '../../src/queue/errors'
import { CounterCodes } from '../../src/counters/errors'
import { ReportCodes } from '../../src/reports/errors'
import { WidgetCodes } from '../../src/widgets/errors'
import { PrayerCodes } from '../../src/prayer/errors'
import { DisplayCodes } from '../../src/display/errors'
import { CommonCodes } from '../../src/platform/errors'
import { DeviceCodes } from '../../src/devices/errors'
import { OpsCodes } from '../../src/ops/routes'
import { VoiceCodes } from '../../src/voice/errors'
import { KioskCodes } from '../../src/kiosk/errors'
import { JoinCodes } from '../../src/join/errors'
import { PhoneCodes } from '../../src/phone/errors'
import { PeopleCodes } from '../../src/people/errors'
import { AdminCodes } from '../../src/admin/errors'
import { DeskClerkCodes } from '../../src/desk/errors'
import { AppointmentCodes } from '../../src/appointments/errors'
import { NotificationCodes } from '../../src/notifications/errors'

/** Every operation, by path and method, with its operationId: generated clients name their functions after these. */
const OPERATIONS: Record<string, string> = {
  'get /health': 'checkHealth',
  'get /api/public/v1/queue/services': 'listServices',
  'post /api/public/v1/queue/tickets': 'issueTicket',
  'get /api/public/v1/queue/tickets/{ticketId}': 'readTicket',
  'get /api/public/v1/queue/state': 'readLiveState',
  'post /api/public/v1/widgets/{widgetId}/data/push': 'pushWidgetData',
  'post /api/public/v1/prayer-schedules/sources/{sourceId}/months': 'pushPrayerMonth',
  'get /api/public/v1/prayer-schedules/sources/{sourceId}/months/{period}': 'readPrayerMonth',
  'post /api/operator/v1/counters/{counterId}/open': 'openCounter',
  'post /api/operator/v1/counters/{counterId}/close': 'closeCounter',
  'post /api/operator/v1/counters/{counterId}/call-next': 'callNextTicket',
  'post /api/operator/v1/tickets': 'issueWalkInTicket',
  'post /api/operator/v1/tickets/{ticketId}/call': 'callTicket',
  'post /api/operator/v1/tickets/{ticketId}/recall': 'recallTicket',
  'post /api/operator/v1/tickets/{ticketId}/start': 'startServingTicket',
  'post /api/operator/v1/tickets/{ticketId}/complete': 'completeTicket',
  'post /api/operator/v1/tickets/{ticketId}/no-show': 'markTicketNoShow',
  'post /api/operator/v1/tickets/{ticketId}/cancel': 'cancelTicket',
  'post /api/operator/v1/tickets/{ticketId}/requeue': 'requeueTicket',
  'post /api/operator/v1/tickets/{ticketId}/reinstate': 'reinstateTicket',
  'post /api/operator/v1/tickets/{ticketId}/transfer': 'transferTicket',
  'get /api/operator/v1/queue': 'readQueueOverview',
  'get /api/operator/v1/tickets/{ticketId}/events': 'listTicketEvents',
  'get /api/display/v1/widgets/{widgetId}': 'readDisplayWidget',
  'get /api/display/v1/queue-units/{queueUnitId}/state': 'readDisplayQueueState',
  'get /api/display/v1/prayer-schedules/sources/{sourceId}/months/{period}': 'readDisplayPrayerMonth',
  'get /api/display/v1/prayer-schedules/sources/{sourceId}/today': 'readDisplayPrayerToday',
  'post /api/devices/v1/pair': 'pairDevice',
  'get /api/devices/v1/device': 'readDevice',
  'get /api/devices/v1/boards': 'listDeviceBoards',
  'get /api/devices/v1/desk': 'readDeskView',
  'post /api/devices/v1/desk/clerk': 'signInDeskClerk',
  'delete /api/devices/v1/desk/clerk': 'signOutDeskClerk',
  'get /api/devices/v1/kiosk': 'readKioskView',
  'post /api/devices/v1/kiosk/tickets': 'issueKioskTicket',
  'get /api/phone/v1/tickets/{code}': 'readTicketByTrackingCode',
  'post /join/{locationId}': 'issueJoinTicket',
  'post /api/phone/v1/tickets/{code}/leave': 'leaveQueueByTrackingCode',
  'post /api/phone/v1/tickets/{code}/more-time': 'askMoreTimeByTrackingCode',
  'post /api/phone/v1/tickets/{code}/notify': 'notifyMe',
  'get /api/phone/v1/tickets/{code}/notify': 'listNotifyContacts',
  'delete /api/phone/v1/tickets/{code}/notify': 'removeNotifyContacts',
  'get /api/phone/v1/push-key': 'readPushKey',
  'get /api/admin/v1/workspaces/{workspaceId}/notifications': 'adminReadNotifications',
  'put /api/admin/v1/workspaces/{workspaceId}/notifications': 'adminWriteNotifications',
  'patch /api/admin/v1/workspaces/{workspaceId}/notifications': 'adminPatchNotifications',
  'get /api/admin/v1/workspaces/{workspaceId}/notifications/messages': 'adminListNotificationMessages',
  'post /api/admin/v1/workspaces/{workspaceId}/notifications/test': 'adminTestNotification',
  'post /api/notifications/v1/sms/inbound': 'receiveSmsReply',
  'post /api/phone/v1/tickets/{code}/feedback': 'rateVisitByTrackingCode',
  'get /metrics': 'readMetrics',
  'get /api/display/v1/queue-units/{queueUnitId}/voice': 'readVoiceManifest',
  'get /api/display/v1/voice-clips/{lang}/{name}': 'readVoiceClip',
  'get /api/operator/v1/reports/daily': 'readDailyReport',
  'get /api/operator/v1/reports/staff': 'readStaffReport',
  'get /api/operator/v1/reports/feedback': 'readFeedbackReport',
  'get /api/operator/v1/reports/counters': 'readCounterReport',
  'get /api/operator/v1/reports/summary': 'readReportSummary',
  'post /api/auth/v1/sessions': 'signIn',
  'get /api/auth/v1/sessions/current': 'readCurrentSession',
  'delete /api/auth/v1/sessions/current': 'signOut',
  'get /api/admin/v1/queue-units': 'listAdminQueueUnits',
  'post /api/admin/v1/queue-units': 'createAdminQueueUnit',
  'get /api/admin/v1/workspaces': 'listAdminWorkspaces',
  'post /api/admin/v1/workspaces': 'createAdminWorkspace',
  'patch /api/admin/v1/workspaces/{workspaceId}': 'patchAdminWorkspace',
  'get /api/admin/v1/queue-units/{unitId}': 'readAdminQueueUnit',
  'put /api/admin/v1/queue-units/{unitId}': 'updateAdminQueueUnit',
  'get /api/admin/v1/queue-units/{unitId}/locations': 'listAdminLocations',
  'post /api/admin/v1/queue-units/{unitId}/locations': 'createAdminLocation',
  'get /api/admin/v1/queue-units/{unitId}/locations/{id}': 'readAdminLocation',
  'put /api/admin/v1/queue-units/{unitId}/locations/{id}': 'updateAdminLocation',
  'delete /api/admin/v1/queue-units/{unitId}/locations/{id}': 'deleteAdminLocation',
  'get /api/admin/v1/queue-units/{unitId}/services': 'listAdminServices',
  'post /api/admin/v1/queue-units/{unitId}/services': 'createAdminService',
  'get /api/admin/v1/queue-units/{unitId}/services/{id}': 'readAdminService',
  'put /api/admin/v1/queue-units/{unitId}/services/{id}': 'updateAdminService',
  'delete /api/admin/v1/queue-units/{unitId}/services/{id}': 'deleteAdminService',
  'get /api/admin/v1/queue-units/{unitId}/counters': 'listAdminCounters',
  'post /api/admin/v1/queue-units/{unitId}/counters': 'createAdminCounter',
  'get /api/admin/v1/queue-units/{unitId}/counters/{id}': 'readAdminCounter',
  'put /api/admin/v1/queue-units/{unitId}/counters/{id}': 'updateAdminCounter',
  'delete /api/admin/v1/queue-units/{unitId}/counters/{id}': 'deleteAdminCounter',
  'get /api/admin/v1/audit': 'readAdminAudit',
  'post /api/auth/v1/setup': 'completeSetup',
  'get /api/manage/v1/queue-units': 'listManagedUnits',
  'get /api/manage/v1/queue-units/{queueUnitId}/floor': 'readFloor',
  'post /api/manage/v1/queue-units/{queueUnitId}/counters/{counterId}/open': 'openFloorCounter',
  'post /api/manage/v1/queue-units/{queueUnitId}/counters/{counterId}/close': 'closeFloorCounter',
  // The console's devices, staff, keys, webhooks and voice sections (contract §17).
  'post /api/admin/v1/devices/pairings': 'adminPairDevice',
  'get /api/admin/v1/devices': 'adminListDevices',
  'post /api/admin/v1/devices/{name}/revoke': 'adminRevokeDevice',
  'get /api/admin/v1/users': 'adminListUsers',
  'post /api/admin/v1/users': 'adminAddUser',
  'patch /api/admin/v1/queue-units/{unitId}': 'patchAdminQueueUnit',
  'patch /api/admin/v1/queue-units/{unitId}/counters/{id}': 'patchAdminCounter',
  'patch /api/admin/v1/queue-units/{unitId}/locations/{id}': 'patchAdminLocation',
  'patch /api/admin/v1/queue-units/{unitId}/services/{id}': 'patchAdminService',
  'patch /api/admin/v1/users/{username}': 'adminChangeUser',
  'post /api/admin/v1/users/{username}/disable': 'adminDisableUser',
  'post /api/admin/v1/users/{username}/reset': 'adminResetUser',
  'get /api/admin/v1/keys': 'adminListKeys',
  'post /api/admin/v1/keys': 'adminCreateKey',
  'post /api/admin/v1/keys/rotate': 'adminRotateKey',
  'post /api/admin/v1/keys/revoke': 'adminRevokeKey',
  'get /api/admin/v1/webhooks': 'adminListWebhooks',
  'post /api/admin/v1/webhooks': 'adminCreateWebhook',
  'patch /api/admin/v1/webhooks/{id}': 'adminChangeWebhook',
  'post /api/admin/v1/webhooks/{id}/disable': 'adminDisableWebhook',
  'post /api/admin/v1/webhooks/{id}/test': 'adminTestWebhook',
  'get /api/admin/v1/webhooks/deliveries': 'adminListWebhookDeliveries',
  'get /api/admin/v1/webhooks/deliveries/{id}': 'adminReadWebhookDelivery',
  'post /api/admin/v1/webhooks/deliveries/{id}/redeliver': 'adminRedeliverWebhook',
  'get /api/admin/v1/voice/clips': 'adminListVoiceClips',
  'put /api/admin/v1/voice/clips/{lang}/{name}': 'adminUploadVoiceClip',
  'get /api/admin/v1/voice/clips/{lang}/{name}': 'adminPlayVoiceClip',
  'delete /api/admin/v1/voice/clips/{lang}/{name}': 'adminRemoveVoiceClip',
  'get /api/operator/v1/appointments': 'listAppointments',
  'get /api/operator/v1/appointments/slots': 'listAppointmentSlots',
  'post /api/operator/v1/appointments': 'bookAppointment',
  'post /api/operator/v1/appointments/{id}/cancel': 'cancelAppointment',
  'post /api/operator/v1/appointments/{id}/check-in': 'checkInAppointment',
  'post /api/devices/v1/kiosk/appointments/check-in': 'checkInAppointmentAtKiosk',
  'get /api/operator/v1/reports/appointments': 'readAppointmentReport',
  'get /api/operator/v1/reports/appointments/csv': 'readAppointmentReportCsv',
}

/** The error codes each path prefix may answer with: the feature tables in errors.ts. */
const FEATURE_CODES: [string, readonly string[]][] = [
  ['/api/public/v1/queue/', Object.values(QueueCodes)],
  ['/api/operator/v1/reports/appointments', Object.values(AppointmentCodes)],
  ['/api/operator/v1/reports/', Object.values(ReportCodes)],
  ['/api/operator/v1/appointments', Object.values(AppointmentCodes)],
  ['/api/devices/v1/kiosk/appointments', Object.values(AppointmentCodes)],
  ['/api/operator/v1/', Object.values(CounterCodes)],
  ['/api/public/v1/widgets/', Object.values(WidgetCodes)],
  ['/api/public/v1/prayer-schedules/', Object.values(PrayerCodes)],
  ['/api/display/v1/voice-clips/', Object.values(VoiceCodes)],
  ['/api/display/v1/queue-units/{queueUnitId}/voice', Object.values(VoiceCodes)],
  ['/api/display/v1/', Object.values(DisplayCodes)],
  ['/api/devices/v1/desk/clerk', Object.values(DeskClerkCodes)],
  ['/api/devices/v1/desk', Object.values(CounterCodes)],
  ['/api/devices/v1/kiosk', Object.values(KioskCodes)],
  ['/api/phone/v1/tickets/{code}/notify', Object.values(NotificationCodes)],
  ['/api/phone/v1/push-key', Object.values(NotificationCodes)],
  ['/api/notifications/v1/', Object.values(NotificationCodes)],
  ['/api/phone/v1/', Object.values(PhoneCodes)],
  ['/api/devices/v1/', Object.values(DeviceCodes)],
  ['/metrics', Object.values(OpsCodes)],
  ['/api/auth/v1/', Object.values(PeopleCodes)],
  ['/join/', Object.values(JoinCodes)],
  ['/api/manage/v1/', Object.values(ManageCodes)],
  ['/api/admin/v1/', Object.values(AdminCodes)],
  ['/health', []],
]

async function documentOf() {
  const { app } = testContext()
  return jsonOf(await request(app, 'GET', '/swagger/json'))
}

function* operations(doc: any): Generator<[string, any]> {
  for (const [path, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item as object)) yield [`${method} ${path}`, op]
}

const schemaOf = (doc: any, ref: string) => doc.components.schemas[ref.replace('#/components/schemas/', '')]

describe('the OpenAPI document (contract §15)', () => {
  test('operationIds: exactly these, lowerCamelCase, unique; every operation tagged with a described tag', async () => {
    const doc = await documentOf()
    const found = Object.fromEntries([...operations(doc)].map(([key, op]) => [key, op.operationId]))
    expect(found).toEqual(OPERATIONS)
    const ids = Object.values(found)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/)
    // A route that reads a body may be 503 SERVER_BUSY (the body budget); one that reads none may not.
    for (const [key, op] of operations(doc)) expect({ key, busy: '503' in op.responses }).toEqual({ key, busy: op.requestBody !== undefined })
    const tags = new Set(doc.tags.map((t: { name: string; description: string }) => t.description && t.name))
    for (const [, op] of operations(doc)) for (const tag of op.tags) expect(tags.has(tag)).toBe(true)
  })

  test('the display websocket is described in x-websockets, not as an operation', async () => {
    const doc = await documentOf()
    for (const item of Object.values(doc.paths)) expect(Object.keys(item as object)).not.toContain('ws')
    const live = doc['x-websockets']['/api/display/v1/live']
    expect(live.security).toEqual([{ displayToken: [] }, { displayTokenQuery: [] }, { deviceCookie: [] }])
    expect(Object.keys(live.clientMessages).sort()).toEqual(['heartbeat', 'subscribe'])
    expect(Object.keys(live.serverMessages).sort()).toEqual(['error', 'heartbeat', 'ping', 'snapshot', 'update'])
    expect(Object.keys(live.closeCodes).sort()).toEqual(['1012', '1013', '4401'])
  })

  test('every body is a named component with an example; every response has one too', async () => {
    const doc = await documentOf()
    for (const [key, op] of operations(doc)) {
      const body = op.requestBody?.content['application/json']
      if (body !== undefined) {
        expect({ key, ref: body.schema.$ref }).toEqual({ key, ref: expect.stringMatching(/^#\/components\/schemas\/\w+$/) })
        expect({ key, examples: Object.keys(body.examples).length > 0 }).toEqual({ key, examples: true })
      }
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        // Bodies that are not JSON: the metrics text, a voice clip's audio and the appointment report's CSV.
        const mediaType = status === '200' ? ({ readMetrics: 'text/plain', readVoiceClip: 'audio/wav', readAppointmentReportCsv: 'text/csv', adminPlayVoiceClip: 'audio/wav' } as Record<string, string>)[op.operationId] : undefined
        const content = response.content?.[mediaType ?? 'application/json']
        // 304 has no body; 303 is the join form's redirect to the phone page.
        if (status === '304' || status === '303') {
          expect(content).toBeUndefined()
          continue
        }
        expect({ key, status, ref: content.schema.$ref }).toEqual({ key, status, ref: expect.stringMatching(/^#\/components\/schemas\/\w+$/) })
        expect({ key, status, example: content.example !== undefined || Object.keys(content.examples ?? {}).length > 0 }).toEqual({ key, status, example: true })
        expect(response.headers['X-Correlation-ID']).toBeDefined()
      }
    }
    // A clip is served as imported: every media type it may have is listed (contract §11).
    expect(Object.keys(doc.paths['/api/display/v1/voice-clips/{lang}/{name}'].get.responses['200'].content).sort()).toEqual(['audio/mpeg', 'audio/ogg', 'audio/wav'])
    for (const name of ['QueueTicket', 'IssueTicketRequest', 'TicketResponse', 'WidgetPushRequest', 'TodaysSchedulePayload', 'TransportBoardPush', 'PrayerMonth', 'PrayerDay', 'ErrorDetail']) {
      expect(doc.components.schemas[name]).toBeDefined()
    }
  })

  test('error.code is an enum per operation: its declared codes, each from its feature\'s table, each with an example', async () => {
    const doc = await documentOf()
    for (const [key, op] of operations(doc)) {
      const path = key.split(' ')[1]!
      const allowed = [...FEATURE_CODES.find(([prefix]) => path.startsWith(prefix))![1], CommonCodes.INTERNAL_ERROR, CommonCodes.SERVER_BUSY]
      const errorStatuses = Object.keys(op.responses).filter((s) => Number(s) >= 400)
      const refs = new Set(errorStatuses.map((s) => op.responses[s].content['application/json'].schema.$ref))
      expect({ key, refs: [...refs] }).toEqual({ key, refs: [`#/components/schemas/${op.operationId[0].toUpperCase()}${op.operationId.slice(1)}Error`] })
      const codes: string[] = schemaOf(doc, [...refs][0]).properties.error.properties.code.enum
      const exemplified = errorStatuses.flatMap((s) => Object.keys(op.responses[s].content['application/json'].examples))
      expect({ key, codes: [...codes].sort() }).toEqual({ key, codes: [...new Set(exemplified)].sort() })
      for (const code of codes) expect({ key, code, known: allowed.includes(code) }).toEqual({ key, code, known: true })
      for (const s of errorStatuses) {
        for (const [code, example] of Object.entries(op.responses[s].content['application/json'].examples as Record<string, any>)) {
          expect(example.value.error.code).toBe(code)
          expect(example.value.error.message.length).toBeGreaterThan(0)
        }
      }
    }
    // Spot checks against the contract's tables.
    const issue = schemaOf(doc, '#/components/schemas/IssueTicketError').properties.error.properties.code.enum
    expect(issue).toEqual(expect.arrayContaining([QueueCodes.NONCE_REPLAYED, QueueCodes.REQUEST_TIMESTAMP_OUT_OF_WINDOW, QueueCodes.QUEUE_UNIT_EDGE_MANAGED]))
    expect(issue).not.toContain(QueueCodes.TICKET_NOT_FOUND)
    const month = schemaOf(doc, '#/components/schemas/PushPrayerMonthError').properties.error.properties.code.enum
    expect(month).not.toContain(PrayerCodes.MONTH_NOT_FOUND)
  })

  test('headers are required exactly when the server requires them', async () => {
    const doc = await documentOf()
    const headers = (key: string) => Object.fromEntries(
      doc.paths[key.split(' ')[1]!][key.split(' ')[0]!].parameters.filter((p: any) => p.in === 'header').map((p: any) => [p.name, p.required]),
    )
    expect(headers('post /api/public/v1/queue/tickets')).toEqual({ 'X-Request-Timestamp': true, 'X-Request-Nonce': true, 'Idempotency-Key': true, 'X-Correlation-ID': false })
    expect(headers('post /api/operator/v1/tickets')).toEqual({ 'Idempotency-Key': false })
    expect(headers('post /api/public/v1/widgets/{widgetId}/data/push')['Idempotency-Key']).toBe(false)
    expect(headers('post /api/public/v1/prayer-schedules/sources/{sourceId}/months')).toEqual({ 'Idempotency-Key': true })
    // Bodies: required except the operator actions that take none.
    expect(doc.paths['/api/operator/v1/tickets/{ticketId}/start'].post.requestBody.required).toBe(false)
    expect(doc.paths['/api/operator/v1/tickets/{ticketId}/call'].post.requestBody.required).toBe(true)
    expect(doc.paths['/api/public/v1/queue/tickets'].post.requestBody.required).toBe(true)
  })

  test('the documented requirements are the server\'s: the issue without each required header is refused', async () => {
    const { queueContext, issueHeaders, HALL_ACCOUNTS, TICKETS } = await import('../queue/helpers')
    const ctx = queueContext()
    for (const header of ['x-request-timestamp', 'x-request-nonce', 'idempotency-key']) {
      const res = await request(ctx.app, 'POST', TICKETS, { headers: issueHeaders(ctx, ctx.key('kiosk'), { headers: { [header]: undefined } }), body: HALL_ACCOUNTS })
      expect({ header, status: res.status, code: (await jsonOf(res)).error.code }).toEqual({ header, status: 400, code: QueueCodes.INVALID_REQUEST })
    }
  })
})
