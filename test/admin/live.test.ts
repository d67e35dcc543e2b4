import { describe, expect, test } from 'bun:test'
import { admin, adminContext, jsonOf, request, UNIT, type AdminTestContext } from './helpers'
import { asDevice, pairedCookie } from '../devices/helpers'
import { KIOSK } from '../kiosk/helpers'
import type { QueueChange } from '../../src/tickets'
import type { QueueTestContext } from '../queue/helpers'

/*
 * Contract §17: a console change reaches every open page within a second. A write bumps the
 * unit's live revision in its transaction and the after-commit listeners hear of it (the same
 * path a ticket takes: the display hub pushes it to boards, kiosks and desks over their
 * websocket, the phone's long polls answer); what they then read carries the change.
 */

const STATE = '/api/display/v1/queue-units/qu_main/state'

describe('console changes reach the open pages', () => {
  let ctx: AdminTestContext
  let kiosk: string
  let token: string
  const heard: QueueChange[] = []

  const board = async (etag?: string) => request(ctx.app, 'GET', `${STATE}?token=${token}`, { headers: etag === undefined ? {} : { 'if-none-match': etag } })
  const kioskView = async () => jsonOf(await asDevice(ctx as unknown as QueueTestContext, kiosk, 'GET', KIOSK))

  const put = async (path: string, change: Record<string, unknown>) => {
    const loaded = await jsonOf(await admin(ctx, ctx.cookie.amira, 'GET', path))
    const { names: _n, name, id: _id, revision, ...rest } = loaded
    const response = await admin(ctx, ctx.cookie.amira, 'PUT', path, { ...rest, name: loaded.names ?? name, ...change, revision })
    expect(response.status).toBe(200)
  }

  test('a renamed service: the board\'s revision moves, the listeners hear it at the commit, and the board and the kiosk show the new name', async () => {
    ctx = await adminContext()
    token = ctx.provisioned.secret('display', 'ws_demo', 'lobby-screens')
    kiosk = await pairedCookie({ ...ctx, key: () => '' } as unknown as QueueTestContext, { role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_hall' })
    ctx.deps.events.queueChanges.on((change) => heard.push(change))
    const first = await board()
    const before = await jsonOf(first)
    expect(JSON.stringify(before)).toContain('Loans')

    await put(`${UNIT}/services/svc_loans`, { name: { en: 'Mortgages', ar: 'الرهون العقارية' } })
    // Heard by the time the answer came back: the hub's push to every board and kiosk socket starts here.
    expect(heard.map((c) => c.queueUnitId)).toEqual(['qu_main'])
    expect(heard[0]!.stateRevision).toBeGreaterThan(before.stateRevision)

    const changed = await board(first.headers.get('etag')!)
    expect(changed.status).toBe(200)
    const after = await jsonOf(changed)
    expect(after.stateRevision).toBe(heard[0]!.stateRevision)
    expect(JSON.stringify(after)).toContain('Mortgages')
    expect(JSON.stringify(after)).toContain('الرهون العقارية')
    expect(JSON.stringify(await kioskView())).toContain('Mortgages')
  })

  test('a retired service leaves the kiosk; a new one appears; another unit\'s pages hear nothing', async () => {
    heard.length = 0
    await put(`${UNIT}/services/svc_loans`, { active: false })
    expect(JSON.stringify(await kioskView())).not.toContain('Mortgages')
    expect((await admin(ctx, ctx.cookie.root, 'POST', `${UNIT}/services`, { id: 'svc_fx', name: { en: 'Foreign exchange', ar: 'صرف العملات' }, prefix: 'F', locations: ['loc_hall'] })).status).toBe(201)
    expect(JSON.stringify(await kioskView())).toContain('Foreign exchange')
    expect(JSON.stringify(await jsonOf(await board()))).toContain('Foreign exchange')
    expect(heard.map((c) => c.queueUnitId)).toEqual(['qu_main', 'qu_main'])
  })

  test('a refused write moves nothing', async () => {
    heard.length = 0
    const response = await admin(ctx, ctx.cookie.amira, 'POST', `${UNIT}/services`, { name: { en: 'Bad', ar: '' }, prefix: 'B', locations: ['loc_hall'] })
    expect(response.status).toBe(422)
    expect(heard).toEqual([])
  })
})
