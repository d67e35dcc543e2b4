import { canonicalLang, directionOf } from '../../shared/options'
import { h, byId } from '../dom'
import { fill } from '../i18n'
import { formatMinutes, formatNumber } from '../format'
import { Chime } from '../chime'
import { languageOfName, matchLanguage, nameIn } from '../names'
import { languageName } from '../language-name'
import { PHONE_WORD_LANGUAGES, phoneWords, type PhoneWords } from './strings'

type Names = Record<string, string>
/** The wire format of `GET /api/phone/v1/tickets/{code}` (src/phone/service.ts). */
type Status =
  | {
      state: 'WAITING' | 'CALLED' | 'SERVING'; language: string; defaultLanguage: string; languages: string[]; ticketNumber: string
      serviceName: string; serviceNames: Names; locationName: string; locationNames: Names; branchName: string; branchNames: Names
      peopleAhead: number; estimatedWaitSeconds: number; noCounterOpen?: boolean; counterName: string | null; counterNames: Names | null; callCount: number
    }
  | { state: 'ENDED'; language: string }
  | { state: 'EXPIRED'; language: string }

/**
 * The ticket on a phone (contract §10): a long poll on the status read (the answer comes as
 * soon as the ticket's line changes), the place in line in words, and when the ticket is
 * called "Please go to Counter 3" with a vibration and a chime where the phone allows.
 *
 * Contract §18: the page speaks the language the ticket was taken in (the status's
 * `language`). It offers a switch to the unit's other languages and to the page's own word
 * languages (English and Arabic, contract §10); the reader's choice is the URL's `?lang=` and
 * wins while it is one of those. Nothing else (the browser's language, an earlier visit)
 * overrides the ticket's language. Names follow the page (nameIn: else the unit's default).
 */
class PhonePage {
  private readonly root = byId('phone')
  private readonly code = this.root.dataset.code ?? ''
  private lang: string
  private words: PhoneWords
  /** The reader's choice from the switch (`?lang=`), or null: the ticket's language. */
  private readonly chosen = canonicalLang(new URLSearchParams(location.search).get('lang'))
  private switchFor = ''
  private readonly switcher = h('nav', { class: 'phone-langs' })
  private readonly chime = new Chime()
  private version = ''
  private lastCall = 0
  private shown = false
  private readonly banner = h('p', { class: 'phone-offline', role: 'status', hidden: true })
  private readonly body = h('div', { class: 'phone-body', 'aria-live': 'polite' })

  constructor() {
    // Until the first status: the URL's language (the server wrote the same into the page).
    this.lang = this.chosen ?? (document.documentElement.lang || 'en')
    this.words = phoneWords(this.lang)
    this.setLanguage(this.lang, true)
    this.root.replaceChildren(h('header', { class: 'phone-header' }, this.switcher), this.banner, this.body)
  }

  private setLanguage(lang: string, force = false): void {
    if (lang === this.lang && !force) return
    this.lang = lang
    this.words = phoneWords(lang)
    document.documentElement.lang = lang
    document.documentElement.dir = directionOf(lang)
    document.title = this.words.title
  }

  /** The page's language for a status: the reader's choice while the unit has it, else the ticket's. */
  private follow(status: Status): void {
    const unit = 'languages' in status ? status.languages : null
    const languages = unit === null ? null : [...unit, ...PHONE_WORD_LANGUAGES.filter((tag) => matchLanguage(tag, unit) === null)]
    const chosen = this.chosen === null ? null : languages === null ? this.chosen : matchLanguage(this.chosen, languages)
    this.setLanguage(chosen ?? status.language)
    if (languages === null) return
    const key = `${this.lang}|${languages.join(',')}`
    if (key === this.switchFor) return
    this.switchFor = key
    this.switcher.setAttribute('aria-label', this.words.languageLabel)
    // The other languages, each named in itself.
    this.switcher.replaceChildren(...languages.filter((tag) => tag !== this.lang).map((tag) =>
      h('a', { class: 'phone-lang', href: `?lang=${encodeURIComponent(tag)}`, lang: tag, hreflang: tag, dir: directionOf(tag) }, languageName(tag))))
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
    this.follow(status)
    const w = this.words
    if (status.state === 'ENDED') return this.message(w.ended, w.endedHint, 'done'), true
    if (status.state === 'EXPIRED') return this.message(w.expired, w.expiredHint, 'done'), true
    const lang = this.lang
    const fallback = status.defaultLanguage
    const counter = status.counterName === null ? '' : nameIn(status.counterNames, lang, fallback, status.counterName)
    const head = [
      // The page's one heading: "Your number A012".
      h('h1', { class: 'phone-heading' },
        h('span', { class: 'phone-label' }, w.yourNumber),
        h('span', { class: 'phone-number', dir: 'ltr' }, status.ticketNumber)),
      h('p', { class: 'phone-service', dir: 'auto', lang: languageOfName(status.serviceNames, lang, fallback) }, nameIn(status.serviceNames, lang, fallback, status.serviceName)),
      h('p', { class: 'phone-place', dir: 'auto' },
        h('bdi', { lang: languageOfName(status.locationNames, lang, fallback) }, nameIn(status.locationNames, lang, fallback, status.locationName)), ' · ',
        h('bdi', { lang: languageOfName(status.branchNames, lang, fallback) }, nameIn(status.branchNames, lang, fallback, status.branchName))),
    ]
    if (status.state === 'WAITING') {
      this.root.dataset.state = 'waiting'
      this.body.replaceChildren(
        ...head,
        h('dl', { class: 'phone-facts' },
          h('div', null, h('dt', null, w.peopleAhead), h('dd', { class: 'phone-ahead' }, formatNumber(lang, status.peopleAhead))),
          // Contract §19: nobody ahead and a free counter is "You're next", never "1 min".
          h('div', null, h('dt', null, w.approxWait), h('dd', { class: 'phone-wait' },
            status.peopleAhead === 0 && status.estimatedWaitSeconds === 0 ? w.youreNext : formatMinutes(lang, status.estimatedWaitSeconds)))),
        ...(status.noCounterOpen === true ? [h('p', { class: 'phone-no-counter' }, w.noCounterOpen)] : []),
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
