import { Type } from '@sinclair/typebox'
import { NotificationSettings } from '../notifications'

/*
 * The console's Notifications section (contract §25): the schemas of its answers, for the
 * OpenAPI document (./notifications-routes.ts) and the wire contract (src/contract/wire.ts).
 */

const closed = { additionalProperties: false } as const

/** `GET`/`PUT`/`PATCH …/notifications`: the section. */
export const NotificationsSectionResponse = Type.Object({
  data: Type.Object({
    workspaceId: Type.String(),
    settings: Type.Union([NotificationSettings, Type.Null()], { description: 'as a provisioning file writes them, without secrets; null: not set up' }),
    secretsSet: Type.Object({
      smsHeaders: Type.Array(Type.String(), { description: 'the names of the gateway\'s headers (their values are never shown again)' }),
      inboundSecret: Type.Boolean(),
      smtpPassword: Type.Boolean(),
    }, closed),
    usage: Type.Union([Type.Object({ smsThisMonth: Type.Integer(), smsPerMonth: Type.Integer(), capReached: Type.Boolean({ description: 'the monthly cap stopped SMS this month' }) }, closed), Type.Null()]),
    pushKey: Type.Union([Type.String(), Type.Null()], { description: 'the VAPID public key' }),
  }, closed),
}, closed)
const MessageView = Type.Object({
  id: Type.String({ description: 'the messageId' }),
  kind: Type.String(), channel: Type.String(), status: Type.String(), attempts: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]), createdAt: Type.Integer(), sentAt: Type.Union([Type.Integer(), Type.Null()]),
  ticketId: Type.Union([Type.String(), Type.Null()]), appointmentId: Type.Union([Type.String(), Type.Null()]),
}, closed)
export const NotificationMessagesResponse = Type.Object({ data: Type.Array(MessageView) }, closed)
export const TestNotificationResponse = Type.Object({ data: Type.Object({ sent: Type.Boolean(), error: Type.Union([Type.String(), Type.Null()]) }, closed) }, closed)
