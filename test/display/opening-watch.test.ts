import { describe, expect, test } from 'bun:test'
import { request } from '../support/app'
import { counterContext, mainUnit } from '../counters/helpers'
import { createLiveHub } from '../../src/display/live'
import { OpeningWatch, OPENING_WATCH_MS } from '../../src/display/opening-watch'
import type { LiveSocket } from '../../src/display/hub'

class FakeSocket implements LiveSocket {
  sent: any[] = []
  send(text: string) {
    this.sent.push(JSON.parse(text))
    return text.length
  }
  getBufferedAmount() {
    return 0
  }
  close() {}
}

/** The hall open weekdays 08:30–16:30 in Berlin; the annex has no hours (always open). */
function hallHours(doc: Parameters<Parameters<typeof counterContext>[0] & {}>[0]) {
  ;(mainUnit(doc).locations![0]! as any).openingHours = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['08:30', '16:30']]]))
}

function watched(edit = hallHours) {
  const ctx = counterContext(edit)
  const hub = createLiveHub(ctx.deps)
  ctx.deps.events.queueChanges.on((change) => hub.publish('queue', change.queueUnitId, change.workspaceId))
  const socket = new FakeSocket()
  hub.connect(socket, 'ws_demo', () => true)
  const watch = new OpeningWatch(ctx.deps)
  const hall = (message: any) => message.data.locations.find((l: any) => l.id === 'loc_hall')
  return { ctx, hub, socket, watch, hall, subscribe: () => hub.message(socket, JSON.stringify({ type: 'subscribe', topics: [{ kind: 'queue', id: 'qu_main' }] })) }
}

describe('the opening watch: boards hear of openings and closings (docs/display.md)', () => {
  test('a board on the websocket is told within one look (15 s) after the hall opens and after it closes; nothing between', () => {
    const { ctx, socket, watch, hall, subscribe } = watched()
    ctx.clock.set('2026-11-30T07:25:00Z') // Monday 08:25 in Berlin
    watch.check() // the first look (bumps a unit with hours: see the next test)
    subscribe()
    expect(socket.sent).toHaveLength(1)
    expect(hall(socket.sent[0])).toMatchObject({ open: false, opensAt: '2026-11-30T07:30:00.000Z' })
    // Looks every 15 s until 08:30: nothing changes, nothing is sent or written.
    const revision = socket.sent[0].revision
    while (ctx.clock.now() + OPENING_WATCH_MS < Date.parse('2026-11-30T07:30:00Z')) {
      ctx.clock.advance(OPENING_WATCH_MS)
      expect(watch.check()).toEqual([])
    }
    expect(socket.sent).toHaveLength(1)
    // The first look at or after 08:30 (at most 15 s late) bumps the revision, and the board gets the open state.
    ctx.clock.advance(OPENING_WATCH_MS)
    expect(ctx.clock.now() - Date.parse('2026-11-30T07:30:00Z')).toBeLessThan(OPENING_WATCH_MS)
    expect(watch.check()).toEqual(['qu_main'])
    expect(socket.sent).toHaveLength(2)
    expect(socket.sent[1]).toMatchObject({ type: 'update', revision: revision + 1 })
    expect(hall(socket.sent[1])).toMatchObject({ open: true, opensAt: null })
    // 16:30: closed until Tuesday 08:30.
    ctx.clock.set('2026-11-30T15:30:05Z')
    expect(watch.check()).toEqual(['qu_main'])
    expect(hall(socket.sent[2])).toMatchObject({ open: false, opensAt: '2026-12-01T07:30:00.000Z' })
  })

  test('the REST read: the ETag moves at the opening itself (before the watch looks), so a poll with If-None-Match never gets a stale 304', async () => {
    const { ctx, watch } = watched()
    const token = ctx.provisioned.secret('display', 'ws_demo', 'lobby-screens')
    const path = `/api/display/v1/queue-units/qu_main/state?token=${token}`
    ctx.clock.set('2026-11-30T07:29:50Z')
    watch.check()
    const before = await request(ctx.app, 'GET', path)
    const etag = before.headers.get('etag')!
    expect((await request(ctx.app, 'GET', path, { headers: { 'if-none-match': etag } })).status).toBe(304)
    ctx.clock.set('2026-11-30T07:30:05Z')
    // Before the watch looks, the revision is the old one, but the ETag names the open state: no stale 304.
    const opened = await request(ctx.app, 'GET', path, { headers: { 'if-none-match': etag } })
    expect(opened.status).toBe(200)
    const body = (await opened.json()) as any
    expect(body.locations.find((l: any) => l.id === 'loc_hall')).toMatchObject({ open: true })
    watch.check()
    const after = await request(ctx.app, 'GET', path, { headers: { 'if-none-match': opened.headers.get('etag')! } })
    expect(after.status).toBe(200)
    expect(((await after.json()) as any).stateRevision).toBe(body.stateRevision + 1)
  })

  test('the first look bumps units with hours (a server down across an opening), not units always open', () => {
    const timed = watched()
    expect(timed.watch.check()).toEqual(['qu_main'])
    expect(timed.watch.check()).toEqual([])
    const always = watched(() => {})
    expect(always.watch.check()).toEqual([])
    always.ctx.clock.advance(24 * 3600_000)
    expect(always.watch.check()).toEqual([])
  })
})

describe('the opening watch when its write fails', () => {
  test('a bump that did not commit is tried again at the next look', () => {
    const ctx = counterContext(hallHours)
    let failures = 0
    const writes = {
      now: <T>(work: () => T): T => {
        if (failures > 0) {
          failures -= 1
          throw new Error('database is locked')
        }
        return ctx.deps.writes.now(work)
      },
    }
    const watch = new OpeningWatch({ ...ctx.deps, writes: writes as unknown as typeof ctx.deps.writes })
    ctx.clock.set('2026-11-30T07:25:00Z') // Monday 08:25 in Berlin
    watch.check() // the start's look: one bump for the unit with hours
    const revision = () => (ctx.db.$client.query("SELECT state_revision AS r FROM queue_units WHERE id = 'qu_main'").get() as { r: number }).r
    const before = revision()
    ctx.clock.set('2026-11-30T07:30:00Z') // the hall opens
    failures = 1
    expect(() => watch.check()).toThrow('database is locked')
    expect(revision()).toBe(before)
    ctx.clock.advance(OPENING_WATCH_MS)
    expect(watch.check()).toEqual(['qu_main'])
    expect(revision()).toBe(before + 1)
  })
})
