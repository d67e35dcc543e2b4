import { expect } from 'bun:test'
import { request, jsonOf } from '../support/app'
import { DeviceService, type PairingRequest } from '../../src/devices/service'
import type { QueueTestContext } from '../queue/helpers'

export const PAIR = '/api/devices/v1/pair'
export const ORIGIN = 'http://localhost'

/** A pairing code made the way `lobby devices pair` makes it, at the test clock's time. */
export function pairingCode(ctx: QueueTestContext, pairing: PairingRequest): string {
  return new DeviceService(ctx.db, ctx.deps.ids).createPairingCode(pairing, ctx.clock.now()).code
}

/** The `lobby_device=…` pair of a Set-Cookie header, ready for a Cookie header. */
export function cookieOf(response: Response): string {
  const header = response.headers.get('set-cookie') ?? ''
  const match = /^(lobby_device=lbv_[a-z2-7]+);/.exec(header)
  if (match === null) throw new Error(`no device cookie in ${JSON.stringify(header)}`)
  return match[1]!
}

/** Pairs a browser with a fresh code for `pairing`; returns its Cookie header value. */
export async function pairedCookie(ctx: QueueTestContext, pairing: PairingRequest): Promise<string> {
  const response = await request(ctx.app, 'POST', PAIR, { body: { code: pairingCode(ctx, pairing) } })
  expect(response.status).toBe(200)
  return cookieOf(response)
}

/** A request as the paired browser sends it: the cookie, and `Origin` on a POST. */
export function asDevice(ctx: QueueTestContext, cookie: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return request(ctx.app, method, path, {
    headers: { cookie, ...(method === 'GET' ? {} : { origin: ORIGIN }), ...headers },
    ...(body === undefined ? {} : { body }),
  })
}

export { jsonOf }
