import { describe, expect, test } from 'bun:test'
import { queueContext, issue, get, jsonOf, SERVICES, STATE, TICKETS } from './helpers'

/**
 * Issue 37: the three public reads stay on Elysia's cheapest path. Elysia composes each route's
 * handler from its source and its hooks; these check what the composition became (Elysia's
 * router history, the only place it shows), since a slip costs a fifth of a read's throughput
 * and no other test would notice: a handler Elysia takes for async (any `return f(…)` in its
 * source), or a hook anywhere in the app that asks its context for `server`.
 */
describe('hot reads (issue 37)', () => {
  const composed = (ctx: ReturnType<typeof queueContext>, path: string) => {
    ctx.app.compile()
    const route = (ctx.app as unknown as { router: { history: { method: string; path: string; compile?: () => unknown; composed?: unknown }[] } })
      .router.history.find((r) => r.method === 'GET' && r.path === path)
    if (route === undefined) throw new Error(`no GET ${path}`)
    return String(route.compile?.() ?? route.composed)
  }

  for (const path of [SERVICES, STATE, `${TICKETS}/:ticketId`]) {
    test(`GET ${path}: composed synchronous, without a per-request \`server\` property`, () => {
      const source = composed(queueContext(), path)
      expect(source.startsWith('function handle(')).toBe(true)
      expect(source).not.toContain("defineProperty(c,'server'")
      expect(source).not.toContain('setImmediate')
    })
  }

  test('each read carries one X-Correlation-ID: the caller\'s when valid, else a new one per request', async () => {
    const ctx = queueContext()
    const ticket = (await jsonOf(await issue(ctx, ctx.key('all')))).data.id
    for (const path of [SERVICES, STATE, `${TICKETS}/${ticket}`]) {
      const given = await get(ctx, path, ctx.key('all'), { 'x-correlation-id': 'board-7:42' })
      expect(given.status).toBe(200)
      expect(given.headers.get('x-correlation-id')).toBe('board-7:42')
      expect(given.headers.get('content-type')).toBe('application/json')
      const first = (await get(ctx, path, ctx.key('all'))).headers.get('x-correlation-id')
      const second = (await get(ctx, path, ctx.key('all'))).headers.get('x-correlation-id')
      expect(first).toMatch(/^lby-[a-z2-7]{8}[0-9a-z]{1,11}$/)
      expect(second).toMatch(/^lby-[a-z2-7]{8}[0-9a-z]{1,11}$/)
      expect(second).not.toBe(first)
    }
  })

  test('the state body\'s bytes are shared within a millisecond, never across a write or the next millisecond', async () => {
    const ctx = queueContext()
    const key = ctx.key('all')
    const waitingOf = async () => {
      const body = await jsonOf(await get(ctx, STATE, key))
      return { at: body.data.generatedAt as string, waiting: (body.data.services as { waiting: number }[]).reduce((n, s) => n + s.waiting, 0) }
    }
    const first = await waitingOf()
    expect(await waitingOf()).toEqual(first)
    // A ticket issued in the same millisecond (the clock stands still) shows at once.
    expect((await issue(ctx, key)).status).toBe(201)
    const afterIssue = await waitingOf()
    expect(afterIssue).toEqual({ at: first.at, waiting: first.waiting + 1 })
    ctx.clock.advance(1)
    const next = await waitingOf()
    expect(next.waiting).toBe(afterIssue.waiting)
    expect(Date.parse(next.at) - Date.parse(first.at)).toBe(1)
  })
})
