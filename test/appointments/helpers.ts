import { expect } from 'bun:test'
import { jsonOf, request } from '../support/app'
import { queueContext, mainUnit, type QueueTestContext } from '../queue/helpers'
import type { ProvisioningFile } from '../../src/provisioning/model'

export const APPOINTMENTS = '/api/operator/v1/appointments'

/**
 * The example unit with appointments on Accounts at the main hall (Europe/Berlin): weekdays
 * 09:00–12:00 and 13:00–16:00, 15-minute slots of 3 seats, 14 days ahead, check-in 15 minutes
 * early to 10 late; a key `booker` with `appointments:write` and a webhook subscribed to
 * appointment.*. The clock starts Wednesday 2026-11-25 09:30Z (10:30 in Berlin).
 */
export function appointmentContext(edit: (doc: ProvisioningFile) => void = () => {}, overrides: Parameters<typeof queueContext>[1] = {}): QueueTestContext {
  return queueContext((doc) => {
    const unit = mainUnit(doc)
    const hours = { mon: [['09:00', '12:00'], ['13:00', '16:00']], tue: [['09:00', '12:00'], ['13:00', '16:00']], wed: [['09:00', '12:00'], ['13:00', '16:00']], thu: [['09:00', '12:00'], ['13:00', '16:00']], fri: [['09:00', '12:00'], ['13:00', '16:00']] }
    unit.locations![0]!.openingHours = hours as never
    const accounts = unit.services!.find((s) => s.id === 'svc_accounts')!
    accounts.appointments = { enabled: true, slotMinutes: 15, capacityPerSlot: 3, bookAheadDays: 14, checkIn: { earlyMinutes: 15, lateMinutes: 10 }, retainDays: 30 }
    unit.apiKeys!.push({ name: 'booker', scopes: ['appointments:write'] })
    unit.webhooks!.push({ id: 'whk_appointments', url: 'http://127.0.0.1:9/appointments', events: ['appointment.booked', 'appointment.cancelled', 'appointment.checked_in', 'appointment.missed'] })
    edit(doc)
  }, overrides)
}

let keys = 0
export function book(ctx: QueueTestContext, body: Record<string, unknown>, options: { key?: string; secret?: string; idempotencyKey?: string } = {}) {
  return request(ctx.app, 'POST', APPOINTMENTS, {
    body: { locationId: 'loc_hall', serviceId: 'svc_accounts', name: 'Amal Haddad', ...body },
    headers: { authorization: `Bearer ${options.secret ?? ctx.key(options.key ?? 'booker')}`, 'idempotency-key': options.idempotencyKey ?? `book-${++keys}` },
  })
}

export async function booked(ctx: QueueTestContext, body: Record<string, unknown>): Promise<any> {
  const response = await book(ctx, body)
  const json = await jsonOf(response)
  expect({ status: response.status, json }).toMatchObject({ status: 201 })
  return json.data
}

export function asKey(ctx: QueueTestContext, method: string, path: string, key = 'booker', body?: unknown) {
  return request(ctx.app, method, path, { headers: { authorization: `Bearer ${ctx.key(key)}` }, ...(body === undefined ? {} : { body }) })
}

export { jsonOf, request }
