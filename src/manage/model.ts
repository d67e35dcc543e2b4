import { Type, type Static } from '@sinclair/typebox'

/*
 * The live floor's wire (contract §22): one snapshot per queue unit, the same JSON for the HTTP
 * read and every websocket message of that unit, built once per state revision.
 */

const closed = { additionalProperties: false } as const
const Names = Type.Record(Type.String(), Type.String(), { description: 'the name per language (contract §18); the default language\'s is `name`' })
const Instant = Type.String({ format: 'date-time' })

export const FloorService = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    names: Names,
    waiting: Type.Integer({ minimum: 0, description: 'tickets waiting in this line now' }),
    longestWait: Type.Union([
      Type.Object(
        {
          ticketNumber: Type.String({ description: 'the ticket that has waited longest in this line' }),
          waitingSince: Instant,
          seconds: Type.Integer({ minimum: 0, description: 'its wait when the snapshot was made (`generatedAt`); pages count on from `waitingSince`' }),
        },
        closed,
      ),
      Type.Null(),
    ], { description: 'null when nobody waits' }),
    estimatedWaitSeconds: Type.Integer({ minimum: 0, description: 'contract §19: a new ticket\'s estimate, from the one estimator' }),
    noCounterOpen: Type.Boolean(),
    peopleAhead: Type.Integer({ minimum: 0, description: 'contract §28: the people ahead of a normal ticket taken now (its line\'s call order)' }),
    counterFree: Type.Boolean({ description: 'contract §28: an open counter of the service holds nothing now (src/screens/shared/wait-verdict.ts)' }),
    open: Type.Boolean({ description: 'contract §18: the service takes tickets now; closed, the floor says when it opens instead of an estimate' }),
    opensAt: Type.Union([Instant, Type.Null()], { description: 'closed: its next opening; null when open (or none within a year)' }),
    waitTargetSeconds: Type.Integer({ minimum: 0 }),
    overTarget: Type.Boolean({ description: 'the longest current wait has passed `waitTargetSeconds` (contract §22)' }),
    today: Type.Object(
      {
        called: Type.Integer({ minimum: 0, description: 'tickets called for the first time today (whose wait is measured)' }),
        withinTarget: Type.Integer({ minimum: 0, description: 'of those, called within the target' }),
        withinTargetShare: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description: 'withinTarget / called; null before the first call' }),
      },
      closed,
    ),
  },
  closed,
)

export const COUNTER_STATES = ['open', 'closed', 'break'] as const

export const FloorCounter = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    names: Names,
    serviceIds: Type.Array(Type.String()),
    state: Type.Union(COUNTER_STATES.map((s) => Type.Literal(s)), { description: 'open; closed; or break: closed with a clerk\'s break running there (the reason)' }),
    breakReason: Type.Union([Type.String(), Type.Null()]),
    stateSince: Type.Union([Instant, Type.Null()], { description: 'when the counter took this state (the break\'s start, else its last open or close); null when not known' }),
    clerk: Type.Union([Type.Object({ username: Type.String(), displayName: Type.String() }, closed), Type.Null()], { description: 'the clerk signed in at the desk (contract §16)' }),
    ticket: Type.Union([
      Type.Object(
        {
          id: Type.String(),
          ticketNumber: Type.String(),
          serviceId: Type.String(),
          status: Type.Union([Type.Literal('CALLED'), Type.Literal('SERVING')]),
          since: Instant,
        },
        closed,
      ),
      Type.Null(),
    ], { description: 'the ticket the counter holds, and since when it is in its status' }),
    servedToday: Type.Integer({ minimum: 0, description: 'tickets completed at this counter on the location\'s business day' }),
  },
  closed,
)

/** What the floor shows of an appointment's status (contract §21); a cancelled one is not on the floor. */
export const FLOOR_APPOINTMENT_STATUSES = ['BOOKED', 'CHECKED_IN', 'MISSED'] as const

export const FloorAppointment = Type.Object(
  {
    id: Type.String(),
    startAt: Instant,
    time: Type.String({ pattern: '^[0-2][0-9]:[0-5][0-9]$', description: 'the slot\'s start on the location\'s wall clock (its time zone), `HH:mm`', examples: ['10:45'] }),
    serviceId: Type.String(),
    serviceName: Type.String(),
    serviceNames: Names,
    customerName: Type.Union([Type.String(), Type.Null()], { description: 'null once the contact details were erased (contract §21 retainDays)' }),
    status: Type.Union(FLOOR_APPOINTMENT_STATUSES.map((s) => Type.Literal(s)), { description: 'BOOKED: still to come; CHECKED_IN: arrived (a ticket was issued); MISSED: the check-in window closed without them' }),
  },
  closed,
)
export type FloorAppointment = Static<typeof FloorAppointment>

export const FloorLocation = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    names: Names,
    businessDay: Type.String({ description: 'today at this location (its time zone)' }),
    timezone: Type.String({ description: 'its time zone: a closed service\'s opening is said in its clock' }),
    services: Type.Array(FloorService),
    counters: Type.Array(FloorCounter),
    appointments: Type.Array(FloorAppointment, { description: 'today\'s appointments at this location (its business day), by start time; cancelled ones are left out' }),
    appointmentsToCome: Type.Integer({ minimum: 0, description: 'of those, still BOOKED (neither checked in nor missed)' }),
  },
  closed,
)

export const FloorSnapshot = Type.Object(
  {
    queueUnitId: Type.String(),
    name: Type.String(),
    names: Names,
    revision: Type.Integer({ minimum: 0, description: 'moves with every change of the floor: the unit\'s stateRevision plus the wait-target crossings this server run has seen (so it may repeat a number after a restart: order messages with it within one connection, and subscribe without sinceRevision after a reconnect)' }),
    generatedAt: Instant,
    breakReasons: Type.Array(Type.String(), { description: 'what "Close counter" offers (contract §16): each reason\'s id, which `reason` names' }),
    breakReasonNames: Type.Record(Type.String(), Names, { description: 'contract §28: reason id → its names per language (§18), for "Close counter" and a counter\'s break' }),
    locations: Type.Array(FloorLocation),
  },
  closed,
)
export type FloorSnapshot = Static<typeof FloorSnapshot>
export type FloorService = Static<typeof FloorService>
export type FloorCounter = Static<typeof FloorCounter>
export type FloorLocation = Static<typeof FloorLocation>

export const ManagedUnits = Type.Object(
  {
    username: Type.String(),
    role: Type.Union([Type.Literal('admin'), Type.Literal('manager')]),
    data: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), names: Names }, closed), { description: 'the units this person may watch: a manager\'s own, every active one for an admin' }),
  },
  closed,
)
export type ManagedUnits = Static<typeof ManagedUnits>

export const CloseCounterRequest = Type.Object(
  {
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'one of the unit\'s breakReasons: the clerk signed in there starts a break', examples: ['Lunch'] })),
  },
  closed,
)
export type CloseCounterRequest = Static<typeof CloseCounterRequest>

export const NoBody = Type.Object({}, closed)

export const CounterChanged = Type.Object(
  {
    data: Type.Object(
      {
        counterId: Type.String(),
        open: Type.Boolean(),
        busy: Type.Boolean(),
        actor: Type.Object({ type: Type.Literal('user'), id: Type.String() }, closed),
      },
      closed,
    ),
  },
  closed,
)
export type CounterChanged = Static<typeof CounterChanged>
