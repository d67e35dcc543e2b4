import { canonicalLang, directionOf } from '../../screens/shared/options'
import { h, byId } from '../dom'
import { fill } from '../i18n'
import { api } from '../api'
import { formatNumber, formatSaidMinutes } from '../../screens/shared/format'
import { waitVerdict } from '../../screens/shared/wait-verdict'
import { Chime } from '../chime'
import { languageOfName, matchLanguage, nameIn } from '../names'
import { languageName } from '../../screens/shared/language-name'
import { PHONE_WORD_LANGUAGES, phoneWords, type PhoneWords } from './strings'
import { NotifyPart } from './notify'
import type { PhoneFeedbackRequest, PhoneStatus, PhoneStatusResponse } from '../../contract/wire'

/** The wire format of `GET /api/phone/v1/tickets/{code}` (src/phone/model.ts). */
type Status = PhoneStatus

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
  /** The waiting page's facts (re-drawn on each status) and its controls (kept, so focus stays on them). */
  private readonly info = h('div')
  private readonly controls = h('section', { class: 'phone-actions' })
  private readonly note = h('p', { class: 'phone-note', role: 'status' })
  private confirming = false
  private busy = false
  private left = false
  /** Contract §20: the approaching notice is given once, when the people ahead drop to the mark while the page is open. */
  private lastAhead: number | null = null
  private approached = false
  private current: Status | null = null
  private controlsFor = ''
  /** Contract §25 "Notify me": read once the ticket is first seen waiting. */
  private readonly notify = new NotifyPart(this.code, () => this.words)
  private notifyAsked = false

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
        const answer = (await response.json().catch(() => null)) as PhoneStatusResponse | null
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
    if (status.state === 'ENDED') return this.ended(status)
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
      this.approach(status)
      if (this.body.firstChild !== this.info) this.body.replaceChildren(this.info, this.controls)
      const verdict = waitVerdict({ ...status, counterFree: status.counterFree === true, noCounterOpen: status.noCounterOpen === true })
      this.info.replaceChildren(
        ...(status.transferred ? [h('p', { class: 'phone-transferred' }, fill(w.transferred, { service: nameIn(status.serviceNames, lang, fallback, status.serviceName) }))] : []),
        ...head,
        // Contract §28: "You're next" alone (no count, no minutes), only with nobody ahead and a
        // counter free for it; else the people ahead and the minutes, "No counter is open" beside them.
        verdict.kind === 'next'
          ? h('p', { class: 'phone-next' }, w.youreNext)
          : h('dl', { class: 'phone-facts' },
            h('div', null, h('dt', null, w.peopleAhead), h('dd', { class: 'phone-ahead' }, formatNumber(lang, status.peopleAhead))),
            h('div', null, h('dt', null, w.approxWait), h('dd', { class: 'phone-wait' }, verdict.kind === 'closed' ? '' : formatSaidMinutes(lang, verdict.minutes)))),
        ...(verdict.kind === 'noCounter' ? [h('p', { class: 'phone-no-counter' }, w.noCounterOpen)] : []),
        h('p', { class: 'phone-hint' }, w.waitingHint),
      )
      this.current = status
      this.drawControls()
      if (!this.notifyAsked) {
        this.notifyAsked = true
        void this.notify.load(() => {
          this.controlsFor = ''
          this.drawControls()
        }).then((loaded) => {
          if (!loaded) this.notifyAsked = false
        })
      }
      return false
    }
    this.current = null
    this.confirming = false
    this.root.dataset.state = status.state.toLowerCase()
    const called = status.state === 'CALLED'
    this.body.replaceChildren(
      h('div', { class: 'phone-call', role: 'alert' },
        h('p', { class: 'phone-call-text' }, fill(called ? w.called : w.serving, { counter })),
        called ? h('p', null, w.calledHint) : null),
      ...head,
      // Contract §25: the contacts stay removable while the ticket is called or served.
      ...(this.notify.offered ? [this.notify.element] : []),
    )
    if (this.notify.offered) this.notify.draw()
    if (called && status.callCount > this.lastCall) this.alert()
    this.lastCall = status.callCount
    return false
  }

  /** The page's answer to an ended ticket; true when nothing more can change (the page stops asking). */
  private ended(status: Extract<Status, { state: 'ENDED' }>): boolean {
    const w = this.words
    this.current = null
    if (status.outcome === 'NO_SHOW') {
      // A desk may bring the ticket back within the unit's grace: keep following it.
      this.message(w.missed, w.missedHint, 'bad')
      return false
    }
    if (status.outcome === 'CANCELLED') return this.message(this.left ? w.left : w.cancelled, this.left ? w.leftHint : w.endedHint, 'done'), true
    if (status.feedback === 'OPEN') return this.rating(), true
    if (status.feedback === 'GIVEN') return this.message(w.thanks, w.thanksHint, 'done'), true
    return this.message(w.ended, `${w.endedHint} ${w.rateClosed}`, 'done'), true
  }

  /** Draws the waiting page's controls when what they show changed (not on every status: focus stays put). */
  private drawControls(): void {
    const status = this.current
    if (status === null || status.state !== 'WAITING') return
    const w = this.words
    const key = [this.lang, this.confirming, this.busy, status.moreTimeLeft, status.ticketNumber, notificationState(), this.notify.offered].join('|')
    if (key === this.controlsFor) return
    this.controlsFor = key
    this.controls.setAttribute('aria-label', w.actionsLabel)
    if (this.confirming) {
      const no = button(w.leaveNo, 'phone-button', () => this.confirm(false))
      const yes = button(w.leaveYes, 'phone-button phone-danger', () => void this.change('leave'))
      const panel = h('div', { class: 'phone-confirm', role: 'group', 'aria-labelledby': 'leave-title', 'aria-describedby': 'leave-text' },
        h('h2', { id: 'leave-title' }, w.leaveConfirmTitle),
        h('p', { id: 'leave-text' }, fill(w.leaveConfirmText, { number: status.ticketNumber })),
        h('div', { class: 'phone-row' }, no, yes))
      panel.addEventListener('keydown', (event) => { if (event.key === 'Escape') this.confirm(false) })
      yes.disabled = no.disabled = this.busy
      this.controls.replaceChildren(panel, this.note)
      no.focus()
      return
    }
    const more = button(w.moreTime, 'phone-button', () => void this.change('more-time'))
    more.disabled = this.busy || status.moreTimeLeft === 0
    more.setAttribute('aria-describedby', 'more-hint')
    const leave = button(w.leave, 'phone-button phone-quiet', () => this.confirm(true))
    leave.disabled = this.busy
    // Contract §25: where the branch sends messages, "Notify me" is theirs (push, a number, an
    // address); else the in-page notice of §20, which works while this page stays open.
    const offered = this.notify.offered
    const notify = !offered && notificationState() === 'default' ? button(w.notifyMe, 'phone-button phone-quiet', () => void this.askNotify()) : null
    if (offered) this.notify.draw()
    this.controls.replaceChildren(
      more,
      h('p', { class: 'phone-hint', id: 'more-hint' }, status.moreTimeLeft === 0 ? w.moreTimeLimit : `${w.moreTimeHint} ${status.moreTimeLeft === 1 ? w.moreTimeOnce : w.moreTimeTwice}`),
      leave,
      ...(notify === null ? [] : [notify, h('p', { class: 'phone-hint' }, w.notifyHint)]),
      ...(!offered && notificationState() === 'granted' ? [h('p', { class: 'phone-hint' }, w.notifyOn)] : []),
      ...(!offered && notificationState() === 'denied' ? [h('p', { class: 'phone-hint' }, w.notifyBlocked)] : []),
      this.note,
      ...(offered ? [this.notify.element] : []),
    )
  }

  private confirm(on: boolean): void {
    this.confirming = on
    this.note.textContent = ''
    this.drawControls()
    if (!on) (this.controls.querySelector('.phone-quiet') as HTMLElement | null)?.focus()
  }

  /** Leave or more time: the answer is the ticket's new status; a refusal is said in words. */
  private async change(action: 'leave' | 'more-time'): Promise<void> {
    if (this.busy) return
    this.busy = true
    this.drawControls()
    const answer = await api<PhoneStatusResponse>('POST', `/api/phone/v1/tickets/${encodeURIComponent(this.code)}/${action}`)
    this.busy = false
    this.confirming = false
    if (answer !== null && answer.status === 200 && answer.body !== null) {
      if (action === 'leave') this.left = true
      this.version = answer.body.version
      this.controlsFor = ''
      this.show(answer.body.data)
      if (action === 'more-time' && answer.body.data.state === 'WAITING') {
        this.note.textContent = this.words.moreTimeDone
        ;(this.controls.querySelector('button:not([disabled])') as HTMLElement | null)?.focus()
      }
      return
    }
    this.controlsFor = ''
    this.drawControls()
    this.note.textContent = this.refusal(answer?.status ?? 0, answer?.code ?? null)
  }

  private refusal(status: number, code: string | null): string {
    const w = this.words
    if (status === 429) return w.tooMany
    if (code === 'MORE_TIME_LIMIT_REACHED') return w.moreTimeLimit
    if (code === 'TICKET_NOT_WAITING' || code === 'INVALID_TRANSITION') return w.notWaiting
    if (code === 'FEEDBACK_WINDOW_CLOSED') return w.rateClosed
    return status === 0 ? w.offline : w.failed
  }

  /** "Notify me": the permission request comes from the customer's tap, never by itself. */
  private async askNotify(): Promise<void> {
    try {
      await Notification.requestPermission()
    } catch {}
    this.controlsFor = ''
    this.drawControls()
  }

  /** Contract §20 `ticket.approaching` on the page: once, when the people ahead drop to the unit's mark while the page is open. */
  private approach(status: Extract<Status, { callCount: number }>): void {
    const before = this.lastAhead
    this.lastAhead = status.peopleAhead
    if (this.approached || before === null || before <= status.approachingAhead || status.peopleAhead > status.approachingAhead) return
    this.approached = true
    this.root.dataset.approached = 'true'
    const text = fill(this.words.approachingText, { number: status.ticketNumber, n: formatNumber(this.lang, status.peopleAhead) })
    try {
      navigator.vibrate?.([300, 150, 300])
    } catch {}
    // Sounds only where the phone already allows it (after a tap on the page): no surprise.
    void this.chime.play()
    if (notificationState() === 'granted' && !this.notify.pushing) {
      try {
        new Notification(this.words.approaching, { body: text, tag: `lobby-${this.code.slice(0, 8)}`, lang: this.lang })
      } catch {}
    }
  }

  /** The rating of a completed visit: five choices (a native radio group: arrows move, Space picks), an optional comment, Send. */
  private rating(): void {
    const w = this.words
    this.root.dataset.state = 'rate'
    const names = w.rateNames.split('|')
    const choices = [1, 2, 3, 4, 5].map((n) =>
      h('label', { class: 'phone-star' },
        h('input', { type: 'radio', name: 'rating', value: String(n), 'aria-label': `${formatNumber(this.lang, n)} – ${names[n - 1]}` }),
        h('span', { 'aria-hidden': 'true' }, formatNumber(this.lang, n)),
        h('small', { 'aria-hidden': 'true' }, names[n - 1]!)))
    const comment = h('textarea', { id: 'comment', name: 'comment', maxlength: '500', rows: '3', dir: 'auto', 'aria-describedby': 'comment-count' })
    const count = h('p', { class: 'phone-hint', id: 'comment-count' }, fill(w.commentCount, { n: formatNumber(this.lang, 0) }))
    comment.addEventListener('input', () => { count.textContent = fill(w.commentCount, { n: formatNumber(this.lang, [...comment.value].length) }) })
    const note = h('p', { class: 'phone-note', role: 'status' })
    const send = h('button', { type: 'submit', class: 'phone-button' }, w.send)
    const form = h('form', { class: 'phone-rate', novalidate: true },
      h('fieldset', null, h('legend', null, w.rateLegend), h('div', { class: 'phone-stars' }, ...choices)),
      h('label', { for: 'comment', class: 'phone-comment-label' }, w.commentLabel), comment, count, send, note)
    // A choice answers "Please choose a rating": the request goes.
    form.addEventListener('change', (event) => { if ((event.target as HTMLInputElement).name === 'rating') note.textContent = '' })
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      const picked = form.querySelector<HTMLInputElement>('input[name=rating]:checked')
      if (picked === null) {
        note.textContent = w.chooseRating
        ;(form.querySelector('input[name=rating]') as HTMLElement).focus()
        return
      }
      send.disabled = true
      const text = comment.value.trim()
      void api<PhoneStatusResponse>('POST', `/api/phone/v1/tickets/${encodeURIComponent(this.code)}/feedback`, { rating: Number(picked.value), ...(text === '' ? {} : { comment: text }) } satisfies PhoneFeedbackRequest).then((answer) => {
        send.disabled = false
        if (answer !== null && (answer.status === 200 || answer.code === 'FEEDBACK_ALREADY_GIVEN')) return this.message(w.thanks, w.thanksHint, 'done')
        note.textContent = this.refusal(answer?.status ?? 0, answer?.code ?? null)
      })
    })
    this.banner.hidden = true
    this.body.replaceChildren(h('section', { class: 'phone-message' }, h('h1', null, w.visitThanks), h('h2', null, w.rateTitle), form))
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

function button(label: string, className: string, onClick: () => void): HTMLButtonElement {
  const el = h('button', { type: 'button', class: className }, label)
  el.addEventListener('click', onClick)
  return el
}

/** The Notification permission, or 'unsupported' where the browser has none. */
function notificationState(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission
}

void new PhonePage().run()
