import { canonicalLang, directionOf } from '../../shared/options'
import { h, byId } from '../dom'
import { fill } from '../i18n'
import { formatMinutes, formatNumber } from '../format'
import { Chime } from '../chime'
import { phoneWords, type PhoneWords } from './strings'

/** The wire format of `GET /api/phone/v1/tickets/{code}` (src/phone/service.ts). */
type Status =
  | { state: 'WAITING' | 'CALLED' | 'SERVING'; ticketNumber: string; serviceName: string; locationName: string; branchName: string; peopleAhead: number; estimatedWaitSeconds: number; counterName: string | null; callCount: number }
  | { state: 'ENDED' }
  | { state: 'EXPIRED' }

const LANG_KEY = 'lobby.phone.lang'

/**
 * The ticket on a phone (contract §10): a long poll on the status read (the answer comes as
 * soon as the ticket's line changes), the place in line in words, and when the ticket is
 * called "Please go to Counter 3" with a vibration and a chime where the phone allows.
 */
class PhonePage {
  private readonly root = byId('phone')
  private readonly code = this.root.dataset.code ?? ''
  private readonly lang: string
  private readonly words: PhoneWords
  private readonly chime = new Chime()
  private version = ''
  private lastCall = 0
  private shown = false
  private readonly banner = h('p', { class: 'phone-offline', role: 'status', hidden: true })
  private readonly body = h('div', { class: 'phone-body', 'aria-live': 'polite' })

  constructor() {
    let stored: string | null = null
    try {
      stored = localStorage.getItem(LANG_KEY)
    } catch {}
    this.lang = canonicalLang(new URLSearchParams(location.search).get('lang')) ?? canonicalLang(stored) ?? canonicalLang(navigator.language) ?? 'en'
    this.words = phoneWords(this.lang)
    document.documentElement.lang = this.lang
    document.documentElement.dir = directionOf(this.lang)
    document.title = this.words.title
    const other = this.words.languageTag
    const switcher = h('a', { class: 'phone-lang', href: `?lang=${other}`, lang: other, hreflang: other }, this.words.language)
    switcher.addEventListener('click', () => {
      try {
        localStorage.setItem(LANG_KEY, other)
      } catch {}
    })
    this.root.replaceChildren(h('header', { class: 'phone-header' }, switcher), this.banner, this.body)
  }

  async run(): Promise<void> {
    for (let delay = 1000; ;) {
      let response: Response | null = null
      try {
        response = await fetch(`/api/phone/v1/tickets/${encodeURIComponent(this.code)}${this.version ? `?since=${encodeURIComponent(this.version)}` : ''}`, { cache: 'no-store' })
      } catch {}
      if (response !== null && response.status === 404) return this.message(this.words.notFound, this.words.notFoundHint, 'bad')
      if (response !== null && response.ok) {
        const answer = (await response.json().catch(() => null)) as { data: Status; version: string } | null
        if (answer !== null) {
          this.banner.hidden = true
          delay = 1000
          this.version = answer.version
          if (this.show(answer.data)) return
          continue
        }
      }
      // No answer (offline, server restarting) or a refusal: say so, keep what is shown, retry.
      this.banner.hidden = false
      this.banner.textContent = this.words.offline
      if (!this.shown) this.body.replaceChildren(h('p', { class: 'phone-hint' }, this.words.offline))
      const retryAfter = Number(response?.headers.get('retry-after') ?? 0) * 1000
      await new Promise((resolve) => setTimeout(resolve, Math.max(delay, retryAfter)))
      // At most 2 s between tries: the page is back within 3 s of the server (contract §23).
      delay = 2000
    }
  }

  /** Paints a status; true when the ticket is over (the page stops asking). */
  private show(status: Status): boolean {
    this.shown = true
    const w = this.words
    if (status.state === 'ENDED') return this.message(w.ended, w.endedHint, 'done'), true
    if (status.state === 'EXPIRED') return this.message(w.expired, w.expiredHint, 'done'), true
    const lang = this.lang
    const counter = status.counterName ?? ''
    const head = [
      // The page's one heading: "Your number A012".
      h('h1', { class: 'phone-heading' },
        h('span', { class: 'phone-label' }, w.yourNumber),
        h('span', { class: 'phone-number', dir: 'ltr' }, status.ticketNumber)),
      h('p', { class: 'phone-service', dir: 'auto' }, status.serviceName),
      h('p', { class: 'phone-place', dir: 'auto' }, `${status.locationName} · ${status.branchName}`),
    ]
    if (status.state === 'WAITING') {
      this.root.dataset.state = 'waiting'
      this.body.replaceChildren(
        ...head,
        h('dl', { class: 'phone-facts' },
          h('div', null, h('dt', null, w.peopleAhead), h('dd', { class: 'phone-ahead' }, formatNumber(lang, status.peopleAhead))),
          h('div', null, h('dt', null, w.approxWait), h('dd', { class: 'phone-wait' }, formatMinutes(lang, status.estimatedWaitSeconds)))),
        h('p', { class: 'phone-hint' }, status.peopleAhead === 0 ? `${w.nextUp} ${w.waitingHint}` : w.waitingHint),
      )
      return false
    }
    this.root.dataset.state = status.state.toLowerCase()
    const called = status.state === 'CALLED'
    this.body.replaceChildren(
      h('div', { class: 'phone-call', role: 'alert' },
        h('p', { class: 'phone-call-text' }, fill(called ? w.called : w.serving, { counter })),
        called ? h('p', null, w.calledHint) : null),
      ...head,
    )
    if (called && status.callCount > this.lastCall) this.alert()
    this.lastCall = status.callCount
    return false
  }

  /** A call or a recall: vibrate and chime where the phone allows (the chime after any tap on the page). */
  private alert(): void {
    try {
      navigator.vibrate?.([400, 200, 400, 200, 400])
    } catch {}
    this.chime.play()
  }

  private message(heading: string, hint: string, tone: 'bad' | 'done'): void {
    this.root.dataset.state = tone
    this.banner.hidden = true
    this.body.replaceChildren(h('section', { class: 'phone-message', role: 'status' }, h('h1', null, heading), h('p', null, hint)))
  }
}

void new PhonePage().run()
