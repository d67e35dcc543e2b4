import type { JoinDeps } from './deps'
import { DEFAULT_ISSUE_PER_MINUTE, DEFAULT_READ_PER_MINUTE } from '../access'
import type { Credential } from '../platform/credentials'
import { ApiError } from '../platform/errors'
import { isoTime } from '../platform/clock'
import { admitRate, RateBuckets } from '../platform/admission'
import { inCidr, parseCidr, parseIp, type Cidr } from '../platform/client-address'
import { canonicalLanguageTag, matchLanguage, resolveName, type LocalizedName } from '../platform/names'
import { type IssueOutcome, type QueueService } from '../queue'
import { openStateAt, type LocationConfiguration, type LocationHours, type UnitConfiguration } from '../structure'
import { businessDayAt, TRACKING_CODE_PATTERN, type TicketRow } from '../tickets'
import { DEFAULT_REMOTE_JOIN_PER_ADDRESS } from '../structure'
import { JoinCodes } from './errors'

/** Contract §20: `remoteJoin.maxWaiting` when provisioning left it out (provisioning fills it in too). */
export const DEFAULT_MAX_WAITING = 50

/**
 * A location's join settings and what its pages show, made from the configuration read's
 * location (so anew after every change of the configuration).
 */
export interface JoinPlace {
  /** The unit as the configuration read holds it (its services' hours). */
  unit: UnitConfiguration
  queueUnitId: string
  locationId: string
  unitName: LocalizedName
  locationName: LocalizedName
  defaultLanguage: string
  languages: string[]
  timezone: string
  maxWaiting: number
  /** `allowedNetworks` was given (non-empty): only addresses in `networks` may join. */
  restricted: boolean
  networks: Cidr[]
  /** Contract §27: tickets one client address (an IPv6 client: its /64) may take in 10 minutes; 0: no limit. */
  perAddressPer10Min: number
  /** Contract §27: networks where many customers share an address (guest Wi-Fi behind NAT): no per-address limit there. */
  guestNetworks: Cidr[]
  hours: LocationHours
}

/** A service as the join page lists it, in one language. */
export interface JoinServiceView {
  id: string
  name: string
  open: boolean
  /** Closed: its next opening (ISO), or null when none is scheduled. */
  opensAt: string | null
  waiting: number
  estimatedWaitSeconds: number
  noCounterOpen: boolean
  /** Contract §28: the people ahead of a ticket taken now (the line's call order: the number its phone page then shows). */
  peopleAhead: number
  /** Contract §28: an open counter of the service holds nothing now. */
  counterFree: boolean
  /** Open, but its waiting count has reached `maxWaiting`: no more joining from a phone for now. */
  full: boolean
}

/** What a ticket's status must be for the browser's cookie to hold it back from taking another. */
const ACTIVE_STATUSES: ReadonlySet<string> = new Set(['WAITING', 'CALLED', 'SERVING'])

/**
 * Joining the queue from a phone (contract §20), free of HTTP: which locations offer it, what
 * the page lists (the kiosk's lines and estimates: `deps.tickets.lines`), the rules that refuse
 * a ticket, and the issue itself through the public issue's write path (`QueueService.issueIdempotent`),
 * source REMOTE.
 */
export class JoinService {
  /** Each location's place, made once per configuration read of its unit (a change makes new location objects). */
  private places = new WeakMap<LocationConfiguration, JoinPlace | null>()

  constructor(private readonly deps: JoinDeps, private readonly queue: QueueService) {}

  /**
   * The location's join settings, or null when joining is not offered there: an unknown or
   * inactive location or unit, or `remoteJoin` absent or not enabled (one answer for all, so
   * the page does not tell which locations exist).
   */
  place(locationId: string): JoinPlace | null {
    const unit = this.deps.configuration.unitOfLocation(locationId)
    const location = unit?.locations.get(locationId)
    if (unit === null || location === undefined) return null
    let place = this.places.get(location)
    if (place === undefined) {
      place = placeOf(unit, location)
      this.places.set(location, place)
    }
    return place
  }

  /** Contract §20: with `allowedNetworks`, only a caller whose (resolved) address is in one of them; an unknown address is not. */
  networkAllows(place: JoinPlace, address: string | null): boolean {
    if (!place.restricted) return true
    const bytes = address === null ? null : parseIp(address)
    return bytes !== null && place.networks.some((cidr) => inCidr(bytes, cidr))
  }

  /**
   * Contract §20, §27: counts a ticket taken from `address` against the location's
   * `perAddressPer10Min` (an IPv6 client by its /64: `admitRate`), 429 RATE_LIMITED over it.
   * No limit when it is 0, or for a caller inside one of `guestNetworks` (many phones behind
   * one NAT address); the one active ticket per browser is checked apart and still holds.
   */
  admitPerAddress(place: JoinPlace, address: string | null, now: number): void {
    const limit = place.perAddressPer10Min
    if (limit === 0) return
    const bytes = address === null ? null : parseIp(address)
    if (bytes !== null && place.guestNetworks.some((cidr) => inCidr(bytes, cidr))) return
    admitRate(this.deps.limiter, RateBuckets.joinPerAddress, address ?? 'unknown', limit, now,
      (retry) => `over ${limit} tickets per 10 minutes from this address; retry after ${retry} s`)
  }

  /** The unit's language a page or request asked for (`ar-EG` is served by `ar`), or null. */
  languageOf(place: JoinPlace, asked: string | null | undefined): string | null {
    if (asked === null || asked === undefined || asked === '') return null
    const canonical = canonicalLanguageTag(asked)
    return canonical === null ? null : matchLanguage(canonical, place.languages)
  }

  /**
   * The browser's active ticket at this location: the ticket of the tracking code its cookie
   * holds, when it is of this location, still WAITING, CALLED or SERVING and of today's
   * business day. Anything else (ended, expired, another location, a made-up code) is null:
   * the browser may take a new ticket.
   */
  activeTicket(place: JoinPlace, code: string | null, now: number): TicketRow | null {
    if (code === null || !TRACKING_CODE_PATTERN.test(code)) return null
    const row = this.deps.tickets.byTrackingCode(code)
    if (row === null || row.locationId !== place.locationId || !ACTIVE_STATUSES.has(row.status)) return null
    return businessDayAt(now, place.timezone) > row.businessDay ? null : row
  }

  /**
   * The services the page lists: every active service offered at the location, with its
   * people waiting and the kiosk's estimate for a ticket taken now (contract §19), whether it
   * is open now (contract §18, else when it opens), and whether it is full for phones.
   */
  services(place: JoinPlace, language: string, now: number): JoinServiceView[] {
    const lines = this.deps.tickets.lines(place.queueUnitId, true).filter((line) => line.locationId === place.locationId)
    if (lines.length === 0) return []
    return lines.map((line) => {
      const state = openStateAt(place.hours, place.unit.services.get(line.id)?.hours ?? null, now, place.timezone)
      return {
        id: line.id,
        name: resolveName(line.names ?? line.name, language, place.defaultLanguage),
        open: state.open,
        opensAt: state.open || state.opensAt === null ? null : isoTime(state.opensAt),
        waiting: line.waiting,
        estimatedWaitSeconds: line.estimatedWaitSeconds,
        noCounterOpen: line.noCounterOpen,
        peopleAhead: line.peopleAhead,
        counterFree: line.counterFree,
        full: state.open && line.waiting >= place.maxWaiting,
      }
    })
  }

  /**
   * Issues a ticket for `serviceId` at the place, source REMOTE, by the public issue's rules
   * and write path: idempotency lookup (the page's key: a double tap gives one ticket) → Edge
   * authority → unit, location and service (422) → open (409 SERVICE_CLOSED) → write. Before
   * that, in the same write, 409 QUEUE_FULL when the service is open and its waiting count has
   * reached `maxWaiting` (read in this transaction, so two phones cannot both take the 50th
   * place). Must run inside `deps.writes.run`.
   */
  issue(place: JoinPlace, serviceId: string, language: string | null, key: string | null, now: number): IssueOutcome {
    const line = this.deps.tickets.lines(place.queueUnitId, true).find((l) => l.id === serviceId && l.locationId === place.locationId)
    if (line !== undefined && line.waiting >= place.maxWaiting) {
      // A closed service answers SERVICE_CLOSED (contract §18), whatever its count.
      if (openStateAt(place.hours, place.unit.services.get(serviceId)?.hours ?? null, now, place.timezone).open) {
        throw new ApiError(409, JoinCodes.QUEUE_FULL, `this service's line is full for joining from a phone (${place.maxWaiting} waiting); take a ticket at the kiosk`)
      }
    }
    return this.queue.issueIdempotent(joinCredential(place), key, {
      locationId: place.locationId,
      serviceId,
      ...(language !== null ? { language } : {}),
    }, now, 'REMOTE')
  }
}

/**
 * The location's join settings, or null when joining is not offered there: an inactive
 * location or unit, or `remoteJoin` absent or not enabled.
 */
function placeOf(unit: UnitConfiguration, location: LocationConfiguration): JoinPlace | null {
  if (location.remoteJoin === null || !unit.active || !location.active) return null
  let settings: { enabled?: unknown; maxWaiting?: unknown; allowedNetworks?: unknown; perAddressPer10Min?: unknown; guestNetworks?: unknown }
  try {
    settings = JSON.parse(location.remoteJoin) as typeof settings
  } catch {
    return null
  }
  if (settings.enabled !== true) return null
  const networks = cidrsOf(settings.allowedNetworks)
  return {
    unit,
    queueUnitId: unit.id,
    locationId: location.id,
    unitName: unit.name,
    locationName: location.name,
    defaultLanguage: unit.defaultLanguage,
    languages: [...unit.languages],
    timezone: location.timezone,
    maxWaiting: typeof settings.maxWaiting === 'number' ? settings.maxWaiting : DEFAULT_MAX_WAITING,
    restricted: Array.isArray(settings.allowedNetworks) && settings.allowedNetworks.length > 0,
    // Provisioning validated each network; one that still does not parse admits nobody.
    networks,
    perAddressPer10Min: typeof settings.perAddressPer10Min === 'number' ? settings.perAddressPer10Min : DEFAULT_REMOTE_JOIN_PER_ADDRESS,
    guestNetworks: cidrsOf(settings.guestNetworks),
    hours: location.hours,
  }
}

/** The CIDRs of a stored network list that parse (provisioning checked each). */
function cidrsOf(list: unknown): Cidr[] {
  return (Array.isArray(list) ? list : []).map((n) => (typeof n === 'string' ? parseCidr(n) : null)).filter((c): c is Cidr => c !== null)
}

/**
 * The join page as the Queue feature's caller: the location's unit, that one location, every
 * service there. No secret stands behind it (the page is public); it scopes the page's
 * Idempotency-Keys to the location (`name` carries a `/`, which no key name may) and is not
 * stored on the ticket (`QueueService.issueTicket` records REMOTE tickets without a credential).
 */
function joinCredential(place: JoinPlace): Credential {
  return {
    id: `join/${place.locationId}`,
    kind: 'device',
    ownerId: place.queueUnitId,
    name: `join/${place.locationId}`,
    scopes: ['tickets:write'],
    locations: [place.locationId],
    services: null,
    issuePerMinute: DEFAULT_ISSUE_PER_MINUTE,
    readPerMinute: DEFAULT_READ_PER_MINUTE,
  }
}
