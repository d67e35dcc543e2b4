import { expect } from 'bun:test'
import { counterContext } from '../counters/helpers'
import { asDevice, jsonOf, pairedCookie } from '../devices/helpers'
import { CHEAP, withPassword } from '../people/helpers'
import type { QueueTestContext } from '../queue/helpers'
import type { ProvisioningFile } from '../../src/provisioning/model'
import type { NewUser } from '../../src/people'

export const CLERK_PATH = '/api/devices/v1/desk/clerk'
export const DESK_VIEW = '/api/devices/v1/desk'
/** The PIN test/people/helpers.ts `withPassword` sets for a clerk. */
export const PIN = '482913'

/**
 * The example branch with cheap hashes, a second unit `qu_other`, and these accounts: clerks
 * `samir.k` and `lina.m` of qu_main, `omar.t` of qu_other, manager `amira.h` of qu_main.
 */
export async function clerkContext(edit: (doc: ProvisioningFile) => void = () => {}): Promise<QueueTestContext> {
  const ctx = counterContext((doc) => {
    doc.workspaces[0]!.queueUnits!.push({ id: 'qu_other', name: 'Other branch' })
    edit(doc)
  }, { passwordCost: CHEAP })
  const users: NewUser[] = [
    { username: 'samir.k', role: 'clerk', displayName: 'Samir Khoury', queueUnits: ['qu_main'] },
    { username: 'lina.m', role: 'clerk', displayName: 'Lina Mansour', queueUnits: ['qu_main'] },
    { username: 'omar.t', role: 'clerk', displayName: 'Omar Tahan', queueUnits: ['qu_other'] },
    { username: 'amira.h', role: 'manager', displayName: 'Amira Haddad', queueUnits: ['qu_main'] },
  ]
  for (const user of users) await withPassword(ctx, user)
  return ctx
}

export const deskOf = (ctx: QueueTestContext, counterId = 'cnt_1', name?: string) =>
  pairedCookie(ctx, { role: 'desk', counterId, ...(name === undefined ? {} : { name }) })

export const signInAt = (ctx: QueueTestContext, desk: string, username: string, pin = PIN) => asDevice(ctx, desk, 'POST', CLERK_PATH, { username, pin })
export const signOutAt = (ctx: QueueTestContext, desk: string) => asDevice(ctx, desk, 'DELETE', CLERK_PATH)

export async function signedInAt(ctx: QueueTestContext, desk: string, username: string): Promise<void> {
  const response = await signInAt(ctx, desk, username)
  expect({ status: response.status, body: await response.text() }).toMatchObject({ status: 200 })
}

export async function deskView(ctx: QueueTestContext, desk: string) {
  const response = await asDevice(ctx, desk, 'GET', DESK_VIEW)
  expect(response.status).toBe(200)
  return (await jsonOf(response)).data
}

export type Interval = { username: string; kind: string; reason: string | null; counterId: string; businessDay: string; startedAt: number; endedAt: number | null; deviceId: string | null }

/** Every staff interval, oldest first. */
export function intervals(ctx: QueueTestContext): Interval[] {
  return ctx.db.$client.query(
    `SELECT username, kind, reason, counter_id AS counterId, business_day AS businessDay, started_at AS startedAt, ended_at AS endedAt, device_id AS deviceId
     FROM staff_intervals ORDER BY id`,
  ).all() as Interval[]
}
