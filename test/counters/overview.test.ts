import { describe, expect, test } from 'bun:test'
import { CounterCodes } from '../../src/counters/errors'
import { dereferencedDocument, errorCodeEnum } from '../support/openapi'
import { request, jsonOf } from '../support/app'
import { counterContext, issued, ok, act, callNext, op } from './helpers'

describe('GET queue (operator overview)', () => {
  test('lines with waiting tickets in call order and now serving; counters with their state and ticket', async () => {
    const ctx = counterContext()
    const a = await issued(ctx)
    ctx.clock.advance(1000)
    const b = await issued(ctx)
    ctx.clock.advance(1000)
    const c = await issued(ctx)
    const loan = await issued(ctx, { locationId: 'loc_hall', serviceId: 'svc_loans' })
    await ok(callNext(ctx, 'cnt_2'))
    await ok(act(ctx, c.id, 'call', { counterId: 'cnt_1' }))
    await ok(act(ctx, c.id, 'requeue', { position: 'FIRST' }))
    const data = await ok(op(ctx, 'GET', '/queue'))
    expect(data.generatedAt).toBe(new Date(ctx.clock.now()).toISOString())
    const line = (id: string, loc = 'loc_hall') => data.services.find((s: { id: string; locationId: string }) => s.id === id && s.locationId === loc)
    expect(data.services.map((s: { id: string; locationId: string; active: boolean }) => `${s.id}@${s.locationId}:${s.active}`)).toEqual([
      'svc_accounts@loc_annex:true', 'svc_accounts@loc_hall:true', 'svc_closed@loc_hall:false', 'svc_loans@loc_hall:true',
    ])
    expect(line('svc_accounts')).toMatchObject({
      waiting: 2, nowServing: { number: 'A001', counterName: 'Counter 2', status: 'CALLED' },
    })
    // c was requeued FIRST: it is first in line, before the older b.
    expect(line('svc_accounts').tickets.map((t: { id: string }) => t.id)).toEqual([c.id, b.id])
    expect(line('svc_loans').tickets.map((t: { id: string }) => t.id)).toEqual([loan.id])
    expect(data.counters).toEqual([
      { id: 'cnt_1', name: 'Counter 1', names: { en: 'Counter 1' }, locationId: 'loc_hall', serviceIds: ['svc_accounts', 'svc_loans'], open: true, busy: false, ticket: null },
      { id: 'cnt_2', name: 'Counter 2', names: { en: 'Counter 2' }, locationId: 'loc_hall', serviceIds: ['svc_accounts'], open: true, busy: true, ticket: expect.objectContaining({ id: a.id, status: 'CALLED' }) },
    ])
  })

  test('a key without counter:operate is 403; an unknown ticket\'s events are 404', async () => {
    const ctx = counterContext()
    const res = await request(ctx.app, 'GET', '/api/operator/v1/queue', { headers: { authorization: `Bearer ${ctx.key('kiosk')}` } })
    expect(res.status).toBe(403)
    expect((await jsonOf(res)).error.code).toBe(CounterCodes.SCOPE_FORBIDDEN)
    expect((await jsonOf(await op(ctx, 'GET', '/tickets/tkt_unknown/events'))).error.code).toBe(CounterCodes.TICKET_NOT_FOUND)
  })
})

describe('OpenAPI for the operator API', () => {
  test('lists every operator route with queueBearer security, tag Operator, its success body and its error codes', async () => {
    const { app } = counterContext()
    const doc = await dereferencedDocument(app)
    const B = '/api/operator/v1'
    const mutation = ['400', '401', '403', '409', '413', '422', '429']
    const expected: [string, string, string, string[], string[]][] = [
      [`${B}/counters/{counterId}/open`, 'post', '200', [...mutation, '404'], [CounterCodes.COUNTER_NOT_FOUND]],
      [`${B}/counters/{counterId}/close`, 'post', '200', [...mutation, '404'], [CounterCodes.COUNTER_BUSY]],
      [`${B}/counters/{counterId}/call-next`, 'post', '200', [...mutation, '404'], [CounterCodes.COUNTER_BUSY, CounterCodes.NO_TICKET_WAITING]],
      [`${B}/tickets`, 'post', '201', mutation, [CounterCodes.IDEMPOTENCY_KEY_REUSED, CounterCodes.LOCATION_FORBIDDEN]],
      [`${B}/tickets/{ticketId}/call`, 'post', '200', [...mutation, '404'], [CounterCodes.INVALID_TRANSITION, CounterCodes.COUNTER_BUSY, CounterCodes.COUNTER_NOT_FOUND]],
      ...['recall', 'start', 'complete', 'no-show', 'cancel'].map((a): [string, string, string, string[], string[]] =>
        [`${B}/tickets/{ticketId}/${a}`, 'post', '200', [...mutation, '404'], [CounterCodes.INVALID_TRANSITION, CounterCodes.TICKET_NOT_FOUND, CounterCodes.QUEUE_UNIT_EDGE_MANAGED]]),
      [`${B}/tickets/{ticketId}/requeue`, 'post', '200', [...mutation, '404'], [CounterCodes.INVALID_TRANSITION]],
      [`${B}/tickets/{ticketId}/transfer`, 'post', '200', [...mutation, '404'], [CounterCodes.INVALID_TRANSITION, CounterCodes.SERVICE_FORBIDDEN]],
      [`${B}/queue`, 'get', '200', ['401', '403', '429'], [CounterCodes.SCOPE_FORBIDDEN, CounterCodes.QUEUE_UNIT_INACTIVE]],
      [`${B}/tickets/{ticketId}/events`, 'get', '200', ['401', '403', '404', '429'], [CounterCodes.TICKET_NOT_FOUND]],
    ]
    for (const [path, method, success, errors, codes] of expected) {
      const operation = doc.paths[path]?.[method]
      expect({ path, defined: operation !== undefined }).toEqual({ path, defined: true })
      // A Queue key, or a paired desk's cookie (contract §7).
      expect(operation.security).toEqual([{ queueBearer: [] }, { deviceCookie: [] }])
      expect(operation.tags).toEqual(['Operator'])
      expect(Object.keys(operation.responses).sort()).toEqual([success, ...errors, '500', ...(method === 'post' ? ['503'] : [])].sort())
      expect(operation.responses[success].content['application/json'].schema.properties.data).toBeDefined()
      const described = Object.values(operation.responses).map((r) => (r as { description: string }).description).join(' ')
      for (const code of codes) expect(described).toContain(code)
      for (const code of codes) expect(errorCodeEnum(operation, errors[0]!)).toContain(code)
    }
    const transfer = doc.paths[`${B}/tickets/{ticketId}/transfer`].post.requestBody.content['application/json'].schema
    expect(transfer.required).toEqual(['serviceId'])
    expect(transfer.additionalProperties).toBe(false)
  })
})
