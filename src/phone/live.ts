import type { PhoneDeps } from './deps'
import type { BackgroundTask } from '../platform/lifecycle'
import { ApiError } from '../platform/errors'
import type { TicketRow } from '../tickets'
import { PhoneCodes } from './errors'
import type { PhoneService, PhoneStatus, UnitView } from './service'
import { PhoneWaits } from './waits'

/** How long a status read with `since` waits for a change before answering the same status. */
export const LONG_POLL_MS = 20_000
/** Polls that may wait on one tracking code at once (contract §23); the next is answered at once. */
export const POLLS_PER_CODE = 4

export interface PhoneAnswer {
  row: TicketRow
  status: PhoneStatus
  /** Changes whenever `status` does: the poll's `since`. */
  version: string
}

export function versionOf(status: PhoneStatus): string {
  return Bun.hash(JSON.stringify(status)).toString(36)
}

export const ticketNotFound = () => new ApiError(404, PhoneCodes.TICKET_NOT_FOUND, 'no ticket has this code')

/** The code's answer now (with its unit's shared view when one was built for this change); 404 when no ticket has it. */
export function phoneAnswer(deps: Pick<PhoneDeps, 'clock'>, phone: PhoneService, code: string, unit?: UnitView): PhoneAnswer {
  const row = phone.ticketOf(code)
  if (row === null) throw ticketNotFound()
  const status = phone.status(row, deps.clock.now(), unit?.queueUnitId === row.queueUnitId ? unit : undefined)
  return { row, status, version: versionOf(status) }
}

/**
 * The waiting phone polls, one set per app (built by the composition root, src/root/): contract
 * §23, a change of a unit costs one unit view and one status per distinct code waiting on it,
 * and at most 4 polls wait per code. Who tells it of changes, and when it answers everything
 * (stopping), is the root's to register.
 */
export function createPhoneWaits(deps: Pick<PhoneDeps, 'clock'>, phone: PhoneService): PhoneWaits<PhoneStatus, UnitView> {
  return new PhoneWaits<PhoneStatus, UnitView>(
    { unit: (queueUnitId) => phone.unitView(queueUnitId), answer: (code, unit) => phoneAnswer(deps, phone, code, unit) },
    { timeoutMs: LONG_POLL_MS, maxPerCode: POLLS_PER_CODE },
  )
}

/** Stopping answers every waiting poll with its current status at once: the server never waits out a long poll, and the phone asks again once the server is back. */
export function phoneWaitsTask(waits: PhoneWaits<PhoneStatus, UnitView>): BackgroundTask {
  return { beforeStop: () => waits.answerAll() }
}
