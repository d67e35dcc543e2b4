import { Type, type Static } from '@sinclair/typebox'
import { TrackedQueueTicket } from '../tickets'

const closed = { additionalProperties: false } as const

/** `POST /api/devices/v1/kiosk/tickets`: the service tapped; the location is the kiosk's own. */
export const KioskIssueRequest = Type.Object(
  {
    serviceId: Type.String({ minLength: 1, maxLength: 160, description: 'a service of the kiosk (see GET /api/devices/v1/kiosk)', examples: ['svc_accounts'] }),
    priority: Type.Optional(Type.Boolean({ description: 'the customer chose "Priority" (contract §8); only where the unit has `kioskPriority: true`, else 422 on /priority' })),
  },
  closed,
)
export type KioskIssueRequest = Static<typeof KioskIssueRequest>

export const KioskService = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    prefix: Type.String(),
    waiting: Type.Integer({ minimum: 0, description: 'people waiting now' }),
    estimatedWaitSeconds: Type.Integer({ minimum: 0, description: 'contract §3 estimate for a ticket taken now' }),
    priorityEstimatedWaitSeconds: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'the estimate for a priority ticket taken now; null when the kiosk offers no Priority choice' }),
  },
  closed,
)

export const KioskView = Type.Object(
  {
    generatedAt: Type.String({ format: 'date-time' }),
    branchName: Type.String({ description: 'the queue unit\'s name, printed on the ticket' }),
    queueUnit: Type.Object({ id: Type.String(), name: Type.String(), active: Type.Boolean() }, closed),
    location: Type.Object({ id: Type.String(), name: Type.String(), timezone: Type.String(), active: Type.Boolean() }, closed),
    priorityChoice: Type.Boolean({ description: 'the unit\'s `kioskPriority`: the start screen offers "Priority"' }),
    services: Type.Array(KioskService, { description: 'the active services of the kiosk at its location, within its service list' }),
  },
  closed,
)
export const KioskViewResponse = Type.Object({ data: KioskView }, closed)
export type KioskView = Static<typeof KioskView>

/** A ticket as the kiosk shows and prints it. */
export const KioskTicket = Type.Object(
  {
    ticket: TrackedQueueTicket,
    branchName: Type.String(),
    serviceName: Type.String(),
    locationName: Type.String(),
    timezone: Type.String({ description: 'the location\'s time zone (the printed date and time)' }),
    peopleAhead: Type.Integer({ minimum: 0 }),
    estimatedWaitSeconds: Type.Integer({ minimum: 0 }),
    printPath: Type.String({ description: 'the print page of this ticket', examples: ['/kiosk/tickets/tkt_…/print'] }),
  },
  closed,
)
export const KioskTicketResponse = Type.Object({ data: KioskTicket }, closed)
export type KioskTicket = Static<typeof KioskTicket>
