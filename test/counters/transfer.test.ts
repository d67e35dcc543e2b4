import { describe, expect, test } from 'bun:test'
import { CounterCodes } from '../../src/counters/errors'
import { expectError, get, STATE } from '../queue/helpers'
import { counterContext, issued, ok, act, callNext, snapshot, stats, mainUnit, jsonOf } from './helpers'

describe('transfer', () => {
  test('keeps the number, moves the ticket to the other line and the waiting counts with it', async () => {
    const ctx = counterContext()
    const a = await issued(ctx)
    await issued(ctx)
    await ok(callNext(ctx, 'cnt_2'))
    expect(stats(ctx, 'svc_accounts').waiting).toBe(1)
    expect(stats(ctx, 'svc_loans')).toBeNull()
    const moved = await ok(act(ctx, a.id, 'transfer', { serviceId: 'svc_loans' }))
    expect(moved).toMatchObject({ id: a.id, ticketNumber: 'A001', status: 'WAITING', serviceId: 'svc_loans', locationId: 'loc_hall', calledAt: null, servingAt: null })
    expect(stats(ctx, 'svc_accounts').waiting).toBe(1)
    expect(stats(ctx, 'svc_loans').waiting).toBe(1)
    const state = (await jsonOf(await get(ctx, STATE, ctx.key('all')))).data.services
    const line = (id: string) => state.find((s: { id: string; locationId: string }) => s.id === id && s.locationId === 'loc_hall')
    expect(line('svc_loans')).toMatchObject({ waiting: 1, nowServing: null })
    expect(line('svc_accounts')).toMatchObject({ waiting: 1, nowServing: null })
    // cnt_2 is free again; the transferred ticket waits behind the older accounts ticket
    // (LAST), and is called under its new service with its old number.
    const older = await ok(callNext(ctx, 'cnt_1'))
    expect(older.ticketNumber).toBe('A002')
    await ok(act(ctx, older.id, 'no-show'))
    expect(await ok(callNext(ctx, 'cnt_1'))).toMatchObject({ id: a.id, ticketNumber: 'A001', serviceId: 'svc_loans' })
    const after = (await jsonOf(await get(ctx, STATE, ctx.key('all')))).data.services
    expect(after.find((s: { id: string }) => s.id === 'svc_loans').nowServing).toEqual({ number: 'A001', counterName: 'Counter 1' })
  })

  test('from SERVING too; LAST by default, FIRST on request', async () => {
    const ctx = counterContext()
    const waitingLoan = await issued(ctx, { locationId: 'loc_hall', serviceId: 'svc_loans' })
    const a = await issued(ctx)
    const b = await issued(ctx)
    await ok(act(ctx, a.id, 'call', { counterId: 'cnt_2' }))
    await ok(act(ctx, a.id, 'start'))
    await ok(act(ctx, a.id, 'transfer', { serviceId: 'svc_loans' }))
    await ok(act(ctx, b.id, 'call', { counterId: 'cnt_2' }))
    await ok(act(ctx, b.id, 'transfer', { serviceId: 'svc_loans', position: 'FIRST' }))
    const order: string[] = []
    for (let i = 0; i < 3; i++) {
      const t = await ok(callNext(ctx, 'cnt_1'))
      order.push(t.id)
      await ok(act(ctx, t.id, 'no-show'))
    }
    expect(order).toEqual([b.id, waitingLoan.id, a.id])
  })

  test('the target must be another active service offered at the ticket\'s location (422 /serviceId), within the key\'s services (403)', async () => {
    const ctx = counterContext((doc) => {
      mainUnit(doc).apiKeys!.push({ name: 'accounts-desk', scopes: ['counter:operate'], services: ['svc_accounts'] })
    })
    const a = await issued(ctx)
    await ok(callNext(ctx, 'cnt_1'))
    const before = snapshot(ctx)
    for (const [serviceId, message] of [
      ['svc_nope', 'no such service'],
      ['svc_closed', 'not active'],
      ['svc_accounts', 'already in this service'],
    ] as const) {
      const body = await expectError(await act(ctx, a.id, 'transfer', { serviceId }), 422, CounterCodes.VALIDATION_FAILED)
      expect(body.error.details).toEqual([{ path: '/serviceId', message: expect.stringContaining(message) }])
    }
    await expectError(await act(ctx, a.id, 'transfer', { serviceId: 'svc_loans' }, ctx.key('accounts-desk')), 403, CounterCodes.SERVICE_FORBIDDEN)
    expect(snapshot(ctx)).toEqual(before)
  })

  test('a service not offered at the ticket\'s location is 422', async () => {
    const ctx = counterContext()
    const annex = await issued(ctx, { locationId: 'loc_annex', serviceId: 'svc_accounts' })
    await ok(act(ctx, annex.id, 'cancel'))
    const b = await issued(ctx, { locationId: 'loc_annex', serviceId: 'svc_accounts' })
    const body = await expectError(await act(ctx, b.id, 'transfer', { serviceId: 'svc_loans' }), 422, CounterCodes.VALIDATION_FAILED)
    expect(body.error.details[0].message).toContain('not offered')
  })

  test('a WAITING ticket cannot be transferred (409), checked after the target', async () => {
    const ctx = counterContext()
    const a = await issued(ctx)
    await expectError(await act(ctx, a.id, 'transfer', { serviceId: 'svc_loans' }), 409, CounterCodes.INVALID_TRANSITION)
    await expectError(await act(ctx, a.id, 'transfer', { serviceId: 'svc_nope' }), 422, CounterCodes.VALIDATION_FAILED)
  })
})
