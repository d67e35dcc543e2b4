import { breakReasonsOf } from '../structure'
import { and, eq } from 'drizzle-orm'
import type { DeskDeps } from './deps'
import type { Credential } from '../platform/credentials'
import { ApiError } from '../platform/errors'
import { isoTime } from '../platform/clock'
import { localDate } from '../platform/time'
import { namesObject, storedName } from '../platform/names'
import { DEFAULT_BREAK_REASONS, locations, queueUnits } from '../structure'
import type { CounterService } from '../counters'
import { ticketJson } from '../tickets'
import { CounterCodes } from '../counters'
import { counters as counterTable } from '../structure'
import type { Device } from '../devices'
import { SignInFailed, type DeskClerk, type PeopleService } from '../people'
import type { DeskView } from './model'
import type { AppointmentService } from '../appointments'

/** Contract §8: each service shows the first 10 waiting tickets in call order. */
export const WAITING_SHOWN = 10

/**
 * What the desk page shows (contract §8), read through the operator API's own service so a
 * desk sees exactly what its calls act on: its counter, the waiting lines of the counter's
 * services at its location (first 10 tickets each, in call order), the ticket it holds, and
 * the tickets it completed today.
 */
export class DeskService {
  constructor(
    private readonly deps: DeskDeps,
    readonly counters: CounterService,
    private readonly people: PeopleService,
    /** Contract §21: today's appointments of the desk's services. */
    private readonly appointments: AppointmentService,
  ) {}

  /**
   * A clerk signs in at this paired desk with their username and PIN (contract §16). The PIN is
   * checked (its lock, one Argon2 verification) before the write; the write then ends the
   * clerk's open sign-in elsewhere and any break of theirs, signs out another clerk signed in
   * at this counter, and starts the new sign-in. SignInFailed / SignInLocked from the people
   * feature; 404 COUNTER_NOT_FOUND when the desk's counter is retired.
   */
  async signIn(device: Device, username: string, pin: string, now: number, address: string): Promise<DeskClerk & { userId: string }> {
    const check = await this.people.checkClerkPin(username, pin, device.queueUnitId!, now, address)
    const clerk = { userId: check.user.id, username: check.user.username, displayName: check.user.displayName }
    const signedIn = await this.deps.writes.run(() => {
      // The account may have changed while the PIN was verified (disabled, reset): then no sign-in.
      if (!this.people.settleClerkSignIn(check)) return false
      const counter = this.deps.db
        .select({ id: counterTable.id, queueUnitId: counterTable.queueUnitId, locationId: counterTable.locationId, active: counterTable.active, timezone: locations.timezone })
        .from(counterTable).innerJoin(locations, eq(locations.id, counterTable.locationId))
        .where(eq(counterTable.id, device.counterId!)).get()
      if (counter === undefined || !counter.active) throw new ApiError(404, CounterCodes.COUNTER_NOT_FOUND, 'this desk\'s counter is retired or no longer exists')
      // Every desk that showed this clerk (or this counter's earlier one) reads its view again.
      for (const unit of this.deps.staff.signIn(clerk, counter, device.credentialId, now)) this.deps.tickets.touch(unit)
      return true
    })
    if (!signedIn) throw new SignInFailed()
    return clerk
  }

  /** Seconds until `address` may try a sign-in again (20 failures a minute, desk PINs and passwords alike), or 0. */
  addressRefusedFor(address: string, now: number): number {
    return this.people.addressRefusedFor(address, now)
  }

  /** "Sign out" at this desk: the clerk signed in at its counter signs out; returns who did, or null. */
  signOut(device: Device, now: number): Promise<string | null> {
    return this.deps.writes.run(() => {
      const clerk = this.deps.staff.signOut(device.counterId!, now)
      if (clerk !== null) this.deps.tickets.touch(device.queueUnitId!)
      return clerk?.username ?? null
    })
  }

  view(caller: Credential, counterId: string, now: number): DeskView {
    const counter = this.counters.visibleCounter(caller, counterId)
    if (counter === null) throw new ApiError(404, CounterCodes.COUNTER_NOT_FOUND, 'this desk\'s counter is retired or no longer exists')
    const unit = this.deps.db.select({ name: queueUnits.name, names: queueUnits.names, defaultLanguage: queueUnits.defaultLanguage, active: queueUnits.active, deskSignIn: queueUnits.deskSignIn, breakReasons: queueUnits.breakReasons }).from(queueUnits).where(eq(queueUnits.id, counter.queueUnitId)).get()
    const overview = this.counters.overview(caller, now)
    const mine = overview.counters.find((c) => c.id === counter.id)
    const location = this.deps.db.select({ name: locations.name, names: locations.names, timezone: locations.timezone }).from(locations).where(eq(locations.id, counter.locationId)).get()
    const atLocation = this.deps.tickets.lines(counter.queueUnitId, false).filter((line) => line.locationId === counter.locationId)
    const today = localDate(now, counter.timezone)
    // Contract §18: every name also as an object of its languages (a plain name under the default language).
    const defaultLanguage = unit?.defaultLanguage ?? 'en'
    // Contract §28: the unit's break reasons, ids and names per language.
    const reasons = breakReasonsOf(unit === undefined ? DEFAULT_BREAK_REASONS : unit.breakReasons, defaultLanguage)
    const names = (name: string, given: Readonly<Record<string, string>> | string | null) =>
      namesObject(typeof given === 'string' ? storedName(name, given) : given ?? name, defaultLanguage)
    const unitName = unit?.name ?? counter.queueUnitId
    const locationName = location?.name ?? counter.locationId
    return {
      generatedAt: isoTime(now),
      defaultLanguage,
      queueUnit: { id: counter.queueUnitId, name: unitName, names: names(unitName, unit?.names ?? null), active: unit?.active ?? false },
      counter: {
        id: counter.id,
        name: counter.name,
        names: counter.names,
        open: mine?.open ?? counter.open,
        locationId: counter.locationId,
        locationName,
        locationNames: names(locationName, location?.names ?? null),
        timezone: counter.timezone,
      },
      services: overview.services
        .filter((line) => line.locationId === counter.locationId && counter.serviceIds.includes(line.id))
        .map((line) => ({
          id: line.id,
          name: line.name,
          names: line.names,
          prefix: line.prefix,
          active: line.active,
          waiting: line.waiting,
          estimatedWaitSeconds: line.estimatedWaitSeconds,
          noCounterOpen: line.noCounterOpen,
          peopleAhead: line.peopleAhead,
          counterFree: line.counterFree,
          tickets: line.tickets.slice(0, WAITING_SHOWN),
        })),
      ticket: mine?.ticket ?? null,
      servedToday: this.deps.tickets.completedBy(counter.id, today),
      transferTargets: atLocation.filter((line) => line.active).map((line) => ({ id: line.id, name: line.name, names: names(line.name, line.names) })),
      serviceNames: Object.fromEntries(atLocation.map((line) => [line.id, line.name])),
      serviceNamesByLanguage: Object.fromEntries(atLocation.map((line) => [line.id, names(line.name, line.names)])),
      clerk: caller.clerk ? { username: caller.clerk.username, displayName: caller.clerk.displayName } : null,
      deskSignIn: unit?.deskSignIn ?? 'optional',
      breakReasons: reasons.map((r) => r.id),
      breakReasonNames: Object.fromEntries(reasons.map((r) => [r.id, r.names])),
      noShows: this.counters.recentNoShows(counter, now).map((row) => ({ ticket: ticketJson(row), until: isoTime(this.counters.graceEndsAt(counter.queueUnitId, row)) })),
      counterNamesByLanguage: Object.fromEntries(
        this.deps.db.select({ id: counterTable.id, name: counterTable.name, names: counterTable.names }).from(counterTable)
          .where(and(eq(counterTable.queueUnitId, counter.queueUnitId), eq(counterTable.locationId, counter.locationId))).all()
          .map((c) => [c.id, names(c.name, c.names)]),
      ),
      // Contract §21: the desk's panel of today's appointments (time, name, checked in or not).
      appointments: this.appointments.list(counter.locationId, today)
        .filter((a) => a.status !== 'CANCELLED' && counter.serviceIds.includes(a.serviceId))
        .map((a) => ({ id: a.id, serviceId: a.serviceId, startAt: isoTime(a.startAt), name: a.name, status: a.status as 'BOOKED' | 'CHECKED_IN' | 'MISSED' })),
    }
  }
}
