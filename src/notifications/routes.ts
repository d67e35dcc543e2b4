import { Elysia } from 'elysia'
import { assertSameOrigin } from '../access'
import { Type } from '@sinclair/typebox'
import type { NotificationsDeps } from './deps'
import { ApiError } from '../platform/errors'
import { json } from '../platform/http'
import { admitRate, clientAddressOf, RateBuckets } from '../platform/admission'
import { admitAnonymousForm } from '../platform/anonymous-forms'
import { parseJsonBytes } from '../platform/body'
import type { PeerSource } from '../platform/client-address'
import { assertSchema, compile } from '../platform/validation'
import { TRACKING_CODE_PATTERN, type TicketRow } from '../tickets'
import { NotificationCodes as C } from './errors'
import { InboundBody, NotifyBody, listContactsDocs, notifyDocs, pushKeyDocs, removeContactsDocs, smsInboundDocs } from './docs'
import type { NotificationService, OptIn } from './service'

export const PHONE_API = '/api/phone/v1'
export const NOTIFICATIONS_API = '/api/notifications/v1'
/** As the phone page's other changes (src/phone/routes.ts). */
const WRITES_PER_ADDRESS = 30
const READS_PER_ADDRESS = 600
/** A gateway posts replies from one or a few addresses: generous, but a flood is refused before its body is read. */
const INBOUND_PER_ADDRESS = 600

const checkNotify = compile(NotifyBody)
const checkInbound = compile(InboundBody)
const NO_STORE = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }

/**
 * Contract §25's routes: the phone page's "Notify me" (`/api/phone/v1/tickets/{code}/notify`:
 * POST opts in, GET lists masked, DELETE removes), the VAPID public key, and the gateway's
 * signed SMS replies. The console's Notifications section is in src/admin.
 */
export function notificationRoutes(deps: NotificationsDeps, { notifications }: { notifications: NotificationService }) {
  const ticketOf = (code: string): TicketRow | null => (TRACKING_CODE_PATTERN.test(code) ? deps.tickets.byTrackingCode(code) : null)
  const notFound = () => new ApiError(404, C.TICKET_NOT_FOUND, 'no ticket has this code')

  /** A change from the phone page, admitted as its other changes are (contract §27 anonymous forms). */
  async function admitChange(request: Request, server: PeerSource | null, code: string): Promise<Uint8Array> {
    const { raw } = await admitAnonymousForm(deps, request, server, {
      before: () => assertSameOrigin(request, deps.publicOrigin, 'the phone page changes a ticket only from a page of this server (Origin does not match)'),
      rate: { bucket: RateBuckets.phoneWritePerAddress, limit: WRITES_PER_ADDRESS, message: (retry) => `too many changes; retry after ${retry} s` },
      code: () => {
        if (ticketOf(code) === null) throw notFound()
      },
    })
    return raw
  }
  const contacts = (status: number, ticket: TicketRow) => json(status, { data: { contacts: notifications.contactsOf(ticket.id), channels: notifications.channelsOfUnit(ticket.queueUnitId) } }, NO_STORE)

  return new Elysia({ name: 'lobby.notifications' })
    .post(`${PHONE_API}/tickets/:code/notify`, async ({ params, request, server }) => {
      const raw = await admitChange(request, server, params.code)
      const body = parseJsonBytes(raw)
      assertSchema(checkNotify, body, C.VALIDATION_FAILED)
      const found = ticketOf(params.code)
      if (found === null) throw notFound()
      const contact = await notifications.prepare(found, body as OptIn)
      const ticket = await deps.writes.run(() => {
        // Read again inside the write: a desk's change a moment earlier wins.
        const ticket = ticketOf(params.code)
        if (ticket === null) throw notFound()
        notifications.optIn(ticket, contact, deps.clock.now())
        return ticket
      })
      deps.log({ level: 'info', msg: 'notification contact added', ticket: ticket.id, channel: contact.channel })
      return contacts(201, ticket)
    }, { parse: 'none', detail: notifyDocs })
    .get(`${PHONE_API}/tickets/:code/notify`, ({ params, request, server }) => {
      admitRate(deps.limiter, RateBuckets.phonePerAddress, clientAddressOf(deps.clients, request, server), READS_PER_ADDRESS, deps.clock.now(), (retry) => `too many requests; retry after ${retry} s`)
      const ticket = ticketOf(params.code)
      if (ticket === null) throw notFound()
      return contacts(200, ticket)
    }, { detail: listContactsDocs })
    .delete(`${PHONE_API}/tickets/:code/notify`, async ({ params, request, server }) => {
      await admitChange(request, server, params.code)
      const ticket = await deps.writes.run(() => {
        const found = ticketOf(params.code)
        if (found === null) throw notFound()
        notifications.remove(found.id)
        return found
      })
      deps.log({ level: 'info', msg: 'notification contacts removed by the customer', ticket: ticket.id })
      return contacts(200, ticket)
    }, { parse: 'none', detail: removeContactsDocs })
    .get(`${PHONE_API}/push-key`, ({ query, request, server }) => {
      admitRate(deps.limiter, RateBuckets.phonePerAddress, clientAddressOf(deps.clients, request, server), READS_PER_ADDRESS, deps.clock.now(), (retry) => `too many requests; retry after ${retry} s`)
      let workspaceId: string | null = null
      if (typeof query.code === 'string' && query.code !== '') {
        const ticket = ticketOf(query.code)
        if (ticket === null) throw notFound()
        workspaceId = notifications.workspaceOf(ticket)
      }
      const key = notifications.pushKey(workspaceId)
      if (key === null) throw new ApiError(404, C.NOT_FOUND, 'web push is not set up here')
      return json(200, { data: { publicKey: key } }, { 'cache-control': 'no-cache' })
    }, { query: Type.Object({ code: Type.Optional(Type.String({ maxLength: 32 })) }), detail: pushKeyDocs })
    .post(`${NOTIFICATIONS_API}/sms/inbound`, async ({ request, server }) => {
      // The signature is over the raw body: read it (bounded, from the anonymous budget), then verify before parsing.
      const { raw } = await admitAnonymousForm(deps, request, server, {
        rate: { bucket: RateBuckets.smsInboundPerAddress, limit: INBOUND_PER_ADDRESS, message: (retry) => `too many replies; retry after ${retry} s` },
      })
      const channels = notifications.verifyInbound(raw, request.headers.get('x-lobby-signature'))
      if (channels === null) throw new ApiError(401, C.AUTHENTICATION_FAILED, 'the reply is not signed with the inbound secret')
      const body = parseJsonBytes(raw)
      assertSchema(checkInbound, body, C.VALIDATION_FAILED)
      const { from, text } = body as { from: string; text: string }
      const outcome = await deps.writes.run(() => notifications.reply(channels, from, text, deps.clock.now()))
      deps.log({ level: 'info', msg: 'SMS reply', outcome })
      return json(200, { data: { outcome } }, NO_STORE)
    }, { parse: 'none', detail: smsInboundDocs })
}
