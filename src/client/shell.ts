import { serverNow } from './clock'
import { byId, h } from './dom'
import { fill } from './i18n'
import type { ScreenContext } from './context'
import { formatTime } from '../screens/shared/format'
import type { ConnectionState } from './live'

/**
 * The frame every screen shares: a header (title, subtitle, clock), the content area, a
 * quiet "offline since" mark, and a message panel for what keeps a screen from showing data.
 * The page's HTML holds these elements (src/screens/page.ts), so even a screen whose script
 * fails to run says so instead of staying blank.
 */
export class Shell {
  private readonly root = byId('screen')
  private readonly titleEl = byId('screen-title')
  private readonly subtitleEl = byId('screen-subtitle')
  private readonly clockEl = byId('screen-clock')
  private readonly contentEl = byId('screen-content')
  private readonly statusEl = byId('screen-status')
  private readonly messageEl = byId('screen-message')
  private clockZone: string | undefined
  private lastClock = ''
  private connection: ConnectionState = { live: false, offlineSince: null }

  constructor(private readonly ctx: ScreenContext) {
    setInterval(() => this.tickClock(), 1000)
    this.tickClock()
    ctx.onLangChange(() => {
      this.lastClock = ''
      this.tickClock()
      this.paintConnection()
    })
  }

  setTitle(title: string, subtitle = ''): void {
    if (this.titleEl.textContent !== title) this.titleEl.textContent = title
    if (this.subtitleEl.textContent !== subtitle) this.subtitleEl.textContent = subtitle
    document.title = title
  }

  /** The time zone of the header clock and of the offline mark. */
  setClockZone(timeZone: string | undefined): void {
    this.clockZone = timeZone
    this.lastClock = ''
    this.tickClock()
    this.paintConnection()
  }

  setContent(...nodes: Node[]): void {
    this.contentEl.replaceChildren(...nodes)
  }

  get content(): HTMLElement {
    return this.contentEl
  }

  /** A problem that replaces the data: a heading, a hint, and what it is about. */
  showMessage(heading: string, hint: string, detail: string | null = null, tone: 'error' | 'info' = 'error'): void {
    this.messageEl.replaceChildren(
      h(
        'div',
        { class: 'message-box' },
        h('h2', { class: 'message-heading' }, heading),
        hint ? h('p', { class: 'message-hint' }, hint) : null,
        detail ? h('p', { class: 'message-detail', dir: 'ltr' }, detail) : null,
      ),
    )
    this.messageEl.dataset.tone = tone
    this.messageEl.hidden = false
    this.root.classList.add('has-message')
  }

  clearMessage(): void {
    if (this.messageEl.hidden) return
    this.messageEl.hidden = true
    this.messageEl.replaceChildren()
    this.root.classList.remove('has-message')
  }

  setConnection(state: ConnectionState): void {
    this.connection = state
    this.paintConnection()
  }

  get isLive(): boolean {
    return this.connection.live
  }

  private paintConnection(): void {
    const { live, offlineSince } = this.connection
    this.root.classList.toggle('is-live', live)
    this.root.classList.toggle('is-offline', offlineSince !== null)
    if (offlineSince === null) {
      this.statusEl.hidden = true
      this.statusEl.textContent = ''
      return
    }
    this.statusEl.textContent = fill(this.ctx.labels.offlineSince, { time: formatTime(this.ctx.lang, this.clockZone, offlineSince) })
    this.statusEl.hidden = false
  }

  private tickClock(): void {
    const now = formatTime(this.ctx.lang, this.clockZone, serverNow())
    if (now !== this.lastClock) {
      this.lastClock = now
      this.clockEl.textContent = now
    }
  }
}
