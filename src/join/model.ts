import { Type, type Static } from '@sinclair/typebox'
import { TrackedQueueTicket } from '../tickets'

/**
 * `POST /join/{locationId}`: the service tapped, the page's language and the page's key. The
 * page sends it as a form (`application/x-www-form-urlencoded`); a script may send it as JSON.
 */
export const JoinRequest = Type.Object(
  {
    serviceId: Type.String({ minLength: 1, maxLength: 160, description: 'a service offered at the location (listed on the join page)', examples: ['svc_accounts'] }),
    language: Type.Optional(Type.String({ minLength: 1, maxLength: 35, description: 'contract §18: the page\'s language, one of the unit\'s `languages` (`ar-EG` reads `ar`), else 422 on /language; stored on the ticket, whose phone page then speaks it. Absent: the unit\'s default', examples: ['ar'] })),
    key: Type.Optional(Type.String({ minLength: 1, maxLength: 160, description: 'an idempotency key, one per page shown: the same key gives the same ticket (a double tap makes one ticket)', examples: ['q1Zc7o0m3hV9dY2kPpW8xA'] })),
    phone: Type.Optional(Type.String({ maxLength: 40, description: 'contract §25: a mobile number for messages about the ticket, in the local form of the branch\'s country or with + and the country code; kept as E.164 with the ticket and deleted 24 h after it ends. Empty: none. Needs `consent` and a branch that sends SMS (else 422 on /phone)', examples: ['07700 900123'] })),
    email: Type.Optional(Type.String({ maxLength: 254, description: 'contract §25: an e-mail address for messages about the ticket, as `phone`. Empty: none (422 on /email when the branch sends no e-mail)', examples: ['amira@example.com'] })),
    consent: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('on'), Type.Literal('true')], { description: 'contract §25: the customer ticked the consent line; required (true, or the form\'s `on`) when `phone` or `email` is given, else 422 on /consent' })),
  },
  { additionalProperties: false },
)
export type JoinRequest = Static<typeof JoinRequest>

export const JoinTicket = Type.Object(
  {
    ticket: TrackedQueueTicket,
    trackingUrl: Type.String({ description: 'the ticket\'s phone page (path only); the form answer redirects there (303)', examples: ['/t/k3v9q2m7x4c8h6b5n2r7t3w4'] }),
  },
  { additionalProperties: false },
)
export const JoinTicketResponse = Type.Object({ data: JoinTicket }, { additionalProperties: false })
