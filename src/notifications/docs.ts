import { Type } from '@sinclair/typebox'
import { routeDetail } from '../platform/openapi'
import { NotificationCodes as C, NotificationErrorExamples } from './errors'

/*
 * The OpenAPI details of the notification routes (contract §25): the phone page's opt-in, its
 * removal and list, the VAPID public key, and the gateway's signed replies.
 */

const closed = { additionalProperties: false } as const
const Subscription = Type.Object({
  endpoint: Type.String({ minLength: 9, maxLength: 2048, description: 'the push service URL the browser gave (https:)' }),
  keys: Type.Object({
    p256dh: Type.String({ minLength: 20, maxLength: 200, pattern: '^[A-Za-z0-9_-]+=*$', description: 'the browser\'s P-256 public key (base64url)' }),
    auth: Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+=*$', description: 'the 16-byte auth secret (base64url)' }),
  }, closed),
}, { additionalProperties: true })

export const NotifyBody = Type.Union([
  Type.Object({ channel: Type.Literal('sms'), to: Type.String({ minLength: 1, maxLength: 40, description: 'a phone number in the local form of the branch\'s country, or + and the country code' }) }, closed),
  Type.Object({ channel: Type.Literal('email'), to: Type.String({ minLength: 3, maxLength: 254 }) }, closed),
  Type.Object({ channel: Type.Literal('webPush'), subscription: Subscription }, closed),
])

const ShownContact = Type.Object({
  channel: Type.Union([Type.Literal('sms'), Type.Literal('email'), Type.Literal('webPush')]),
  shown: Type.String({ description: 'the contact masked (+44 •••• ••34, a••••@e••••.com, "this browser"): never the whole number or address' }),
}, closed)
export const ContactsResponse = Type.Object({ data: Type.Object({
  contacts: Type.Array(ShownContact),
  channels: Type.Array(Type.Union([Type.Literal('sms'), Type.Literal('email'), Type.Literal('webPush')]), { description: 'the channels this branch sends through (the phone page offers only these; empty: no "Notify me")' }),
}, closed) }, closed)
export const PushKeyResponse = Type.Object({ data: Type.Object({ publicKey: Type.String({ description: 'the VAPID public key (base64url, uncompressed P-256): the browser\'s applicationServerKey' }) }, closed) }, closed)
export const InboundBody = Type.Object({
  from: Type.String({ minLength: 1, maxLength: 40, description: 'the sender\'s number' }),
  text: Type.String({ maxLength: 1600 }),
}, { additionalProperties: true })
export const InboundResponse = Type.Object({ data: Type.Object({ outcome: Type.Union(['left', 'more_time', 'help', 'refused', 'unknown'].map((o) => Type.Literal(o))) }, closed) }, closed)

const code = { code: { description: 'the tracking code of the ticket\'s phone page', example: 'k3v9q2m7x4c8h6b5n2r7t3w4' } }
const rules =
  'No credential: the tracking code is the capability; from a browser it must carry `Origin` equal to the server\'s origin (403 ORIGIN_FORBIDDEN). ' +
  '30 changes a minute per address (429). The answer lists the ticket\'s contacts masked; nothing shows a whole number or address again.'
const contactsExample = { data: { contacts: [{ channel: 'sms', shown: '+44 •••• ••23' }], channels: ['sms', 'email', 'webPush'] } }

export const notifyDocs = routeDetail({
  operationId: 'notifyMe',
  summary: 'Notify me: a phone number, an e-mail address or this browser for a ticket',
  description:
    'Contract §25: the customer opts in for this ticket\'s messages (approaching, called, missed turn). A number is read in the local form of the branch\'s ' +
    'country and kept as E.164; a push subscription\'s endpoint must be https: and public. Sending this is the consent. The contact is deleted 24 hours ' +
    'after the ticket ends, or at once by DELETE on this path. ' + rules,
  tags: ['Phone'],
  public: true,
  params: code,
  body: { name: 'NotifyRequest', schema: NotifyBody, examples: { sms: { summary: 'a number in local form', value: { channel: 'sms', to: '07700 900123' } }, email: { summary: 'an e-mail address', value: { channel: 'email', to: 'amira@example.com' } } } },
  responses: { 201: { description: 'stored (the same contact twice is kept once)', name: 'NotifyContactsResponse', schema: ContactsResponse, example: contactsExample } },
  errors: {
    400: [C.INVALID_JSON], 403: [C.ORIGIN_FORBIDDEN], 404: [C.TICKET_NOT_FOUND], 409: [C.TICKET_ENDED], 413: [C.PAYLOAD_TOO_LARGE],
    422: [C.VALIDATION_FAILED, C.CHANNEL_NOT_CONFIGURED, C.TOO_MANY_CONTACTS], 429: [C.RATE_LIMITED],
  },
  errorExamples: NotificationErrorExamples,
})

export const listContactsDocs = routeDetail({
  operationId: 'listNotifyContacts',
  summary: 'The ticket\'s contacts, masked',
  description: 'Contract §25: what the phone page shows under "Notify me". 600 reads a minute per address.',
  tags: ['Phone'],
  public: true,
  params: code,
  responses: { 200: { description: 'the contacts, masked', name: 'NotifyContactsResponse', schema: ContactsResponse, example: contactsExample } },
  errors: { 404: [C.TICKET_NOT_FOUND], 429: [C.RATE_LIMITED] },
  errorExamples: NotificationErrorExamples,
})

export const removeContactsDocs = routeDetail({
  operationId: 'removeNotifyContacts',
  summary: 'Remove every contact of the ticket',
  description: 'Contract §25: the customer takes back their number, address and browser; messages not yet sent to them are dropped. ' + rules,
  tags: ['Phone'],
  public: true,
  params: code,
  responses: { 200: { description: 'removed (the list is empty)', name: 'NotifyContactsResponse', schema: ContactsResponse, example: { data: { contacts: [], channels: ['sms', 'email'] } } } },
  errors: { 403: [C.ORIGIN_FORBIDDEN], 404: [C.TICKET_NOT_FOUND], 413: [C.PAYLOAD_TOO_LARGE], 429: [C.RATE_LIMITED] },
  errorExamples: NotificationErrorExamples,
})

export const pushKeyDocs = routeDetail({
  operationId: 'readPushKey',
  summary: 'The VAPID public key for web push',
  description: 'Contract §25: the key a browser subscribes with (RFC 8292), made at first start. With several workspaces on one box, `code` names the ticket whose workspace\'s key is meant. 404 when web push is not set up.',
  tags: ['Phone'],
  public: true,
  query: { code: { description: 'a ticket\'s tracking code (only needed when several workspaces send web push)', example: 'k3v9q2m7x4c8h6b5n2r7t3w4', required: false } },
  responses: { 200: { description: 'the key', name: 'PushKeyResponse', schema: PushKeyResponse, example: { data: { publicKey: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM' } } } },
  errors: { 404: [C.NOT_FOUND], 429: [C.RATE_LIMITED] },
  errorExamples: NotificationErrorExamples,
})

export const smsInboundDocs = routeDetail({
  operationId: 'receiveSmsReply',
  summary: 'A customer\'s SMS reply, from the branch\'s gateway',
  description:
    'Contract §25: JSON `{from, text}` signed `X-Lobby-Signature: sha256=<hex HMAC-SHA256 of the raw body>` keyed with the workspace\'s `notifications.sms.inboundSecret` ' +
    '(unsigned or wrong: 401). "1" or the language\'s word for leave cancels the newest open ticket the number opted in with; "2" or "later" asks for more time; ' +
    'any other text gets one help message per ticket. `outcome` says which (`unknown`: no open ticket for that number; `refused`: the ticket could not, e.g. already called).',
  tags: ['Notifications'],
  public: true,
  headers: { 'X-Lobby-Signature': { description: '`sha256=<hex HMAC-SHA256 of the raw body>` with the inbound secret', example: 'sha256=5f0c1e0b6d0a4e8f9a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f' } },
  body: { name: 'SmsReply', schema: InboundBody, examples: { leave: { summary: 'leave the queue', value: { from: '+447700900123', text: '1' } } } },
  responses: { 200: { description: 'handled', name: 'SmsReplyResponse', schema: InboundResponse, example: { data: { outcome: 'left' } } } },
  errors: { 400: [C.INVALID_JSON], 401: [C.AUTHENTICATION_FAILED], 413: [C.PAYLOAD_TOO_LARGE], 422: [C.VALIDATION_FAILED], 429: [C.RATE_LIMITED] },
  errorExamples: NotificationErrorExamples,
})
