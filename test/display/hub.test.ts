import { describe, expect, test } from 'bun:test'
import { LiveHub, parseSubscribe, type LiveSocket, type TopicState } from '../../src/display/hub'

class FakeSocket implements LiveSocket {
  sent: any[] = []
  buffered = 0
  closed: { code?: number; reason?: string } | null = null
  send(text: string) {
    this.sent.push(JSON.parse(text))
    return text.length
  }
  getBufferedAmount() {
    return this.buffered
  }
  close(code?: number, reason?: string) {
    this.closed = { code, reason }
  }
}

function hubWithWidgets() {
  const widgets = new Map<string, TopicState & { workspaceId: string }>()
  let reads = 0
  const hub = new LiveHub({ log: () => {} })
  hub.register('widget', (id, workspaceId) => {
    reads += 1
    const w = widgets.get(id)
    return w && w.workspaceId === workspaceId ? { revision: w.revision, dataJson: w.dataJson } : null
  })
  const set = (id: string, revision: number, data: unknown, workspaceId = 'ws_a') => widgets.set(id, { revision, dataJson: JSON.stringify(data), workspaceId })
  return { hub, set, reads: () => reads }
}

const subscribe = (topics: unknown[]) => JSON.stringify({ type: 'subscribe', topics })

describe('live hub', () => {
  test('subscribe sends a snapshot, then every change as an ordered update', () => {
    const { hub, set } = hubWithWidgets()
    set('w1', 3, { title: 'three' })
    const socket = new FakeSocket()
    hub.connect(socket, 'ws_a', () => true)
    hub.message(socket, subscribe([{ kind: 'widget', id: 'w1' }]))
    expect(socket.sent).toEqual([{ type: 'snapshot', kind: 'widget', id: 'w1', revision: 3, data: { title: 'three' } }])
    set('w1', 4, { title: 'four' })
    hub.publish('widget', 'w1', 'ws_a')
    set('w1', 5, { title: 'five' })
    hub.publish('widget', 'w1', 'ws_a')
    expect(socket.sent.slice(1).map((m) => [m.type, m.revision])).toEqual([['update', 4], ['update', 5]])
  })

  test('nothing is sent when sinceRevision is current; a stale one gets the current snapshot', () => {
    const { hub, set } = hubWithWidgets()
    set('w1', 7, { v: 7 })
    const current = new FakeSocket()
    hub.connect(current, 'ws_a', () => true)
    hub.message(current, subscribe([{ kind: 'widget', id: 'w1', sinceRevision: 7 }]))
    expect(current.sent).toEqual([])
    const stale = new FakeSocket()
    hub.connect(stale, 'ws_a', () => true)
    hub.message(stale, subscribe([{ kind: 'widget', id: 'w1', sinceRevision: 2 }]))
    expect(stale.sent).toEqual([{ type: 'snapshot', kind: 'widget', id: 'w1', revision: 7, data: { v: 7 } }])
    // A publish of a revision the client already has is not repeated.
    hub.publish('widget', 'w1', 'ws_a')
    expect(current.sent).toEqual([])
    expect(stale.sent).toHaveLength(1)
  })

  test('a change is read and encoded once however many screens listen', () => {
    const { hub, set, reads } = hubWithWidgets()
    set('w1', 1, { v: 1 })
    const sockets = Array.from({ length: 500 }, () => new FakeSocket())
    for (const s of sockets) {
      hub.connect(s, 'ws_a', () => true)
      hub.message(s, subscribe([{ kind: 'widget', id: 'w1', sinceRevision: 1 }]))
    }
    const before = reads()
    set('w1', 2, { v: 2 })
    hub.publish('widget', 'w1', 'ws_a')
    expect(reads() - before).toBe(1)
    expect(sockets.every((s) => s.sent.length === 1 && s.sent[0].revision === 2)).toBe(true)
  })

  test('a slow client is dropped instead of being waited for; others still get the update', () => {
    const { hub, set } = hubWithWidgets()
    set('w1', 1, { v: 1 })
    const slow = new FakeSocket()
    const fast = new FakeSocket()
    for (const s of [slow, fast]) {
      hub.connect(s, 'ws_a', () => true)
      hub.message(s, subscribe([{ kind: 'widget', id: 'w1', sinceRevision: 1 }]))
    }
    slow.buffered = 2 * 1024 * 1024
    set('w1', 2, { v: 2 })
    hub.publish('widget', 'w1', 'ws_a')
    expect(slow.closed?.code).toBe(1013)
    expect(slow.sent).toEqual([])
    expect(fast.sent).toHaveLength(1)
    expect(hub.clientCount).toBe(1)
  })

  test("another workspace's topic is not found; a bad message gets an error, not a close", () => {
    const { hub, set } = hubWithWidgets()
    set('w_other', 1, {}, 'ws_b')
    const socket = new FakeSocket()
    hub.connect(socket, 'ws_a', () => true)
    hub.message(socket, subscribe([{ kind: 'widget', id: 'w_other' }]))
    hub.message(socket, 'not json')
    hub.message(socket, JSON.stringify({ type: 'subscribe', topics: [{ kind: 'radio', id: 'x' }] }))
    expect(socket.sent.map((m) => [m.type, m.code])).toEqual([['error', 'TOPIC_NOT_FOUND'], ['error', 'INVALID_MESSAGE'], ['error', 'INVALID_MESSAGE']])
    expect(socket.closed).toBeNull()
  })

  test('heartbeats ping every client and close those whose token was revoked', () => {
    const { hub } = hubWithWidgets()
    const ok = new FakeSocket()
    const revoked = new FakeSocket()
    hub.connect(ok, 'ws_a', () => true)
    hub.connect(revoked, 'ws_a', () => false)
    hub.heartbeat()
    expect(ok.sent).toEqual([{ type: 'ping' }])
    expect(revoked.closed?.code).toBe(4401)
    expect(hub.clientCount).toBe(1)
  })

  test('subscribe messages are strict', () => {
    expect(parseSubscribe('{"type":"subscribe","topics":[{"kind":"queue","id":"qu_main","sinceRevision":3}]}')).toEqual([{ kind: 'queue', id: 'qu_main', sinceRevision: 3 }])
    expect(parseSubscribe('{"type":"subscribe","topics":[]}')).toBeTypeOf('string')
    expect(parseSubscribe('{"type":"subscribe","topics":[{"kind":"queue","id":"q","sinceRevision":"3"}]}')).toBeTypeOf('string')
    expect(parseSubscribe('{"type":"subscribe","topics":[{"kind":"queue","id":"q","extra":1}]}')).toBeTypeOf('string')
    expect(parseSubscribe('{"type":"unsubscribe","topics":[{"kind":"queue","id":"q"}]}')).toBeTypeOf('string')
  })
})
