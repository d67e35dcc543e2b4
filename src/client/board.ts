import { h } from './dom'
import type { ScreenContext } from './context'
import { LiveTopic, type Problem } from './live'
import type { Shell } from './shell'
import type { TopicKind } from './types'
import { unpairedWords } from './devices/unpaired'

/** A quiet centred notice in the content area: an empty list, no data yet, a wrong filter. */
export function notice(heading: string, hint = '', detail = ''): HTMLElement {
  return h(
    'div',
    { class: 'notice' },
    h('p', { class: 'notice-heading' }, heading),
    hint ? h('p', { class: 'notice-hint' }, hint) : null,
    detail ? h('p', { class: 'notice-detail', dir: 'ltr' }, detail) : null,
  )
}

/**
 * What the three kinds of screen share: one live topic, its problems shown in the message
 * panel, "connecting" and "cannot reach" before the first data, and a redraw when data,
 * language or connection change. Subclasses draw the data.
 */
export abstract class Board<T> {
  /** `undefined` until the first answer; `null` when the topic has no data. */
  protected data: T | null | undefined = undefined
  /** `data` as JSON: what the board last drew from. */
  private dataText = ''
  protected readonly topic: LiveTopic<T>
  private offline = false

  constructor(
    protected readonly ctx: ScreenContext,
    protected readonly shell: Shell,
    kind: TopicKind,
    protected readonly id: string,
    readPath: string,
    private readonly unknownLabel: () => string,
  ) {
    this.topic = new LiveTopic<T>(kind, id, ctx.options.token, readPath, {
      data: (data) => {
        // The live connection's first snapshot repeats what the read before it just answered
        // (the read does not learn the revision): the same data is not drawn and fitted again,
        // which was about half a board's work in Chromium while it loads. When each was written
        // (`generatedAt`) differs and is not compared: no board shows it.
        const text = JSON.stringify(data, (key, value: unknown) => (key === 'generatedAt' ? undefined : value))
        if (this.data !== undefined && text === this.dataText) return
        this.dataText = text
        this.data = data
        this.redraw()
      },
      problem: (problem) => this.showProblem(problem),
      connection: (state) => {
        this.offline = state.offlineSince !== null
        shell.setConnection(state)
        if (this.data === undefined) this.redraw()
      },
    })
    ctx.onLangChange(() => this.redraw())
    // A rotated or resized screen lays out again (what fits, what overflows, what is in view).
    let resizing: ReturnType<typeof setTimeout> | undefined
    window.addEventListener('resize', () => {
      clearTimeout(resizing)
      resizing = setTimeout(() => this.redraw(), 150)
    })
  }

  start(): void {
    this.redraw()
    this.topic.start()
  }

  protected redraw(): void {
    const { labels } = this.ctx
    if (this.data === undefined) {
      this.shell.setContent(this.offline ? notice(labels.unreachable, labels.retrying) : notice(labels.connecting))
      return
    }
    this.draw(this.data)
    // The size the screen was last laid out (and fitted) for: a rotated screen shows it fitted anew.
    document.documentElement.dataset.drawnFor = `${window.innerWidth}x${window.innerHeight}`
  }

  protected abstract draw(data: T | null): void

  private showProblem(problem: Problem): void {
    const { labels } = this.ctx
    if (problem === 'token' && this.ctx.options.token === null) {
      // A paired display (no token in the URL): its device was revoked.
      const words = unpairedWords(this.ctx.lang)
      this.shell.showMessage(words.noLongerPaired, words.notPairedHint)
    } else if (problem === 'token') this.shell.showMessage(labels.tokenInvalid, labels.tokenInvalidHint)
    else if (problem === 'not-found') this.shell.showMessage(this.unknownLabel(), labels.checkId, this.id)
    else this.shell.clearMessage()
  }
}
