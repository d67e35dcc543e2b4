import { Type, type Static } from '@sinclair/typebox'
import { TrackedQueueTicket } from '../tickets'

const closed = { additionalProperties: false } as const

/** Contract §18: a name in every language it is provisioned in (a plain name: one entry, the unit's default language). */
const Names = Type.Record(Type.String(), Type.String(), { description: 'the name per BCP 47 language tag (contract §18); `name` is the default language\'s', examples: [{ en: 'Accounts', ar: 'الحسابات' }] })
const OpensAt = Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'closed: the next instant it takes tickets (null when open, or when it has no opening within a year)' })

/** `POST /api/devices/v1/kiosk/tickets`: the service tapped; the location is the kiosk's own. */
export const KioskIssueRequest = Type.Object(
  {
    serviceId: Type.String({ minLength: 1, maxLength: 160, description: 'a service of the kiosk (see GET /api/devices/v1/kiosk)', examples: ['svc_accounts'] }),
    priority: Type.Optional(Type.Boolean({ description: 'the customer chose "Priority" (contract §8); only where the unit has `kioskPriority: true`, else 422 on /priority' })),
    language: Type.Optional(Type.String({ minLength: 1, maxLength: 35, description: 'contract §18: the kiosk page\'s language, one of the unit\'s `languages` (any case, `ar-EG` reads `ar`), else 422 on /language; stored on the ticket, whose print page and phone page then speak it. Absent: the unit\'s default', examples: ['ar'] })),
  },
  closed,
)
export type KioskIssueRequest = Static<typeof KioskIssueRequest>

export const KioskService = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    names: Names,
    prefix: Type.String(),
    open: Type.Boolean({ description: 'contract §18: inside its hours now (a closed service stays listed, greyed, with `opensAt`)' }),
    opensAt: OpensAt,
    waiting: Type.Integer({ minimum: 0, description: 'people waiting now' }),
    estimatedWaitSeconds: Type.Integer({ minimum: 0, description: 'contract §19 estimate for a ticket taken now' }),
    noCounterOpen: Type.Boolean({ description: 'contract §19: no open counter serves the service now (the estimate assumed one); the pages say "No counter is open right now"' }),
    priorityEstimatedWaitSeconds: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'the estimate for a priority ticket taken now; null when the kiosk offers no Priority choice' }),
    peopleAhead: Type.Integer({ minimum: 0, description: 'contract §28: the people ahead of a normal ticket taken now (its line\'s call order; the ticket then shows the same number)' }),
    priorityPeopleAhead: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'the people ahead of a priority ticket taken now; null when the kiosk offers no Priority choice' }),
    counterFree: Type.Boolean({ description: 'contract §28: an open counter of the service holds nothing now; with nobody ahead and 0 seconds the pages say "You\'re next" (src/screens/shared/wait-verdict.ts)' }),
  },
  closed,
)

export const KioskView = Type.Object(
  {
    generatedAt: Type.String({ format: 'date-time' }),
    branchName: Type.String({ description: 'the queue unit\'s name, printed on the ticket' }),
    defaultLanguage: Type.String({ description: 'contract §18: the unit\'s default language (names fall back to it)', examples: ['en'] }),
    languages: Type.Array(Type.String(), { minItems: 1, description: 'contract §18: the languages the kiosk offers, the default first', examples: [['en', 'ar']] }),
    open: Type.Boolean({ description: 'any listed service takes tickets now; false: the branch is closed (or lists no service)' }),
    opensAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'closed: the earliest next opening of its services (null when open or none opens within a year)' }),
    queueUnit: Type.Object({ id: Type.String(), name: Type.String(), names: Names, active: Type.Boolean() }, closed),
    location: Type.Object({ id: Type.String(), name: Type.String(), names: Names, timezone: Type.String(), active: Type.Boolean() }, closed),
    priorityChoice: Type.Boolean({ description: 'the unit\'s `kioskPriority`: the start screen offers "Priority"' }),
    appointments: Type.Boolean({ description: 'contract §21: a service of the location takes appointments: the start screen offers "I have an appointment"' }),
    services: Type.Array(KioskService, { description: 'the active services of the kiosk at its location, within its service list, open or closed' }),
  },
  closed,
)
export const KioskViewResponse = Type.Object({ data: KioskView }, closed)
export type KioskView = Static<typeof KioskView>

/** A ticket as the kiosk shows and prints it. */
export const KioskTicket = Type.Object(
  {
    ticket: TrackedQueueTicket,
    language: Type.String({ description: 'contract §18: the ticket\'s language (the one it was taken in, else the unit\'s default); the names below are in it' }),
    branchName: Type.String(),
    serviceName: Type.String(),
    locationName: Type.String(),
    timezone: Type.String({ description: 'the location\'s time zone (the printed date and time)' }),
    peopleAhead: Type.Integer({ minimum: 0 }),
    estimatedWaitSeconds: Type.Integer({ minimum: 0, description: 'contract §19: seconds until it is called; 0 with nobody ahead and a free open counter ("You\'re next")' }),
    noCounterOpen: Type.Boolean({ description: 'contract §19: no open counter serves the service now (the estimate assumed one); the pages say "No counter is open right now"' }),
    counterFree: Type.Boolean({ description: 'contract §28: an open counter of the service holds nothing now; with nobody ahead and 0 seconds the pages say "You\'re next" (src/screens/shared/wait-verdict.ts)' }),
    printPath: Type.String({ description: 'the print page of this ticket', examples: ['/kiosk/tickets/tkt_…/print'] }),
    appointmentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'contract §28: a ticket taken at an appointment\'s check-in (source APPOINTMENT): its slot\'s start, which the kiosk screen and the printed ticket show ("Appointment 09:00"); null for any other ticket',
    }),
  },
  closed,
)
export const KioskTicketResponse = Type.Object({ data: KioskTicket }, closed)
export type KioskTicket = Static<typeof KioskTicket>
