import { serverNow, syncClock } from './clock'
import { WireCloseCodes } from '../screens/shared/close-codes'
import type { LiveMessage, TopicKind } from './types'
import { reconnectDelayMs } from './reconnect'

/** Why a screen cannot show its data; null once the data is back. */
/** `forbidden`: the credential is good but may not read now (a desk whose queue unit is inactive). */
export type Problem = 'token' | 'not-found' | 'forbidden' | null

export interface ConnectionState {
  /** True while the websocket is open and subscribed: what is on screen is live. */
  live: boolean
  /** When the screen noticed it lost the server (server clock), or null. */
  offlineSince: number | null
}

export interface TopicHandlers<T> {
  /** New data: from the HTTP read or from the websocket. `null` = the topic has no data. */
  data(data: T | null): void
  problem(problem: Problem): void
  connection(state: ConnectionState): void
}

/** Close code of a server that refuses for load (docs/display.md). */
const CLOSE_TRY_LATER = 1013

/** After a token or ID problem: the URL is wrong, so only a slow re-check (a restored database may fix it). */
const PROBLEM_RETRY_MS = 60_000
/** The server pings every 25 s; a socket silent for this long is dead even if no close arrived. */
const SILENCE_MS = 60_000
/** Close codes of docs/display.md (src/screens/shared/close-codes.ts): 4401 token revoked or rotated out. */
const CLOSE_TOKEN_INVALID = WireCloseCodes.TOKEN_INVALID

/** A page's heartbeat on the socket (docs/display.md); the server echoes it. */
const HEARTBEAT = '{"type":"heartbeat"}'

/** A display token as a header value: printable ASCII without spaces. */
const TOKEN_SHAPE = /^[\x21-\x7e]{1,512}$/

type ReadOutcome = 'ok' | 'token' | 'not-found' | 'forbidden' | 'unreachable'

export interface LiveTopicOptions {
  /**
   * The HTTP read is the whole state and the websocket only says that something changed: each
   * snapshot or update makes it read again (the desk's view holds more than the board's topic).
   */
  rereadOnChange?: boolean
  /**
   * Send `{"type":"heartbeat"}` on the socket this often (the desk and the kiosk): the server
   * re-checks the device at each one (a revoked device's socket is closed with 4401, which
   * the page turns into "no longer paired") and echoes it, so a dead connection is noticed
   * within three heartbeats instead of the 60 s of ping silence. Replaces an HTTP device check
   * once a second.
   */
  heartbeatMs?: number
}

/**
 * One display topic, kept live: an HTTP read first (it tells a bad token or an unknown ID
 * apart, which a browser websocket cannot), then the display
 * websocket for every change. After a drop it retries with backoff and re-subscribes with
 * `sinceRevision`, so the server sends one snapshot if anything was missed, or nothing.
 */
export class LiveTopic<T> {
  private socket: WebSocket | null = null
  private revision: number | undefined
  private attempt = 0
  private retryTimer: ReturnType<typeof setTimeout> | undefined
  private silenceTimer: ReturnType<typeof setTimeout> | undefined
  private heartbeatTimer: ReturnType<typeof setInterval> | undefined
  private offlineSince: number | null = null
  private live = false
  private connecting = false
  private reading: Promise<ReadOutcome> | null = null
  /** The server refused for load (1013) since the page was last live: back off further. */
  private busy = false
  private rereadPending = false

  /** `token` null: no display token, the page's paired-device cookie authenticates (contract §7). */
  constructor(
    private readonly kind: TopicKind,
    private readonly id: string,
    private readonly token: string | null,
    private readonly readPath: string,
    private readonly on: TopicHandlers<T>,
    private readonly options: LiveTopicOptions = {},
  ) {}

  start(): void {
    window.addEventListener('online', () => {
      if (!this.live) this.reconnectNow()
    })
    void this.connect()
  }

  /** Re-reads the topic over HTTP now (the prayer board does at each prayer and at midnight). */
  async refresh(): Promise<boolean> {
    return (await this.read()) === 'ok'
  }

  private reconnectNow(): void {
    clearTimeout(this.retryTimer)
    this.attempt = 0
    void this.connect()
  }

  private async connect(): Promise<void> {
    if (this.connecting) return
    this.connecting = true
    try {
      const outcome = await this.read()
      if (outcome === 'token' || outcome === 'forbidden' || (outcome === 'not-found' && this.kind !== 'prayer')) {
        this.retry(PROBLEM_RETRY_MS)
        return
      }
      if (outcome === 'unreachable') {
        this.markOffline()
        this.retry(this.backoff())
        return
      }
      // A prayer source answers 404 both when it is unknown and when today's month is not
      // stored; the websocket tells them apart (TOPIC_NOT_FOUND vs a snapshot of null).
      this.openSocket()
    } finally {
      this.connecting = false
    }
  }

  /** One read at a time; a change announced during a read makes one more read after it. */
  private read(): Promise<ReadOutcome> {
    if (this.reading !== null) {
      this.rereadPending = true
      return this.reading
    }
    this.reading = this.readOnce().finally(() => {
      this.reading = null
      if (this.rereadPending) {
        this.rereadPending = false
        void this.read()
      }
    })
    return this.reading
  }

  private async readOnce(): Promise<ReadOutcome> {
    if (this.token !== null && !TOKEN_SHAPE.test(this.token)) {
      this.on.problem('token')
      return 'token'
    }
    let response: Response
    try {
      const headers: Record<string, string> = this.token === null ? {} : { authorization: `Bearer ${this.token}` }
      response = await fetch(this.readPath, { headers, cache: 'no-store', credentials: 'same-origin' })
    } catch {
      return 'unreachable'
    }
    if (response.status === 401) {
      this.on.problem('token')
      return 'token'
    }
    if (response.status === 403) {
      this.on.problem('forbidden')
      return 'forbidden'
    }
    if (response.status === 404) {
      if (this.kind === 'prayer') {
        this.on.problem(null)
        this.on.data(null)
      } else {
        this.on.problem('not-found')
      }
      return 'not-found'
    }
    if (!response.ok) return 'unreachable'
    let body: T
    try {
      body = (await response.json()) as T
    } catch {
      return 'unreachable'
    }
    this.on.problem(null)
    this.on.data(body)
    return 'ok'
  }

  private openSocket(): void {
    this.closeSocket()
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
    const query = this.token === null ? '' : `?token=${encodeURIComponent(this.token)}`
    const socket = new WebSocket(`${scheme}//${location.host}/api/display/v1/live${query}`)
    this.socket = socket
    socket.addEventListener('open', () => {
      if (this.socket !== socket) return
      const topic = { kind: this.kind, id: this.id, ...(this.revision !== undefined ? { sinceRevision: this.revision } : {}) }
      socket.send(JSON.stringify({ type: 'subscribe', topics: [topic] }))
      this.startHeartbeat(socket)
      // Back after a drop: the server may have restarted with another clock.
      if (this.offlineSince !== null) void syncClock()
      this.attempt = 0
      this.markLive()
      this.watchSilence()
    })
    socket.addEventListener('message', (event) => {
      if (this.socket !== socket) return
      this.watchSilence()
      this.handle(String(event.data))
    })
    socket.addEventListener('close', (event) => {
      if (this.socket !== socket) return
      this.socket = null
      clearTimeout(this.silenceTimer)
      clearInterval(this.heartbeatTimer)
      if (event.code === CLOSE_TOKEN_INVALID) {
        this.on.problem('token')
        this.markOffline()
        this.retry(PROBLEM_RETRY_MS)
        return
      }
      if (event.code === CLOSE_TRY_LATER) this.busy = true
      this.markOffline()
      this.retry(this.backoff())
    })
  }

  private handle(text: string): void {
    let message: LiveMessage
    try {
      message = JSON.parse(text) as LiveMessage
    } catch {
      return
    }
    if (message.type === 'snapshot' || message.type === 'update') {
      if (message.kind !== this.kind || message.id !== this.id) return
      if (this.revision !== undefined && message.revision < this.revision && message.type === 'update') return
      this.revision = message.revision
      if (this.options.rereadOnChange) {
        void this.read()
        return
      }
      this.on.problem(null)
      this.on.data(message.data as T | null)
    } else if (message.type === 'error' && message.code === 'TOPIC_NOT_FOUND') {
      this.on.problem('not-found')
    }
  }

  private startHeartbeat(socket: WebSocket): void {
    clearInterval(this.heartbeatTimer)
    const every = this.options.heartbeatMs
    if (every === undefined) return
    this.heartbeatTimer = setInterval(() => {
      if (this.socket !== socket || socket.readyState !== WebSocket.OPEN) return clearInterval(this.heartbeatTimer)
      socket.send(HEARTBEAT)
    }, every)
  }

  private watchSilence(): void {
    clearTimeout(this.silenceTimer)
    this.silenceTimer = setTimeout(() => {
      // A half-open connection: no close will come, so give up on it here.
      this.closeSocket()
      this.markOffline()
      this.retry(this.backoff())
    }, this.options.heartbeatMs === undefined ? SILENCE_MS : Math.min(SILENCE_MS, 3 * this.options.heartbeatMs))
  }

  private closeSocket(): void {
    const socket = this.socket
    this.socket = null
    clearTimeout(this.silenceTimer)
    clearInterval(this.heartbeatTimer)
    if (socket !== null) {
      try {
        socket.close()
      } catch {
        // already closed
      }
    }
  }

  private backoff(): number {
    const delay = reconnectDelayMs(this.attempt, Math.random(), this.busy)
    this.attempt += 1
    return delay
  }

  private retry(delayMs: number): void {
    clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(() => void this.connect(), delayMs)
  }

  private markLive(): void {
    this.busy = false
    this.live = true
    this.offlineSince = null
    this.on.connection({ live: true, offlineSince: null })
  }

  private markOffline(): void {
    this.live = false
    this.offlineSince ??= serverNow()
    this.on.connection({ live: false, offlineSince: this.offlineSince })
  }
}
