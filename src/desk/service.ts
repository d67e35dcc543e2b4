import { eq } from 'drizzle-orm'
import type { AppDeps } from '../root/deps'
import type { Credential } from '../platform/credentials'
import { ApiError } from '../platform/errors'
import { isoTime } from '../platform/clock'
import { localDate } from '../platform/time'
import { locations, queueUnits } from '../queue/tables'
import type { CounterService } from '../counters/service'
import { CounterCodes } from '../counters/errors'
import type { DeskView } from './model'

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
    private readonly deps: AppDeps,
    readonly counters: CounterService,
  ) {}

  view(caller: Credential, counterId: string, now: number): DeskView {
    const counter = this.counters.visibleCounter(caller, counterId)
    if (counter === null) throw new ApiError(404, CounterCodes.COUNTER_NOT_FOUND, 'this desk\'s counter is retired or no longer exists')
    const unit = this.deps.db.select({ name: queueUnits.name, active: queueUnits.active }).from(queueUnits).where(eq(queueUnits.id, counter.queueUnitId)).get()
    const overview = this.counters.overview(caller, now)
    const mine = overview.counters.find((c) => c.id === counter.id)
    const location = this.deps.db.select({ name: locations.name, timezone: locations.timezone }).from(locations).where(eq(locations.id, counter.locationId)).get()
    const atLocation = this.deps.tickets.lines(counter.queueUnitId, false).filter((line) => line.locationId === counter.locationId)
    const today = localDate(now, counter.timezone)
    return {
      generatedAt: isoTime(now),
      queueUnit: { id: counter.queueUnitId, name: unit?.name ?? counter.queueUnitId, active: unit?.active ?? false },
      counter: {
        id: counter.id,
        name: counter.name,
        open: mine?.open ?? counter.open,
        locationId: counter.locationId,
        locationName: location?.name ?? counter.locationId,
        timezone: counter.timezone,
      },
      services: overview.services
        .filter((line) => line.locationId === counter.locationId && counter.serviceIds.includes(line.id))
        .map((line) => ({
          id: line.id,
          name: line.name,
          prefix: line.prefix,
          active: line.active,
          waiting: line.waiting,
          estimatedWaitSeconds: line.estimatedWaitSeconds,
          tickets: line.tickets.slice(0, WAITING_SHOWN),
        })),
      ticket: mine?.ticket ?? null,
      servedToday: this.deps.tickets.completedBy(counter.id, today),
      transferTargets: atLocation.filter((line) => line.active).map((line) => ({ id: line.id, name: line.name })),
      serviceNames: Object.fromEntries(atLocation.map((line) => [line.id, line.name])),
    }
  }
}
