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

  test('one credential gets at most its share of sockets, the server at most its total; the excess is closed with 1013 and a reason', () => {
    const hub = new LiveHub({ log: () => {}, maxSocketsPerCredential: 3, maxSockets: 5 })
    const a = Array.from({ length: 4 }, () => new FakeSocket())
    const admitted = a.map((s) => hub.connect(s, 'ws_a', () => true, 'cred_a'))
    expect(admitted).toEqual([true, true, true, false])
    expect(a[3]!.closed?.code).toBe(1013)
    expect(a[3]!.closed?.reason).toContain('maximum of 3')
    expect(hub.socketsOf('cred_a')).toBe(3)
    // Another credential still gets in, up to the total.
    const b = Array.from({ length: 3 }, () => new FakeSocket())
    expect(b.map((s) => hub.connect(s, 'ws_a', () => true, 'cred_b'))).toEqual([true, true, false])
    expect(b[2]!.closed?.reason).toContain('maximum of 5')
    expect(hub.clientCount).toBe(5)
    // A closed socket frees its place.
    hub.disconnect(a[0]!)
    const again = new FakeSocket()
    expect(hub.connect(again, 'ws_a', () => true, 'cred_a')).toBe(true)
    expect(again.closed).toBeNull()
  })

  test('re-subscribing to a topic the client is current on sends nothing and takes no extra topic slot', () => {
    const { hub, set } = hubWithWidgets()
    set('w1', 3, { v: 3 })
    const socket = new FakeSocket()
    hub.connect(socket, 'ws_a', () => true)
    hub.message(socket, subscribe([{ kind: 'widget', id: 'w1' }]))
    expect(socket.sent).toHaveLength(1)
    // Without sinceRevision, and with a stale one: the client already has revision 3.
    hub.message(socket, subscribe([{ kind: 'widget', id: 'w1' }]))
    hub.message(socket, subscribe([{ kind: 'widget', id: 'w1', sinceRevision: 1 }]))
    expect(socket.sent).toHaveLength(1)
    // A change reaches it as an update; re-subscribing after it (with the revision before) repeats nothing.
    set('w1', 4, { v: 4 })
    hub.publish('widget', 'w1', 'ws_a')
    hub.message(socket, subscribe([{ kind: 'widget', id: 'w1', sinceRevision: 3 }]))
    expect(socket.sent.map((m) => m.revision)).toEqual([3, 4])
    // 50 topics fit, and re-subscribing the same 50 again is not "too many".
    for (let i = 0; i < 50; i++) set(`t${i}`, 1, {})
    const full = new FakeSocket()
    hub.connect(full, 'ws_a', () => true)
    const fifty = Array.from({ length: 50 }, (_, i) => ({ kind: 'widget', id: `t${i}` }))
    hub.message(full, subscribe(fifty))
    hub.message(full, subscribe(fifty))
    expect(full.sent.filter((m) => m.type === 'error')).toEqual([])
    expect(full.sent).toHaveLength(50)
  })

  test('subscribe messages are rate-limited per socket: a burst, then one per interval; a flood is closed with 1008', () => {
    let now = 0
    const widgets = new Map([['w1', { revision: 1, dataJson: '{}' }]])
    const hub = new LiveHub({ log: () => {}, messageBurst: 3, messageRefillMs: 1000, now: () => now })
    hub.register('widget', (id) => widgets.get(id) ?? null)
    const socket = new FakeSocket()
    hub.connect(socket, 'ws_a', () => true)
    for (let i = 0; i < 4; i++) hub.message(socket, 'not json')
    expect(socket.sent.map((m) => m.code)).toEqual(['INVALID_MESSAGE', 'INVALID_MESSAGE', 'INVALID_MESSAGE', 'RATE_LIMITED'])
    now = 1000
    hub.message(socket, subscribe([{ kind: 'widget', id: 'w1' }]))
    expect(socket.sent.at(-1)).toMatchObject({ type: 'snapshot', revision: 1 })
    for (let i = 0; i < 5; i++) hub.message(socket, 'x')
    expect(socket.closed?.code).toBe(1008)
    expect(hub.clientCount).toBe(0)
  })

  test('a revoked credential has all its sockets closed (4401) at the next re-check, with one check per credential', () => {
    const hub = new LiveHub({ log: () => {} })
    let revoked = false
    let checks = 0
    const check = () => {
      checks += 1
      return !revoked
    }
    const sockets = Array.from({ length: 10 }, () => new FakeSocket())
    for (const s of sockets) hub.connect(s, 'ws_a', check, 'cred_a')
    const other = new FakeSocket()
    hub.connect(other, 'ws_a', () => true, 'cred_b')
    hub.recheckCredentials()
    expect(checks).toBe(1)
    expect(hub.clientCount).toBe(11)
    revoked = true
    hub.recheckCredentials()
    expect(sockets.every((s) => s.closed?.code === 4401)).toBe(true)
    expect(other.closed).toBeNull()
    expect(hub.clientCount).toBe(1)
  })
})

describe('live hub under a hostile subscribe (contract §23)', () => {
  test('more than 50 topics in one message is INVALID_MESSAGE, and nothing is read', () => {
    const { hub, set, reads } = hubWithWidgets()
    for (let i = 0; i < 51; i++) set(`t${i}`, 1, {})
    const socket = new FakeSocket()
    hub.connect(socket, 'ws_a', () => true)
    hub.message(socket, subscribe(Array.from({ length: 51 }, (_, i) => ({ kind: 'widget', id: `t${i}` }))))
    expect(socket.sent.map((m) => [m.type, m.code])).toEqual([['error', 'INVALID_MESSAGE']])
    expect(reads()).toBe(0)
  })

  test('one topic twice in one message (1,900 times, or with another sinceRevision) is INVALID_MESSAGE, and nothing is read', () => {
    const { hub, set, reads } = hubWithWidgets()
    set('w1', 1, {})
    const socket = new FakeSocket()
    hub.connect(socket, 'ws_a', () => true)
    hub.message(socket, subscribe(Array.from({ length: 1900 }, () => ({ kind: 'widget', id: 'w1' }))))
    hub.message(socket, subscribe([{ kind: 'widget', id: 'w1' }, { kind: 'widget', id: 'w1', sinceRevision: 1 }]))
    expect(socket.sent.map((m) => [m.type, m.code])).toEqual([['error', 'INVALID_MESSAGE'], ['error', 'INVALID_MESSAGE']])
    expect(reads()).toBe(0)
    // The same id under another kind is another topic.
    expect(parseSubscribe(subscribe([{ kind: 'widget', id: 'x' }, { kind: 'queue', id: 'x' }]))).toHaveLength(2)
  })

  test('re-subscribing to topics held at their current revision reads no state', () => {
    const { hub, set, reads } = hubWithWidgets()
    const fifty = Array.from({ length: 50 }, (_, i) => ({ kind: 'widget', id: `t${i}` }))
    for (let i = 0; i < 50; i++) set(`t${i}`, 1, {})
    const socket = new FakeSocket()
    hub.connect(socket, 'ws_a', () => true)
    hub.message(socket, subscribe(fifty))
    expect(reads()).toBe(50)
    for (let i = 0; i < 10; i++) hub.message(socket, subscribe(fifty))
    hub.message(socket, subscribe(fifty.map((t) => ({ ...t, sinceRevision: 1 }))))
    expect(reads()).toBe(50)
    expect(socket.sent).toHaveLength(50)
    // A change is read once for its publish; the client then holds it at the new revision.
    set('t0', 2, { v: 2 })
    hub.publish('widget', 't0', 'ws_a')
    hub.message(socket, subscribe(fifty))
    expect(reads()).toBe(51)
    expect(socket.sent.at(-1)).toMatchObject({ type: 'update', id: 't0', revision: 2 })
  })
})

describe('page heartbeats on the socket', () => {
  test('a heartbeat re-checks the credential now and is echoed; nothing else is sent or read', () => {
    const { hub, set, reads } = hubWithWidgets()
    set('w1', 1, {})
    let checks = 0
    const socket = new FakeSocket()
    hub.connect(socket, 'ws_a', () => (checks++, true), 'dev_1')
    hub.message(socket, subscribe([{ kind: 'widget', id: 'w1', sinceRevision: 1 }]))
    hub.message(socket, '{"type":"heartbeat"}')
    hub.message(socket, JSON.stringify({ type: 'heartbeat' }))
    expect(socket.sent).toEqual([{ type: 'heartbeat' }, { type: 'heartbeat' }])
    expect(checks).toBe(2)
    expect(reads()).toBe(1)
    hub.message(socket, JSON.stringify({ type: 'heartbeat', extra: 1 }))
    expect(socket.sent.at(-1)).toMatchObject({ type: 'error', code: 'INVALID_MESSAGE' })
    expect(socket.closed).toBeNull()
  })

  test('a heartbeat of a revoked device closes every socket of that device with 4401 at once', () => {
    const { hub } = hubWithWidgets()
    let revoked = false
    const pages = [new FakeSocket(), new FakeSocket()]
    for (const s of pages) hub.connect(s, 'ws_a', () => !revoked, 'dev_1')
    const other = new FakeSocket()
    hub.connect(other, 'ws_a', () => true, 'dev_2')
    revoked = true
    hub.message(pages[0]!, '{"type":"heartbeat"}')
    expect(pages.map((s) => s.closed?.code)).toEqual([4401, 4401])
    expect(other.closed).toBeNull()
    expect(hub.clientCount).toBe(1)
  })
})
