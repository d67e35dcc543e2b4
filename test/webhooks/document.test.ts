import { describe, expect, test } from 'bun:test'
import { jsonOf, request } from '../support/app'
import { ResponseChecker } from '../support/capture'
import { DailyClose } from '../../src/counters/daily-close'
import { asDevice, pairedCookie } from '../devices/helpers'
import { counterContext, issued, ok, act, OP } from '../counters/helpers'

/*
 * Contract §15 for what Lobby sends: the webhook bodies the outbox really writes match the
 * document's `webhooks.ticketEvent` request body (Ajv, JSON Schema 2020-12), `actor` included.
 */

const BERLIN_MIDNIGHT = Date.parse('2026-11-25T23:00:00.000Z')

describe('webhook bodies match the OpenAPI document', () => {
  test('bodies by a key, a paired desk and the daily close validate; one without actor does not', async () => {
    const ctx = counterContext()
    const desk = await pairedCookie(ctx, { role: 'desk', counterId: 'cnt_1', name: 'desk-1' })
    const first = await issued(ctx)
    await issued(ctx)
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/open`))
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/call-next`))
    await ok(act(ctx, first.id, 'start'))
    ctx.clock.set(BERLIN_MIDNIGHT)
    new DailyClose(ctx.deps).runDue(ctx.clock.now())

    const doc = await jsonOf(await request(ctx.app, 'GET', '/swagger/json'))
    const operation = doc.webhooks.ticketEvent.post
    expect(operation.operationId).toBe('receiveTicketEvent')
    expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual(['Lobby-Event', 'Lobby-Delivery', 'Lobby-Signature'])
    const schema = operation.requestBody.content['application/json'].schema
    const checker = new ResponseChecker(doc)

    const bodies = (ctx.db.$client.query('SELECT body FROM webhook_deliveries ORDER BY rowid').all() as { body: string }[]).map((d) => JSON.parse(d.body))
    expect(new Set(bodies.map((b) => b.actor.type))).toEqual(new Set(['key', 'device', 'system']))
    expect(bodies.flatMap((body) => checker.errorsOf(schema, body))).toEqual([])
    // The example the document shows validates too, and the checker does see a missing actor.
    expect(checker.errorsOf(schema, operation.requestBody.content['application/json'].example)).toEqual([])
    const { actor: _, ...withoutActor } = bodies[0]
    expect(checker.errorsOf(schema, withoutActor).length).toBeGreaterThan(0)
    expect(checker.errorsOf(schema, { ...bodies[0], actor: { type: 'robot', id: 'x' } }).length).toBeGreaterThan(0)
  })
})
