import { Board, notice } from './board'
import { Chime } from './chime'
import { serverNow } from './clock'
import type { ScreenContext } from './context'
import { fitBoxes, h, hidePartialRows } from './dom'
import { formatNumber, formatOpening, formatSaidMinutes, formatTime } from '../screens/shared/format'
import { waitVerdict } from '../screens/shared/wait-verdict'
import { fill } from './i18n'
import { languageOfName, nameIn } from './names'
import { plural } from '../screens/shared/plural'
import type { Shell } from './shell'
import type { QueueLocation, QueueServiceState, QueueState, RecentCall } from './types'
import { Announcer } from './voice'

/** How many recent calls the side list shows. */
const RECENT_CALLS = 6
/** A new call stays marked on its card and in the list this long. */
const HIGHLIGHT_MS = 12_000
/** The "please go to" banner: shown this long, shorter while more calls wait their turn. */
const BANNER_MS = 6_000
const BANNER_BUSY_MS = 3_500
/** A call first seen after a reconnect is announced only if it is this recent. */
const ANNOUNCE_WITHIN_MS = 120_000

type Names = Readonly<Record<string, string>> | null | undefined

/** A call as the banner shows it: the counter already in the board's language. */
interface ShownCall {
  number: string
  counter: string
  counterLang: string
}

const callKey = (call: RecentCall) => `${call.locationId}|${call.number}|${call.calledAt}|${call.counterName}`
const cardKey = (service: Pick<QueueServiceState, 'id' | 'locationId'>) => `${service.locationId}|${service.id}`

/**
 * The now-serving board: per service (and location) the number being served and its counter,
 * the waiting count and the estimate, and the last calls. A call that appears while the board
 * is live is announced: a banner with the number and counter, the card and the list entry
 * marked, a chime with `&chime=1`, and the call spoken after the chime with `&voice=1`.
 */
export class QueueBoard extends Board<QueueState> {
  /** Calls already on screen; only later ones are announced. */
  private readonly seen = new Set<string>()
  private primed = false
  private readonly highlightUntil = new Map<string, number>()
  private readonly banner: CallBanner
  private readonly announcer: Announcer | null
  private redrawTimer: ReturnType<typeof setTimeout> | undefined
  /** The unit's default language (names fall back to it), from the last state. */
  private defaultLanguage = 'en'

  constructor(ctx: ScreenContext, shell: Shell, queueUnitId: string) {
    super(ctx, shell, 'queue', queueUnitId, `/api/display/v1/queue-units/${encodeURIComponent(queueUnitId)}/state`, () => ctx.labels.unknownQueue)
    // With a voice, the announcer rings the chime before each call it says.
    this.banner = new CallBanner(ctx, ctx.options.chime && !ctx.options.voice ? new Chime() : null)
    this.announcer = ctx.options.voice ? new Announcer(ctx, queueUnitId) : null
  }

  override start(): void {
    this.announcer?.start()
    super.start()
  }

  protected draw(state: QueueState | null): void {
    const { labels, options } = this.ctx
    if (state === null) return this.shell.setContent(notice(labels.noContent))
    this.defaultLanguage = state.defaultLanguage
    const location = options.location === null ? null : state.locations.find((l) => l.id === options.location) ?? null
    const single = location ?? (state.locations.length === 1 ? state.locations[0]! : null)
    this.shell.setTitle(this.nameOf(state.names, state.name), single === null ? '' : this.nameOf(single.names, single.name))
    this.shell.setClockZone(single?.timezone ?? state.locations[0]?.timezone)
    if (options.location !== null && location === null) {
      return this.shell.setContent(notice(labels.unknownLocation, labels.checkId, options.location))
    }

    const inView = (locationId: string) => location === null || locationId === location.id
    const services = state.services.filter((s) => inView(s.locationId))
    const calls = state.recentCalls.filter((c) => inView(c.locationId))
    this.announceNewCalls(calls, services)

    const names = new Map(state.locations.map((l) => [l.id, l]))
    const showLocation = new Set(services.map((s) => s.locationId)).size > 1
    const now = serverNow()
    const zone = single?.timezone ?? state.locations[0]?.timezone
    const cards = services.map((s) => this.card(s, showLocation ? names.get(s.locationId) : undefined, now, zone))
    // Closed (contract §18): the location shown, or every location of a unit-wide board, takes no
    // tickets now. Tickets taken before closing are still called, so their cards stay with a
    // strip saying so; with nothing left to call, the board says only when it opens.
    const shownLocations = single !== null ? [single] : state.locations
    const closed = shownLocations.length > 0 && shownLocations.every((l) => !l.open)
    const opensAt = closed ? earliest(shownLocations.map((l) => l.opensAt)) : null
    const stillWaiting = services.reduce((sum, s) => sum + s.waiting, 0)
    const busy = stillWaiting > 0 || services.some((s) => s.nowServing !== null)
    const openingWords = opensAt === null ? labels.noOpening : fill(labels.opensAt, { when: formatOpening(this.ctx.lang, zone, opensAt, now) })
    let grid: HTMLElement = h('section', { class: 'svc-grid', 'data-count': bucket(services.length) }, cards.length > 0 ? cards : notice(labels.noServices))
    if (closed && !busy) {
      grid = h('section', { class: 'closed-panel', role: 'status' }, h('p', { class: 'closed-heading' }, labels.closed), h('p', { class: 'closed-opens' }, openingWords))
    } else if (closed) {
      const strip = h(
        'p',
        { class: 'closed-strip', role: 'status' },
        h('b', null, labels.closed),
        h('span', null, openingWords),
        stillWaiting > 0 ? h('span', null, plural(this.ctx.lang, labels.stillWaiting, stillWaiting)) : null,
      )
      grid = h('div', { class: 'queue-main' }, strip, grid)
    }
    const recent = h(
      'aside',
      { class: 'recent' },
      h('h2', { class: 'recent-heading' }, labels.recentCalls),
      h('ol', { class: 'recent-list' }, calls.slice(0, RECENT_CALLS).map((c) => this.recentRow(c, zone, now))),
    )
    this.shell.setContent(h('div', { class: `queue-layout${closed ? ' is-closed' : ''}`, 'data-closed': closed ? 'true' : null }, grid, recent))
    this.fit()
    this.scheduleRedraw(now)
  }

  /** Shrinks what does not fit (the recent calls, then the cards) and leaves out calls that do not fit whole. */
  private fit(): void {
    const content = this.shell.content
    const cards = [...content.querySelectorAll<HTMLElement>('.svc, .closed-panel, .closed-strip')]
    const rows = [...content.querySelectorAll<HTMLElement>('.recent-call')]
    // Every call row gets the scale its widest content needs. The rows first: in portrait the
    // recent calls take the height they need under the cards, so the cards' height is known
    // only once the rows are scaled (fitted before, a card fitted a taller box than it got).
    fitBoxes(rows, 0.6)
    fitBoxes(cards, 0.25)
    // The service cards are one set: each drawn at the smallest card's scale, so a card with less
    // in it (a closed service, whose opening wraps) is never drawn larger than its neighbours.
    const services = cards.filter((card) => card.classList.contains('svc'))
    const scale = Math.min(...services.map((card) => Number(card.style.getPropertyValue('--fit') || 1)))
    for (const card of services) card.style.setProperty('--fit', scale.toFixed(3))
    // The list shows as many calls as fit whole.
    const list = content.querySelector<HTMLElement>('.recent-list')
    if (list !== null) hidePartialRows(list, rows)
  }

  private card(service: QueueServiceState, location: QueueLocation | undefined, now: number, zone: string | undefined): HTMLElement {
    const { labels, lang } = this.ctx
    const serving = service.nowServing
    const fresh = (this.highlightUntil.get(cardKey(service)) ?? 0) > now
    // A closed service (contract §18): its card stays (tickets taken before still get called), marked, with its opening instead of the estimate.
    // Contract §28: the words of a ticket taken now come from the one wait verdict.
    const verdict = waitVerdict(service)
    const closedStat = verdict.kind !== 'closed'
      ? null
      : h('span', { class: 'stat svc-closed' }, verdict.opensAt === null ? labels.closed : fill(labels.serviceOpensAt, { when: formatOpening(lang, zone, verdict.opensAt, now) }))
    return h(
      'article',
      {
        class: `svc${fresh ? ' is-new' : ''}${serving === null ? ' is-idle' : ''}${service.open ? '' : ' is-closed'}`,
        'data-service': service.id, 'data-location': service.locationId, 'data-open': String(service.open),
      },
      h('header', { class: 'svc-head' }, this.named('span', 'svc-name', service.names, service.name), location ? this.named('span', 'svc-location', location.names, location.name) : null),
      h(
        'div',
        { class: 'svc-now' },
        h('span', { class: 'svc-label' }, labels.nowServing),
        h('bdi', { class: 'svc-number' }, serving?.number ?? '—'),
        serving ? this.named('span', 'svc-counter', serving.counterNames, serving.counterName) : null,
      ),
      h(
        'footer',
        { class: 'svc-stats' },
        // The people waiting are the people a ticket taken now has ahead (the line's call order, the number every page says).
        h('span', { class: 'stat' }, h('span', { class: 'stat-label' }, labels.waiting), ' ', h('b', { class: 'stat-value svc-waiting' }, formatNumber(lang, service.peopleAhead))),
        // Contract §19, §28: "You're next" only with nobody ahead and a counter free for it; no counter open is said in words.
        closedStat ?? h('span', { class: 'stat' }, h('span', { class: 'stat-label' }, labels.estWait), ' ', h('b', { class: 'stat-value svc-wait' },
          verdict.kind === 'noCounter' ? labels.noCounterOpen : verdict.kind === 'next' ? labels.youreNext : verdict.kind === 'closed' ? labels.closed : formatSaidMinutes(lang, verdict.minutes))),
      ),
    )
  }

  /** A name in the board's language, else the unit's default, else the first (contract §18). */
  private nameOf(names: Names, fallback: string): string {
    return nameIn(names, this.ctx.lang, this.defaultLanguage, fallback)
  }

  /** An element with a name in the board's language; `lang` says which language it is in (it may be a fallback), so it is shaped and read as such. */
  private named(tag: 'span', className: string, names: Names, fallback: string): HTMLElement {
    return h(tag, { class: className, dir: 'auto', lang: languageOfName(names, this.ctx.lang, this.defaultLanguage) }, this.nameOf(names, fallback))
  }

  private recentRow(call: RecentCall, zone: string | undefined, now: number): HTMLElement {
    const fresh = (this.highlightUntil.get(callKey(call)) ?? 0) > now
    return h(
      'li',
      { class: `recent-call${fresh ? ' is-new' : ''}` },
      h('bdi', { class: 'recent-number' }, call.number),
      h('span', { class: 'recent-arrow', 'aria-hidden': 'true' }, '→'),
      this.named('span', 'recent-counter', call.counterNames, call.counterName),
      h('time', { class: 'recent-time', datetime: call.calledAt }, formatTime(this.ctx.lang, zone, call.calledAt)),
    )
  }

  /**
   * Marks and announces calls not seen before. The first data only primes the memory: those
   * calls were made before the screen came on. After a reconnect, a missed call is announced
   * only while it is recent.
   */
  private announceNewCalls(calls: RecentCall[], services: QueueServiceState[]): void {
    const now = serverNow()
    const fresh: RecentCall[] = []
    for (const call of calls) {
      const key = callKey(call)
      if (this.seen.has(key)) continue
      this.seen.add(key)
      if (this.primed && now - Date.parse(call.calledAt) < ANNOUNCE_WITHIN_MS) fresh.push(call)
    }
    this.primed = true
    if (this.seen.size > 500) {
      const keep = new Set(calls.map(callKey))
      for (const key of this.seen) if (!keep.has(key)) this.seen.delete(key)
    }
    // Oldest first, so the banner calls them in the order they were made.
    for (const call of fresh.reverse()) {
      this.highlightUntil.set(callKey(call), now + HIGHLIGHT_MS)
      const service = services.find((s) => s.id === call.serviceId && s.locationId === call.locationId)
      if (service) this.highlightUntil.set(cardKey(service), now + HIGHLIGHT_MS)
      const counter = this.nameOf(call.counterNames, call.counterName)
      this.banner.announce({ number: call.number, counter, counterLang: languageOfName(call.counterNames, this.ctx.lang, this.defaultLanguage) })
      // Speech says the counter in the board's language; recorded clips are found by the counter itself.
      this.announcer?.announce({ number: call.number, counterName: call.counterName, spokenCounter: counter, locationId: call.locationId })
    }
  }

  /** Takes marks off when they expire. */
  private scheduleRedraw(now: number): void {
    clearTimeout(this.redrawTimer)
    let next = Infinity
    for (const [key, until] of this.highlightUntil) {
      if (until <= now) this.highlightUntil.delete(key)
      else next = Math.min(next, until)
    }
    if (next !== Infinity) this.redrawTimer = setTimeout(() => this.redraw(), next - now + 50)
  }
}

/** The earliest of some ISO instants, or null when none is given. */
function earliest(instants: (string | null)[]): string | null {
  const given = instants.filter((at): at is string => at !== null).sort((a, b) => Date.parse(a) - Date.parse(b))
  return given[0] ?? null
}

/** Cards are sized by how many there are: a lone service gets a huge number. */
function bucket(count: number): string {
  if (count <= 1) return '1'
  if (count <= 2) return '2'
  if (count <= 3) return '3'
  if (count <= 4) return '4'
  if (count <= 6) return '6'
  if (count <= 9) return '9'
  return 'many'
}

/** The "A008 — please go to — Counter 2" banner, one call at a time. */
class CallBanner {
  private readonly el: HTMLElement
  private readonly pending: ShownCall[] = []
  private showing = false

  constructor(
    private readonly ctx: ScreenContext,
    private readonly chime: Chime | null,
  ) {
    this.el = h('div', { class: 'call-banner', role: 'status', 'aria-live': 'assertive', hidden: true })
    document.getElementById('screen')?.append(this.el)
  }

  announce(call: ShownCall): void {
    this.pending.push(call)
    if (!this.showing) this.next()
  }

  private next(): void {
    const call = this.pending.shift()
    if (call === undefined) {
      this.showing = false
      this.el.hidden = true
      return
    }
    this.showing = true
    this.el.replaceChildren(
      h('bdi', { class: 'banner-number' }, call.number),
      h('span', { class: 'banner-goto' }, this.ctx.labels.pleaseGoTo),
      h('span', { class: 'banner-counter', dir: 'auto', lang: call.counterLang }, call.counter),
    )
    this.el.hidden = false
    fitBoxes([this.el], 0.2)
    // Restart the entrance animation for each call.
    this.el.classList.remove('is-entering')
    void this.el.offsetWidth
    this.el.classList.add('is-entering')
    void this.chime?.play()
    setTimeout(() => this.next(), this.pending.length > 0 ? BANNER_BUSY_MS : BANNER_MS)
  }
}
