import { expect } from 'bun:test'
import { jsonOf } from '../support/app'
import { counterContext } from '../counters/helpers'
import type { QueueTestContext } from '../queue/helpers'
import type { ProvisioningFile } from '../../src/provisioning/model'
import type { AppDeps } from '../../src/root/deps'
import { asDevice, pairedCookie } from '../devices/helpers'

export const KIOSK = '/api/devices/v1/kiosk'

export interface KioskContext extends QueueTestContext {
  /** The Cookie header of a kiosk at loc_hall (every service there unless `services`). */
  kiosk: string
}

/** A provisioned app with a kiosk paired at the main hall. */
export async function kioskContext(options: { services?: string[]; locationId?: string; edit?: (doc: ProvisioningFile) => void; overrides?: Partial<AppDeps> } = {}): Promise<KioskContext> {
  const ctx = counterContext(options.edit, options.overrides)
  const kiosk = await pairedCookie(ctx, {
    role: 'kiosk',
    queueUnitId: 'qu_main',
    locationId: options.locationId ?? 'loc_hall',
    ...(options.services === undefined ? {} : { services: options.services }),
  })
  return { ...ctx, kiosk }
}

let tap = 0
/** A tap on a service: POST with a new Idempotency-Key (or `key`, a retry of the same tap). */
export function tapService(ctx: KioskContext, serviceId: string, key = `tap-${++tap}`, cookie = ctx.kiosk) {
  return asDevice(ctx, cookie, 'POST', `${KIOSK}/tickets`, { serviceId }, { 'idempotency-key': key })
}

/** A tap that must issue; returns `data` (the kiosk ticket). */
export async function issuedAtKiosk(ctx: KioskContext, serviceId = 'svc_accounts', key?: string) {
  const response = await tapService(ctx, serviceId, key)
  const body = await jsonOf(response)
  expect({ status: response.status, body }).toMatchObject({ status: 201 })
  return body.data
}

export const ticketCount = (ctx: QueueTestContext) => (ctx.db.$client.query('SELECT count(*) AS n FROM tickets').get() as { n: number }).n
