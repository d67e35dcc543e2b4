import type { Logger } from '../platform/log'
import { CloseCodes } from './errors'

export const TOPIC_KINDS = ['widget', 'queue', 'prayer'] as const
export type TopicKind = (typeof TOPIC_KINDS)[number]

/** The current state of one topic: its revision and its data, ready to send. */
export interface TopicState {
  revision: number
  /** The data as JSON text, so it is embedded, not re-encoded, in every message. */
  dataJson: string
}

/** Where the hub reads a topic's current state; null when unknown or not the workspace's. */
export type TopicReader = (id: string, workspaceId: string) => TopicState | null

/** The part of a websocket the hub uses (Bun's ServerWebSocket has all of it). */
export interface LiveSocket {
  send(text: string): number
  getBufferedAmount(): number
  close(code?: number, reason?: string): void
}

interface Client {
  socket: LiveSocket
  workspaceId: string
  /** The clients sharing one credential, re-checked together. */
  group: CredentialGroup
  /** Last revision sent per topic key, so nothing is sent twice or backwards. */
  sent: Map<string, number>
  /** Narrower than the workspace (a paired desk reads its own queue unit only); absent = all of it. */
  mayRead?: (kind: TopicKind, id: string) => boolean
  /** Subscribe messages this client may still send now (refilled over time), and when last refilled. */
  tokens: number
  refilledAt: number
  /** Messages refused in a row for the rate; the first is answered, too many close the socket. */
  refusedInARow: number
}

/** The open sockets of one credential and how to re-check it (one check covers them all). */
interface CredentialGroup {
  key: string | null
  /**
   * Re-checks the credential: false once it is revoked, rotated out or expired (4401);
   * 'forbidden' when it is valid but its holder lost the right to this feed (4403).
   */
  stillAuthorized: () => boolean | 'forbidden'
  clients: Set<Client>
}

export interface HubOptions {
  log: Logger
  /** A client whose unsent data passes this is too slow: it is dropped, not waited for. */
  maxBufferedBytes?: number
  maxTopicsPerClient?: number
  /** Open sockets per credential and in all; the excess is closed with 1013 (try again later). */
  maxSocketsPerCredential?: number
  maxSockets?: number
  /** Subscribe messages per socket: a burst, then one per `messageRefillMs`. */
  messageBurst?: number
  messageRefillMs?: number
  /** Milliseconds, monotonic; injected by tests. */
  now?: () => number
}

const topicKey = (kind: TopicKind, id: string) => `${kind}\u0000${id}`

/**
 * Fans changes out to subscribed screens. A change is read and encoded once, then the same
 * string goes to every subscriber of the topic, in the order changes were published. A send
 * that would buffer past the limit drops that client (it reconnects and catches up with
 * `sinceRevision`); a push never waits for a screen.
 */
export class LiveHub {
  private readonly readers = new Map<TopicKind, TopicReader>()
  private readonly subscribers = new Map<string, Set<Client>>()
  private readonly clients = new Map<LiveSocket, Client>()
  private readonly groups = new Map<string, CredentialGroup>()
  private readonly maxBuffered: number
  private readonly maxTopics: number
  private readonly maxPerCredential: number
  private readonly maxSockets: number
  private readonly burst: number
  private readonly refillMs: number
  private readonly now: () => number
  private stopping = false

  constructor(private readonly options: HubOptions) {
    this.maxBuffered = options.maxBufferedBytes ?? 1024 * 1024
    this.maxTopics = options.maxTopicsPerClient ?? 50
    this.maxPerCredential = options.maxSocketsPerCredential ?? 50
    this.maxSockets = options.maxSockets ?? 2000
    this.burst = options.messageBurst ?? 20
    this.refillMs = options.messageRefillMs ?? 1000
    this.now = options.now ?? (() => performance.now())
  }

  register(kind: TopicKind, reader: TopicReader): void {
    this.readers.set(kind, reader)
  }

  /**
   * Admits a socket, or closes it with 1013 when its credential (`credentialKey`, e.g. the
   * credential's ID) already has its share of sockets or the server has all it takes. A
   * refused screen retries later; one credential can never take every descriptor.
   * `mayRead` narrows what it may read below the workspace (a paired desk: its own unit).
   * Returns whether the socket was admitted.
   */
  connect(
    socket: LiveSocket,
    workspaceId: string,
    stillAuthorized: () => boolean | 'forbidden',
    credentialKey: string | null = null,
    mayRead?: (kind: TopicKind, id: string) => boolean,
  ): boolean {
    const existing = credentialKey === null ? undefined : this.groups.get(credentialKey)
    let refusal: string | null = null
    if (this.stopping) {
      this.closeSocket(socket, CloseCodes.SERVICE_RESTART, 'server restarting')
      return false
    }
    if (this.clients.size >= this.maxSockets) refusal = `the server has its maximum of ${this.maxSockets} live connections; try again later`
    else if (existing && existing.clients.size >= this.maxPerCredential) refusal = `this credential has its maximum of ${this.maxPerCredential} live connections; close one or try again later`
    if (refusal !== null) {
      this.closeSocket(socket, 1013, refusal)
      return false
    }
    let group = existing
    if (group === undefined) {
      group = { key: credentialKey, stillAuthorized, clients: new Set() }
      if (credentialKey !== null) this.groups.set(credentialKey, group)
    }
    const client: Client = { socket, workspaceId, group, sent: new Map(), tokens: this.burst, refilledAt: this.now(), refusedInARow: 0, ...(mayRead ? { mayRead } : {}) }
    group.clients.add(client)
    this.clients.set(socket, client)
    return true
  }

  disconnect(socket: LiveSocket): void {
    const client = this.clients.get(socket)
    if (!client) return
    this.clients.delete(socket)
    client.group.clients.delete(client)
    if (client.group.clients.size === 0 && client.group.key !== null) this.groups.delete(client.group.key)
    for (const key of client.sent.keys()) this.subscribers.get(key)?.delete(client)
  }

  /** Open sockets of one credential. */
  socketsOf(credentialKey: string): number {
    return this.groups.get(credentialKey)?.clients.size ?? 0
  }

  get clientCount(): number {
    return this.clients.size
  }

  /** Handles one client message: `subscribe`, or a page's `heartbeat`. */
  message(socket: LiveSocket, text: string): void {
    const client = this.clients.get(socket)
    if (!client) return
    if (!this.withinMessageRate(client)) return
    const message = parseClientMessage(text, this.maxTopics)
    if (typeof message === 'string') return this.sendError(client, 'INVALID_MESSAGE', message)
    if (message.type === 'heartbeat') return this.heartbeatOf(client)
    const request = message.topics
    const added = request.filter((topic) => !client.sent.has(topicKey(topic.kind, topic.id))).length
    if (client.sent.size + added > this.maxTopics) {
      return this.sendError(client, 'TOO_MANY_TOPICS', `at most ${this.maxTopics} topics per connection`)
    }
    for (const topic of request) {
      const key = topicKey(topic.kind, topic.id)
      // Held already (contract §23): every change of a held topic is published to this client,
      // so what it was sent is the current revision as far as this server knows; nothing to
      // read, nothing to send. Only a topic whose last send failed (-1) is read again.
      if ((client.sent.get(key) ?? -1) >= 0) continue
      const readable = client.mayRead === undefined || client.mayRead(topic.kind, topic.id)
      const state = readable ? this.readers.get(topic.kind)?.(topic.id, client.workspaceId) ?? null : null
      if (state === null) {
        this.sendError(client, 'TOPIC_NOT_FOUND', `no ${topic.kind} "${topic.id}" for this display token`)
        continue
      }
      let set = this.subscribers.get(key)
      if (!set) this.subscribers.set(key, (set = new Set()))
      set.add(client)
      // Up to date (it says so, or it was sent this revision already): nothing to send.
      // Otherwise the current state is the catch-up: every topic's data is a whole snapshot,
      // so the latest one contains all missed changes.
      const alreadySent = client.sent.get(key) ?? -1
      if (alreadySent >= state.revision) continue
      if (topic.sinceRevision === state.revision) {
        client.sent.set(key, state.revision)
      } else {
        client.sent.set(key, -1)
        this.deliver(client, key, state.revision, encode('snapshot', topic.kind, topic.id, state))
      }
    }
  }

  /** A topic changed: read it once, encode once, send to every subscriber in order. */
  publish(kind: TopicKind, id: string, workspaceId: string): void {
    const set = this.subscribers.get(topicKey(kind, id))
    if (!set || set.size === 0) return
    const state = this.readers.get(kind)?.(id, workspaceId)
    if (!state) return
    const text = encode('update', kind, id, state)
    const key = topicKey(kind, id)
    for (const client of set) {
      if ((client.sent.get(key) ?? -1) >= state.revision) continue
      this.deliver(client, key, state.revision, text)
    }
  }

  /** Shutdown: every client is closed with 1012 (service restart) and reconnects to the next server. */
  closeAll(): void {
    this.stopping = true
    for (const client of [...this.clients.values()]) this.drop(client, CloseCodes.SERVICE_RESTART, 'server restarting')
  }

  /** Heartbeat: a ping to every client, and a re-check of every credential. */
  heartbeat(): void {
    this.recheckCredentials()
    const ping = '{"type":"ping"}'
    for (const client of [...this.clients.values()]) this.sendRaw(client, ping)
  }

  /**
   * Closes (4401) the sockets of every credential revoked, rotated out or expired since the
   * last check: one check per credential, not per socket, so running it every second is cheap.
   * A valid credential whose holder lost a right (contract §27: a manager's role, or a unit a
   * socket reads) closes those sockets with 4403: `mayRead` is asked again for every topic.
   */
  recheckCredentials(): void {
    const groups = new Set<CredentialGroup>()
    for (const client of this.clients.values()) groups.add(client.group)
    for (const group of groups) {
      const verdict = group.stillAuthorized()
      if (verdict === false) {
        for (const client of [...group.clients]) this.drop(client, CloseCodes.TOKEN_INVALID, 'credential no longer valid')
      } else if (verdict === 'forbidden') {
        for (const client of [...group.clients]) this.drop(client, CloseCodes.FORBIDDEN, 'no longer allowed to read this')
      } else {
        for (const client of [...group.clients]) if (this.readsForbidden(client)) this.drop(client, CloseCodes.FORBIDDEN, 'no longer allowed to read this')
      }
    }
  }

  /** Whether the client reads a topic its `mayRead` now refuses. */
  private readsForbidden(client: Client): boolean {
    if (client.mayRead === undefined) return false
    for (const key of client.sent.keys()) {
      const split = key.indexOf('\u0000')
      if (!client.mayRead(key.slice(0, split) as TopicKind, key.slice(split + 1))) return true
    }
    return false
  }

  /**
   * A page's heartbeat (the desk's and the kiosk's, every few seconds): its credential is
   * checked now (a revoked device is closed with 4401 at once; a valid one has its "last used"
   * kept, as every authenticated request does), and the heartbeat is echoed so the page knows
   * the connection is alive. This replaces the pages' HTTP device check once a second.
   */
  private heartbeatOf(client: Client): void {
    const verdict = client.group.stillAuthorized()
    if (verdict !== true) {
      const code = verdict === 'forbidden' ? CloseCodes.FORBIDDEN : CloseCodes.TOKEN_INVALID
      for (const member of [...client.group.clients]) this.drop(member, code, verdict === 'forbidden' ? 'no longer allowed to read this' : 'credential no longer valid')
      return
    }
    this.sendRaw(client, HEARTBEAT)
  }

  /** Token bucket per socket; a flood is answered once with RATE_LIMITED, then closed (1008). */
  private withinMessageRate(client: Client): boolean {
    const now = this.now()
    const refill = Math.floor((now - client.refilledAt) / this.refillMs)
    if (refill > 0) {
      client.tokens = Math.min(this.burst, client.tokens + refill)
      client.refilledAt += refill * this.refillMs
    }
    if (client.tokens > 0) {
      client.tokens -= 1
      client.refusedInARow = 0
      return true
    }
    client.refusedInARow += 1
    if (client.refusedInARow === 1) this.sendError(client, 'RATE_LIMITED', `at most ${this.burst} messages at once, then one every ${this.refillMs} ms`)
    else if (client.refusedInARow > this.burst) this.drop(client, 1008, 'too many messages')
    return false
  }

  private deliver(client: Client, key: string, revision: number, text: string): void {
    if (this.sendRaw(client, text)) client.sent.set(key, revision)
  }

  private sendRaw(client: Client, text: string): boolean {
    if (client.socket.getBufferedAmount() > this.maxBuffered) {
      this.drop(client, 1013, 'too slow: reconnect and catch up with sinceRevision')
      return false
    }
    const result = client.socket.send(text)
    if (result === 0) {
      this.drop(client, 1013, 'send failed: reconnect and catch up with sinceRevision')
      return false
    }
    return true
  }

  private drop(client: Client, code: number, reason: string): void {
    this.disconnect(client.socket)
    this.closeSocket(client.socket, code, reason)
  }

  private closeSocket(socket: LiveSocket, code: number, reason: string): void {
    try {
      socket.close(code, reason)
    } catch (error) {
      this.options.log({ level: 'warn', msg: 'closing a display socket failed', error: String(error) })
    }
  }

  private sendError(client: Client, code: string, message: string): void {
    this.sendRaw(client, JSON.stringify({ type: 'error', code, message }))
  }
}

const HEARTBEAT = '{"type":"heartbeat"}'

function encode(type: 'snapshot' | 'update', kind: TopicKind, id: string, state: TopicState): string {
  return `{"type":"${type}","kind":"${kind}","id":${JSON.stringify(id)},"revision":${state.revision},"data":${state.dataJson}}`
}

interface TopicRequest {
  kind: TopicKind
  id: string
  sinceRevision?: number
}

/** A client message: a subscribe, or a page's heartbeat. */
export type ClientMessage = { type: 'subscribe'; topics: TopicRequest[] } | { type: 'heartbeat' }

/** Parses a client message (`subscribe` or `{"type":"heartbeat"}`); a string is the error. */
export function parseClientMessage(text: string, maxTopics = 50): ClientMessage | string {
  if (text === HEARTBEAT) return { type: 'heartbeat' }
  let message: unknown
  try {
    message = JSON.parse(text)
  } catch {
    return 'message is not JSON'
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return 'message must be an object'
  if ((message as { type?: unknown }).type === 'heartbeat') {
    const extra = Object.keys(message).filter((k) => k !== 'type')
    return extra.length > 0 ? `unknown field: ${extra[0]}` : { type: 'heartbeat' }
  }
  const topics = subscribeTopics(message as Record<string, unknown>, maxTopics)
  return typeof topics === 'string' ? topics : { type: 'subscribe', topics }
}

/**
 * Parses `{"type":"subscribe","topics":[{kind, id, sinceRevision?}]}`; a string is the error.
 * More than `maxTopics` topics, or one topic (kind and id) twice, is an error (contract §23):
 * a message costs at most `maxTopics` reads, never one per repetition.
 */
export function parseSubscribe(text: string, maxTopics = 50): TopicRequest[] | string {
  const message = parseClientMessage(text, maxTopics)
  if (typeof message === 'string') return message
  return message.type === 'subscribe' ? message.topics : 'type must be "subscribe"'
}

function subscribeTopics(message: Record<string, unknown>, maxTopics: number): TopicRequest[] | string {
  const { type, topics, ...rest } = message
  if (type !== 'subscribe') return 'type must be "subscribe" or "heartbeat"'
  if (Object.keys(rest).length > 0) return `unknown field: ${Object.keys(rest)[0]}`
  if (!Array.isArray(topics) || topics.length === 0) return 'topics must be a non-empty array'
  if (topics.length > maxTopics) return `at most ${maxTopics} topics in one message`
  const out: TopicRequest[] = []
  const seen = new Set<string>()
  for (const [i, topic] of topics.entries()) {
    if (typeof topic !== 'object' || topic === null) return `topics/${i} must be an object`
    const { kind, id, sinceRevision, ...extra } = topic as Record<string, unknown>
    if (Object.keys(extra).length > 0) return `topics/${i}: unknown field ${Object.keys(extra)[0]}`
    if (!(TOPIC_KINDS as readonly unknown[]).includes(kind)) return `topics/${i}/kind must be widget, queue or prayer`
    if (typeof id !== 'string' || id.length === 0 || id.length > 160) return `topics/${i}/id must be a string of 1 to 160 characters`
    if (sinceRevision !== undefined && (!Number.isSafeInteger(sinceRevision) || (sinceRevision as number) < 0)) {
      return `topics/${i}/sinceRevision must be a non-negative integer`
    }
    const key = topicKey(kind as TopicKind, id)
    if (seen.has(key)) return `topics/${i}: ${kind as string} "${id}" is listed twice`
    seen.add(key)
    out.push({ kind: kind as TopicKind, id, ...(sinceRevision !== undefined ? { sinceRevision: sinceRevision as number } : {}) })
  }
  return out
}
