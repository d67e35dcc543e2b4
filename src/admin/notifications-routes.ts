import type { User } from '../people'
import { Elysia } from 'elysia'
import type { AdmissionPlugin } from '../access'
import { Type } from '@sinclair/typebox'
import type { AdminDeps } from './deps'
import { ApiError } from '../platform/errors'
import { routeDetail } from '../platform/openapi'
import { compile } from '../platform/validation'
import { applyProvisioningWithin, ProvisioningError } from '../provisioning'
import { NotificationCodes, NotificationSettings, readChannels, type NotificationService } from '../notifications'
import { ADMIN_API } from './branch-routes'
import { NotificationMessagesResponse, NotificationsSectionResponse, TestNotificationResponse } from './notifications-model'
import { actorOf, jsonAfterAdmission, ok } from './section-kit'
import { relativeDetails } from './branch-service'
import { applyMergePatch } from '../platform/merge-patch'
import { AdminCodes as C, AdminSectionErrorExamples } from './errors'

/*
 * The console's Notifications section (contract §25), administrators only: a workspace's
 * channels, limits and templates (applied as a provisioning document, so a file and the console
 * are checked by one schema and audited alike, secrets never shown again), the recent
 * deliveries and failures, the month's SMS count against its cap, and a test send.
 */

const MAX_BODY = 65_536
const closed = { additionalProperties: false } as const
const checkSettings = compile(NotificationSettings)
/** A JSON Merge Patch (RFC 7386) of the settings: an object; what it holds is checked once merged. */
const SettingsPatch = Type.Object({}, { additionalProperties: true, description: 'a JSON Merge Patch (RFC 7386) of the settings: the fields it names change (null removes one), every other keeps its value' })
const checkPatch = compile(SettingsPatch)
const TestSend = Type.Object({ channel: Type.Union([Type.Literal('sms'), Type.Literal('email')]), to: Type.String({ minLength: 1, maxLength: 254 }) }, closed)
const checkTest = compile(TestSend)


const tags = ['Admin']
const readForbidden = { 401: [C.AUTHENTICATION_FAILED], 403: [C.ROLE_FORBIDDEN], 404: [C.WORKSPACE_NOT_FOUND] } as const
const writeErrors = { 400: [C.INVALID_REQUEST, C.INVALID_JSON], 401: [C.AUTHENTICATION_FAILED], 403: [C.ORIGIN_FORBIDDEN, C.ROLE_FORBIDDEN], 404: [C.WORKSPACE_NOT_FOUND], 413: [C.PAYLOAD_TOO_LARGE], 422: [C.VALIDATION_FAILED] } as const
const params = { workspaceId: { description: 'the workspace', example: 'ws_demo' } }
const EXAMPLE = {
  data: {
    workspaceId: 'ws_demo',
    settings: { country: 'GB', sms: { url: 'https://api.twilio.com/2010-04-01/Accounts/AC123/Messages.json', body: 'To={to}&From=%2B441234567890&Body={text}' }, email: { host: 'smtp.branch.example', port: 587, security: 'starttls', username: 'lobby', from: 'lobby@branch.example' } },
    secretsSet: { smsHeaders: ['Authorization', 'Content-Type'], inboundSecret: true, smtpPassword: true },
    usage: { smsThisMonth: 212, smsPerMonth: 1000, capReached: false },
    pushKey: null,
  },
}

const readDocs = routeDetail({
  operationId: 'adminReadNotifications', summary: 'A workspace\'s notification settings', tags, security: 'sessionCookie', params,
  description: 'Contract §25: channels, limits and templates as a provisioning file writes them, without any secret (only which are set), the month\'s SMS count against its cap, and the VAPID public key.',
  responses: { 200: { description: 'the section', name: 'AdminNotificationsResponse', schema: NotificationsSectionResponse, example: EXAMPLE } },
  errors: readForbidden, errorExamples: AdminSectionErrorExamples,
})
const writeDocs = routeDetail({
  operationId: 'adminWriteNotifications', summary: 'Set a workspace\'s notification settings', tags, security: 'sessionCookie', params,
  description: 'The workspace\'s `notifications` as a provisioning file writes it, applied as one (same schema, same checks of templates, same audit entry without secrets). A secret left out keeps the stored one.',
  body: { name: 'AdminNotificationsRequest', schema: NotificationSettings, examples: { email: { summary: 'e-mail only', value: { email: { host: 'smtp.branch.example', port: 587, security: 'starttls', username: 'lobby', password: '…', from: 'lobby@branch.example' } } } } },
  responses: { 200: { description: 'the section after the change', name: 'AdminNotificationsResponse', schema: NotificationsSectionResponse, example: EXAMPLE } },
  errors: writeErrors, errorExamples: AdminSectionErrorExamples,
})
const patchDocs = routeDetail({
  operationId: 'adminPatchNotifications', summary: 'Change some of a workspace\'s notification settings', tags, security: 'sessionCookie', params,
  description: 'Contract §24: a JSON Merge Patch (RFC 7386) of the settings as `GET` shows them — what it names changes (null removes it), everything else keeps its value (templates, limits, the other channels, every secret). The merged settings are applied as the `PUT` applies them.',
  body: { name: 'AdminNotificationsPatch', schema: SettingsPatch, examples: { cap: { summary: 'a new monthly SMS cap only', value: { limits: { smsPerMonth: 2000 } } } } },
  responses: { 200: { description: 'the section after the change', name: 'AdminNotificationsResponse', schema: NotificationsSectionResponse, example: EXAMPLE } },
  errors: writeErrors, errorExamples: AdminSectionErrorExamples,
})
const messagesDocs = routeDetail({
  operationId: 'adminListNotificationMessages', summary: 'Recent notifications and failures', tags, security: 'sessionCookie', params,
  query: { failed: { description: '`true`: only FAILED and SKIPPED', example: 'true', required: false } },
  description: 'The 50 newest messages of the workspace: kind, channel, status, attempts, the last error. Never the recipient (the rows hold none).',
  responses: { 200: { description: 'the messages', name: 'AdminNotificationMessagesResponse', schema: NotificationMessagesResponse, example: { data: [{ id: 'ntf_01JD5', kind: 'called', channel: 'sms', status: 'SENT', attempts: 1, lastError: null, createdAt: 1795599672000, sentAt: 1795599673000, ticketId: 'tkt_01JD5', appointmentId: null }] } } },
  errors: readForbidden, errorExamples: AdminSectionErrorExamples,
})
const testDocs = routeDetail({
  operationId: 'adminTestNotification', summary: 'Send a test message', tags, security: 'sessionCookie', params,
  description: 'One SMS or e-mail now, through the workspace\'s gateway or SMTP server; the answer says whether it went (and why not). Recorded as kind `test` without its recipient.',
  body: { name: 'AdminTestNotificationRequest', schema: TestSend, examples: { sms: { summary: 'an SMS to the branch\'s phone', value: { channel: 'sms', to: '07400 123456' } } } },
  responses: { 200: { description: 'sent or not', name: 'AdminTestNotificationResponse', schema: TestNotificationResponse, example: { data: { sent: false, error: 'gateway answered HTTP 401' } } } },
  errors: { ...writeErrors, 422: [C.VALIDATION_FAILED, C.CHANNEL_NOT_CONFIGURED] }, errorExamples: AdminSectionErrorExamples,
})

export function adminNotificationRoutes(deps: AdminDeps, { access, notifications }: { access: AdmissionPlugin; notifications: NotificationService }) {
  const workspace = (id: string) => {
    const row = id.length <= 160 ? deps.db.$client.query<{ id: string; name: string }, [string]>('SELECT id, name FROM workspaces WHERE id = ?1').get(id) : null
    if (row === null) throw new ApiError(404, C.WORKSPACE_NOT_FOUND, `no workspace "${id.slice(0, 160)}"`)
    return row
  }
  const view = (workspaceId: string) => {
    const channels = readChannels(deps.db, workspaceId)
    return {
      data: {
        workspaceId,
        settings: channels?.settings ?? null,
        secretsSet: { smsHeaders: Object.keys(channels?.secrets.smsHeaders ?? {}), inboundSecret: channels?.secrets.inboundSecret !== undefined, smtpPassword: channels?.secrets.smtpPassword !== undefined },
        usage: notifications.usage(workspaceId, deps.clock.now()),
        pushKey: channels?.settings.webPush !== undefined ? channels.vapid?.publicKey ?? null : null,
      },
    }
  }

  /**
   * Stores the workspace's notification settings `settingsOf` gives (read inside the write, so a
   * patch merges into what is stored then) through provisioning's one validator and write, and
   * answers with the section's view; a refusal is 422 at the settings' own pointers.
   */
  async function save(ws: { id: string; name: string }, user: User, settingsOf: (workspaceId: string) => unknown) {
    const now = deps.clock.now()
    await deps.writes.run(() => {
      try {
        applyProvisioningWithin(deps.db, { workspaces: [{ id: ws.id, name: ws.name, notifications: settingsOf(ws.id) }] }, now, deps.ids, actorOf(user))
      } catch (error) {
        if (error instanceof ProvisioningError) throw new ApiError(422, C.VALIDATION_FAILED, 'request validation failed', relativeDetails(error.details, '/workspaces/0/notifications'))
        throw error
      }
    })
    deps.log({ level: 'info', msg: 'notification settings changed', by: user.username, workspace: ws.id })
    return ok(200, view(ws.id))
  }

  return new Elysia({ name: 'lobby.admin.notifications' })
    .use(access)
    .get(`${ADMIN_API}/workspaces/:workspaceId/notifications`, async ({ request, params, principal }) => {
      return ok(200, view(workspace(params.workspaceId).id))
    }, { admitConsole: { who: 'admin' }, detail: readDocs })
    .put(`${ADMIN_API}/workspaces/:workspaceId/notifications`, async ({ request, params, principal }) => {
      const body = await jsonAfterAdmission(request, MAX_BODY, checkSettings)
      return save(workspace(params.workspaceId), principal.user, () => body)
    }, { admitConsole: { who: 'admin', body: MAX_BODY }, parse: 'none', detail: writeDocs })
    .patch(`${ADMIN_API}/workspaces/:workspaceId/notifications`, async ({ request, params, principal }) => {
      const body = await jsonAfterAdmission(request, MAX_BODY, checkPatch)
      // The settings as they are (no secret: a secret left out keeps the stored one), the patch merged in.
      return save(workspace(params.workspaceId), principal.user, (ws) => applyMergePatch(readChannels(deps.db, ws)?.settings ?? {}, body))
    }, { admitConsole: { who: 'admin', body: MAX_BODY }, parse: 'none', detail: patchDocs })
    .get(`${ADMIN_API}/workspaces/:workspaceId/notifications/messages`, async ({ request, params, query, principal }) => {
      const ws = workspace(params.workspaceId)
      return ok(200, { data: notifications.recent(ws.id, query.failed === 'true') })
    }, { admitConsole: { who: 'admin' }, query: Type.Object({ failed: Type.Optional(Type.String({ maxLength: 5 })) }), detail: messagesDocs })
    .post(`${ADMIN_API}/workspaces/:workspaceId/notifications/test`, async ({ request, params, principal }) => {
      const body = await jsonAfterAdmission(request, 4_096, checkTest)
      const user = principal.user
      const ws = workspace(params.workspaceId)
      let error: string | null
      try {
        error = await notifications.testSend(ws.id, body.channel, body.to, deps.clock.now())
      } catch (e) {
        if (e instanceof ApiError && e.code === NotificationCodes.CHANNEL_NOT_CONFIGURED) throw new ApiError(422, C.CHANNEL_NOT_CONFIGURED, e.message)
        throw e
      }
      deps.log({ level: 'info', msg: 'notification test sent', by: user.username, workspace: ws.id, channel: body.channel, sent: error === null })
      return ok(200, { data: { sent: error === null, error } })
    }, { admitConsole: { who: 'admin', body: 4_096 }, parse: 'none', detail: testDocs })
}
