import { Type, type Static } from '@sinclair/typebox'
import { QueueTicket } from '../queue'
import { Names } from '../counters'

const closed = { additionalProperties: false } as const
const DateTime = Type.String({ format: 'date-time' })

/** The clerk signed in at a desk (contract §16). */
export const DeskClerk = Type.Object(
  {
    username: Type.String({ examples: ['samir.k'] }),
    displayName: Type.String({ examples: ['Samir Khoury'] }),
  },
  closed,
)
export type DeskClerk = Static<typeof DeskClerk>

/** `POST /api/devices/v1/desk/clerk`: a clerk's username and six-digit PIN. */
export const DeskSignInRequest = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64, description: 'the clerk\'s username', examples: ['samir.k'] }),
    pin: Type.String({ minLength: 1, maxLength: 64, description: 'the clerk\'s six-digit PIN (set with their setup link)' }),
  },
  closed,
)
export const DeskClerkResponse = Type.Object({ data: DeskClerk }, closed)
export const DeskSignOutResponse = Type.Object(
  {
    data: Type.Object(
      { signedOut: Type.Union([Type.String(), Type.Null()], { description: 'the username of the clerk who signed out; null when nobody was signed in' }) },
      closed,
    ),
  },
  closed,
)

/**
 * `GET /api/devices/v1/desk`: everything the desk page shows (contract §8). Names (contract
 * §18): every `name` is in the unit's `defaultLanguage`, and `names` beside it holds every
 * language it was provisioned in (always an object), so the page shows each in its own
 * language. `serviceNames` keeps its shape (ID → default-language name); its twin
 * `serviceNamesByLanguage` maps the same IDs to the names objects.
 */
export const DeskView = Type.Object(
  {
    generatedAt: DateTime,
    defaultLanguage: Type.String({ description: 'the queue unit\'s default language (contract §18): every `name` is in it, and a page falls back to it' }),
    queueUnit: Type.Object({ id: Type.String(), name: Type.String(), names: Names, active: Type.Boolean() }, closed),
    counter: Type.Object(
      {
        id: Type.String(),
        name: Type.String(),
        names: Names,
        open: Type.Boolean(),
        locationId: Type.String(),
        locationName: Type.String(),
        locationNames: Names,
        timezone: Type.String({ description: 'the location\'s IANA time zone (the desk shows times in it)' }),
      },
      closed,
    ),
    services: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          names: Names,
          prefix: Type.String(),
          active: Type.Boolean(),
          waiting: Type.Integer({ minimum: 0 }),
          estimatedWaitSeconds: Type.Integer({ minimum: 0 }),
          noCounterOpen: Type.Boolean({ description: 'contract §19: no open counter serves the service now (the estimate assumed the usual ones, else one); the desk says "No counter is open right now"' }),
          peopleAhead: Type.Integer({ minimum: 0, description: 'contract §28: the people ahead of a normal ticket taken now (its line\'s call order)' }),
          counterFree: Type.Boolean({ description: 'contract §28: an open counter of the service holds nothing now (src/screens/shared/wait-verdict.ts)' }),
          tickets: Type.Array(QueueTicket, { description: 'the first 10 WAITING tickets in the order call-next takes them' }),
        },
        closed,
      ),
      { description: 'the counter\'s services at its location' },
    ),
    ticket: Type.Union([QueueTicket, Type.Null()], { description: 'the CALLED or SERVING ticket the counter holds' }),
    servedToday: Type.Integer({ minimum: 0, description: 'tickets this counter completed today (the location\'s business day)' }),
    transferTargets: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), names: Names }, closed), {
      description: 'active services at the counter\'s location a ticket may be transferred to (not its own)',
    }),
    serviceNames: Type.Record(Type.String(), Type.String(), { description: 'service ID → name (the default language\'s), for every service at the location' }),
    serviceNamesByLanguage: Type.Record(Type.String(), Names, { description: 'service ID → names (contract §18), for the same services as `serviceNames`' }),
    clerk: Type.Union([DeskClerk, Type.Null()], { description: 'the clerk signed in at this desk (contract §16): what the desk does is theirs' }),
    deskSignIn: Type.Union([Type.Literal('optional'), Type.Literal('required')], {
      description: '`required`: the desk\'s operator calls answer 403 CLERK_SIGN_IN_REQUIRED until a clerk signs in',
    }),
    breakReasons: Type.Array(Type.String(), { description: 'what "Close counter" offers as the reason (the unit\'s breakReasons): each reason\'s id, which `close {"reason"}` names' }),
    breakReasonNames: Type.Record(Type.String(), Names, { description: 'contract §28: reason id → its names per language (§18); the desk shows the name in its language' }),
    noShows: Type.Array(
      Type.Object(
        {
          ticket: QueueTicket,
          until: Type.String({ format: 'date-time', description: 'the last moment it can be brought back (its no-show + the unit\'s noShowGraceMinutes)' }),
        },
        closed,
      ),
      { description: 'contract §20: this counter\'s no-shows that may still be brought back ("Bring back"), latest first' },
    ),
    counterNamesByLanguage: Type.Record(Type.String(), Names, {
      description: 'counter ID → names (contract §18), for every counter of the unit at the location: "Transferred from Accounts, Counter 1" (contract §20)',
    }),
    appointments: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          serviceId: Type.String(),
          startAt: DateTime,
          name: Type.Union([Type.String(), Type.Null()], { description: 'null once erased' }),
          status: Type.Union([Type.Literal('BOOKED'), Type.Literal('CHECKED_IN'), Type.Literal('MISSED')]),
        },
        closed,
      ),
      { description: 'contract §21: today\'s appointments of the counter\'s services at its location (not cancelled), by time: checked in or not' },
    ),
  },
  closed,
)
export type DeskView = Static<typeof DeskView>
export const DeskViewResponse = Type.Object({ data: DeskView }, closed)
