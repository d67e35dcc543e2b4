import { h } from '../dom'
import { serverNow } from '../clock'
import { fill } from '../i18n'
import { formatNumber, formatOpening, formatSaidMinutes, formatTime } from '../../screens/shared/format'
import { waitVerdict } from '../../screens/shared/wait-verdict'
import { LiveTopic, type ConnectionState, type Problem } from '../live'
import { languageOfName, matchLanguage, nameIn } from '../names'
import { canonicalLang, directionOf } from '../../screens/shared/options'
import { api, whoAmI, type ApiAnswer, type DevicePage, type DeviceInfo } from './page'
import { detailAfter } from '../api'
import type { KioskTicket, KioskView } from '../../contract/wire'
import { countWords, kioskWordsFor, languageName, type KioskWordKey, type KioskWords, type PluralWords } from '../../screens/shared/kiosk-strings'

/** The words that are plain text (`{placeholders}` allowed); counts go through `count`. */
type KioskTextKey = { [K in KioskWordKey]: KioskWords[K] extends string ? K : never }[KioskWordKey]

// The wire format of `GET /api/devices/v1/kiosk` and of an issued ticket: KioskView and
// KioskTicket (src/kiosk/model.ts, through src/contract/wire.ts).

const API = '/api/devices/v1/kiosk'
/** Contract §9: the ticket screen goes back to the start after 15 s, or at a touch. */
const TICKET_SCREEN_SECONDS = 15
/** A touch this soon after the ticket appeared is the tail of a double tap, not "done". */
const TOUCH_GUARD_MS = 1200
/** Retries of one tap when no answer came (dropped connection), with the same Idempotency-Key. */
const RETRIES = 3
const RETRY_DELAY_MS = 800
/**
 * A tap whose every try went unanswered may have made a ticket that never showed: a new tap on
 * the same service within this time reuses its key, so it shows that ticket instead of a second.
 */
const PENDING_KEY_MS = 120_000
/** Errors go back to the start screen by themselves after this. */
const ERROR_SECONDS = 10
/** The kiosk's heartbeat on its live socket; revocation reaches it within 2 s as at the desk (desk.ts). */
const HEARTBEAT_MS = 5000
/**
 * The start screen is read again this often: opening hours change what it offers without any
 * queue change (a service opens or closes at a time of day), and "Opens 08:30" reads for today.
 */
const HOURS_REREAD_MS = 60_000

/**
 * The kiosk (contract §9): a button per active service of its location (name, people waiting,
 * approximate wait), a language switch, and at a touch a ticket issued with one Idempotency-Key
 * per tap (reused on a retry), shown very large with its QR code, printed when printing is on
 * (`?printing=on`, `?paper=58` for 58 mm rolls), and back to the start after 15 s or a touch.
 * Errors are said in words; nothing is ever half-issued: a tap shows a ticket or says why not.
 */
export class KioskPage {
  private view: KioskView | null = null
  private topic: LiveTopic<{ data: KioskView }> | null = null
  private online = false
  /** The live feed has reported its state at least once. */
  private connectionKnown = false
  private busy = false
  private ended = false
  private screen: 'start' | 'ticket' | 'error' | 'appointment' = 'start'
  private backTimer: ReturnType<typeof setInterval> | undefined
  private pending: { serviceId: string; priority: boolean; key: string; at: number } | null = null
  /** The "Priority" choice (contract §8, where the unit offers it): for the next tap only. */
  private priority = false
  /**
   * Contract §18: the page's language, one of the unit's `languages`: the URL's `lang` when the
   * unit has it, else the unit's default. Until the first view it is the device page's guess.
   */
  private lang: string
  private words: KioskWords
  /** The languages the switch shows now (repainted only when they change). */
  private switchFor = ''
  private readonly urlLang = canonicalLang(new URLSearchParams(location.search).get('lang'))
  private readonly printing: boolean
  private readonly paper: '80' | '58'
  private readonly el = {
    // A no-break space until the data comes: the header has its height from the first paint,
    // so filling it in moves nothing below (layout shift, CLS under 0.05).
    branch: h('h1', { class: 'kiosk-branch', dir: 'auto' }, '\u00a0'),
    location: h('p', { class: 'kiosk-location', dir: 'auto' }, '\u00a0'),
    languages: h('nav', { class: 'kiosk-languages', hidden: true }),
    banner: h('div', { class: 'kiosk-banner', role: 'alert', hidden: true }),
    main: h('div', { class: 'kiosk-main' }),
  }

  constructor(private readonly page: DevicePage) {
    this.lang = page.lang
    this.words = kioskWordsFor(page.lang)
    const query = new URLSearchParams(location.search)
    this.printing = ['on', '1', 'true', 'yes'].includes((query.get('printing') ?? '').toLowerCase())
    this.paper = query.get('paper') === '58' ? '58' : '80'
  }

  private t(key: KioskTextKey, values: Record<string, string | number> = {}): string {
    return fill(this.words[key], Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])))
  }

  /** A count in words, in the form its plural category takes in the page's language ("3 أشخاص", "11 شخصًا"). */
  private count(words: PluralWords, n: number): string {
    return countWords(words, n, this.lang, formatNumber(this.lang, n))
  }

  /**
   * Contract §18: the language the page speaks with this view: the URL's when the unit offers
   * it, else the unit's default. A change repaints the words and the page's direction.
   */
  private chooseLanguage(view: KioskView): void {
    const lang = (this.urlLang === null ? null : matchLanguage(this.urlLang, view.languages)) ?? view.defaultLanguage
    if (lang !== this.lang) {
      this.lang = lang
      this.words = kioskWordsFor(lang)
      document.documentElement.lang = lang
      document.documentElement.dir = directionOf(lang)
      document.title = `Lobby · ${this.words.title}`
    }
    const key = `${lang}|${view.languages.join(',')}`
    if (key === this.switchFor) return
    this.switchFor = key
    this.el.languages.setAttribute('aria-label', this.words.language)
    // Only a unit with more than one language shows a switch (no empty landmark otherwise).
    this.el.languages.hidden = view.languages.length < 2
    this.el.languages.replaceChildren(...(view.languages.length < 2 ? [] : view.languages.map((tag) => {
      const current = tag === lang
      const button = h('button', { type: 'button', class: 'kiosk-language', lang: tag, dir: directionOf(tag), 'aria-pressed': current ? 'true' : 'false' }, languageName(tag))
      button.addEventListener('click', () => {
        if (!current) this.page.chooseLanguage(tag)
      })
      return button
    })))
  }

  async start(): Promise<void> {
    document.title = `Lobby · ${this.words.title}`
    const device = await this.whoAmIUntilReachable()
    if (device === null) return this.unpaired(false)
    if (device.role !== 'kiosk' || device.binding.queueUnitId === undefined) {
      return this.page.showMessage(this.t('notKiosk', { role: device.role }), this.page.labels.notPairedHint, { label: this.page.labels.pairAgain, href: '/pair' })
    }
    this.build()
    this.topic = new LiveTopic<{ data: KioskView }>('queue', device.binding.queueUnitId, null, API, {
      data: (body) => {
        if (body?.data) this.show(body.data)
      },
      problem: (problem) => this.problem(problem),
      connection: (state) => this.connection(state),
    }, { rereadOnChange: true, heartbeatMs: HEARTBEAT_MS })
    this.topic.start()
    setInterval(() => {
      if (this.screen === 'start' && !this.busy && !this.ended) void this.topic?.refresh()
    }, HOURS_REREAD_MS)
  }

  private async whoAmIUntilReachable(): Promise<DeviceInfo | null> {
    for (let delay = 1000; ; delay = 2000) {
      const device = await whoAmI()
      if (device !== 'offline') return device
      this.page.showMessage(this.words.offline, this.words.offlineHint)
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }

  private build(): void {
    this.page.root.classList.add('is-kiosk')
    this.el.languages.setAttribute('aria-label', this.words.language)
    this.page.content.replaceChildren(
      h('div', { class: 'kiosk' },
        h('header', { class: 'kiosk-header' }, h('div', null, this.el.branch, this.el.location), this.el.languages),
        this.el.banner,
        this.el.main),
    )
    this.el.main.replaceChildren(h('p', { class: 'kiosk-hint' }, this.words.connecting))
  }

  // ---- data in ------------------------------------------------------------------------------

  private show(view: KioskView): void {
    this.view = view
    this.chooseLanguage(view)
    const lang = this.lang
    this.el.branch.textContent = nameIn(view.queueUnit.names, lang, view.defaultLanguage, view.branchName)
    this.el.branch.lang = languageOfName(view.queueUnit.names, lang, view.defaultLanguage)
    this.el.location.textContent = nameIn(view.location.names, lang, view.defaultLanguage, view.location.name)
    this.el.location.lang = languageOfName(view.location.names, lang, view.defaultLanguage)
    this.paintBanner()
    if (this.screen === 'start') this.paintStart()
  }

  private problem(problem: Problem): void {
    if (problem === 'token') void this.checkDevice()
  }

  private connection(state: ConnectionState): void {
    this.connectionKnown = true
    this.online = state.live
    this.page.root.classList.toggle('is-offline', !state.live)
    this.paintBanner()
    if (this.screen === 'start') this.paintStart()
  }

  private paintBanner(): void {
    // Not before the feed has said how it is: the first read comes before the websocket opens,
    // and a banner shown for that moment would push the services down and back (layout shift).
    const offline = this.connectionKnown && !this.online && this.view !== null
    this.el.banner.hidden = !offline
    this.el.banner.textContent = offline ? `${this.words.offline}. ${this.words.offlineHint}` : ''
  }

  private async checkDevice(): Promise<void> {
    if (this.ended) return
    if ((await whoAmI()) === null) this.unpaired(true)
  }

  private unpaired(wasPaired: boolean): void {
    if (this.ended) return
    this.ended = true
    const labels = this.page.labels
    this.page.showMessage(wasPaired ? labels.noLongerPaired : labels.notPaired, labels.notPairedHint, { label: labels.pairAgain, href: '/pair' })
  }

  // ---- the start screen ----------------------------------------------------------------------

  private paintStart(): void {
    if (this.ended) return
    const view = this.view
    if (view === null) return
    const lang = this.lang
    if (!view.queueUnit.active || !view.location.active) {
      this.el.main.replaceChildren(this.notice(this.words.unitInactive, this.words.unitInactiveHint))
      return
    }
    if (view.services.length === 0) {
      this.el.main.replaceChildren(this.notice(this.words.noServices, this.words.noServicesHint))
      return
    }
    // Contract §18: a closed branch says when it opens and offers no way to take a ticket.
    if (!view.open) {
      const hint = view.opensAt === null ? this.words.branchNoOpening : this.t('branchOpens', { when: this.opening(view.opensAt) })
      this.el.main.replaceChildren(this.notice(this.words.branchClosed, hint, 'kiosk-closed'))
      return
    }
    const count = view.services.length
    const priority = view.priorityChoice && this.priority
    const buttons = view.services.map((service) => {
      const name = h('span', { class: 'kiosk-service-name', dir: 'auto', lang: languageOfName(service.names, lang, view.defaultLanguage) },
        nameIn(service.names, lang, view.defaultLanguage, service.name))
      if (!service.open) {
        // Greyed and not pressable; the reason is the button's own text (its accessible name
        // and description), so a screen reader says "Loans, Closed now, Opens Monday 10:00".
        const reasonId = `kiosk-closed-${service.id}`
        const reason = service.opensAt === null ? this.words.noOpening : this.t('opens', { when: this.opening(service.opensAt) })
        return h('button', { type: 'button', class: 'kiosk-service is-closed', 'data-service-id': service.id, 'data-open': 'false', disabled: true, 'aria-describedby': reasonId },
          name,
          h('span', { class: 'kiosk-service-facts', id: reasonId },
            h('span', { class: 'kiosk-service-closed' }, this.words.closedNow),
            h('span', { class: 'kiosk-service-opens' }, reason)))
      }
      // Contract §28: the words of a ticket taken now (priority when chosen) from the one wait verdict.
      const forPriority = priority && service.priorityEstimatedWaitSeconds !== null && service.priorityPeopleAhead !== null
      const verdict = waitVerdict({
        ...service,
        peopleAhead: forPriority ? service.priorityPeopleAhead! : service.peopleAhead,
        estimatedWaitSeconds: forPriority ? service.priorityEstimatedWaitSeconds! : service.estimatedWaitSeconds,
      })
      const button = h('button', { type: 'button', class: 'kiosk-service', 'data-service-id': service.id, 'data-open': 'true', disabled: this.busy || !this.online },
        name,
        h('span', { class: 'kiosk-service-facts' },
          // The people waiting: those a normal ticket taken now has ahead (the number its ticket then shows).
          h('span', { class: 'kiosk-service-waiting' }, service.peopleAhead === 0 ? this.words.nobodyWaiting : this.count(this.words.waiting, service.peopleAhead)),
          // "You're next" only with nobody ahead and a counter free for it, never beside minutes or "No counter is open".
          h('span', { class: 'kiosk-service-wait' }, verdict.kind === 'next' ? this.words.youreNext : verdict.kind === 'closed' ? this.words.closedNow : this.t('approxWait', { time: formatSaidMinutes(lang, verdict.minutes) })),
          verdict.kind === 'noCounter' ? h('span', { class: 'kiosk-service-no-counter' }, this.words.noCounterOpen) : null))
      button.addEventListener('click', () => void this.take(service.id))
      return button
    })
    const grid = h('div', { class: 'kiosk-services', 'data-count': count, 'data-priority': priority ? 'on' : null }, buttons)
    let choice: HTMLElement | null = null
    if (view.priorityChoice) {
      const toggle = h('button', { type: 'button', class: 'kiosk-priority', 'aria-pressed': priority ? 'true' : 'false', 'aria-describedby': 'kiosk-priority-hint', disabled: this.busy || !this.online },
        h('span', { class: 'kiosk-priority-box', 'aria-hidden': 'true' }, priority ? '✓' : ''), this.words.priority)
      toggle.addEventListener('click', () => {
        this.priority = !this.priority
        this.paintStart()
        this.el.main.querySelector<HTMLButtonElement>('.kiosk-priority')?.focus()
      })
      choice = h('div', { class: 'kiosk-priority-row' }, toggle, h('span', { id: 'kiosk-priority-hint', class: 'kiosk-priority-hint' }, priority ? this.words.priorityOn : this.words.priorityHint))
    }
    // Contract §21: where the location takes appointments, "I have an appointment" (type the code).
    let appointment: HTMLElement | null = null
    if (view.appointments) {
      appointment = h('button', { type: 'button', class: 'kiosk-appointment', disabled: this.busy || !this.online }, this.words.haveAppointment)
      appointment.addEventListener('click', () => this.showAppointmentForm())
    }
    this.el.main.replaceChildren(...[h('h2', { class: 'kiosk-choose' }, this.words.choose), choice, grid, appointment].filter((el): el is HTMLElement => el !== null))
  }

  // ---- an appointment's check-in (contract §21) ----------------------------------------------

  private showAppointmentForm(): void {
    if (this.busy || this.ended) return
    this.screen = 'appointment'
    const input = h('input', {
      id: 'kiosk-appointment-code', class: 'kiosk-code', name: 'code', required: true, maxlength: 8, minlength: 8, autocomplete: 'off',
      autocapitalize: 'characters', spellcheck: 'false', dir: 'ltr', 'aria-describedby': 'kiosk-appointment-hint',
    }) as HTMLInputElement
    const submit = h('button', { type: 'submit', class: 'kiosk-ok' }, this.words.checkIn)
    const back = h('button', { type: 'button', class: 'kiosk-back' }, this.words.back)
    back.addEventListener('click', () => this.backToStart())
    const form = h('form', { class: 'kiosk-appointment-form' },
      h('label', { for: 'kiosk-appointment-code', class: 'kiosk-notice-heading' }, this.words.appointmentCode),
      input,
      h('p', { id: 'kiosk-appointment-hint' }, this.words.appointmentCodeHint),
      h('div', { class: 'kiosk-appointment-actions' }, back, submit))
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      void this.checkIn(input.value)
    })
    this.el.main.replaceChildren(h('section', { class: 'kiosk-notice' }, form))
    input.focus()
  }

  private async checkIn(code: string): Promise<void> {
    if (this.busy || this.ended) return
    this.busy = true
    this.el.main.setAttribute('aria-busy', 'true')
    for (const button of this.el.main.querySelectorAll<HTMLButtonElement>('button')) button.disabled = true
    // A check-in is not repeated on a dropped answer: the booking page or a desk can finish it.
    const answer = await api<{ data: KioskTicket }>('POST', `${API}/appointments/check-in`, { code: code.trim(), language: this.lang })
    this.busy = false
    this.el.main.removeAttribute('aria-busy')
    if (answer !== null && answer.status === 201 && answer.body?.data) return this.showTicket(answer.body.data)
    if (answer !== null && answer.status === 401) return this.unpaired(true)
    const w = this.words
    if (answer !== null && answer.code === 'CHECK_IN_TOO_LATE') {
      // Late beyond the window: a normal ticket instead (the start screen's services).
      return this.showError(answer, [w.tooLate, w.tooLateHint], w.takeNormal)
    }
    const words: [string, string] | null = answer === null ? null
      : answer.code === 'APPOINTMENT_NOT_FOUND' || answer.code === 'VALIDATION_FAILED' ? [w.appointmentNotFound, w.appointmentNotFoundHint]
        : answer.code === 'CHECK_IN_TOO_EARLY' ? [w.tooEarly, this.checkInFrom(answer)]
          : answer.code === 'APPOINTMENT_NOT_BOOKED' ? [w.notBooked, w.notBookedHint]
            : null
    this.showError(answer, words ?? undefined)
  }

  /** Contract §28: "too early" says from when check-in opens ("You can check in from 09:45", another day "from Monday 09:45"), in the location's clock. */
  private checkInFrom(answer: ApiAnswer): string {
    const opensAt = detailAfter(answer, 'check-in opens at ')
    return opensAt === null || Number.isNaN(Date.parse(opensAt)) ? this.words.tooEarlyHint : this.t('tooEarlyFrom', { when: this.opening(opensAt) })
  }

  private notice(heading: string, hint: string, extraClass = ''): HTMLElement {
    return h('section', { class: `kiosk-notice ${extraClass}`.trim(), role: 'status' }, h('p', { class: 'kiosk-notice-heading' }, heading), h('p', null, hint))
  }

  /** "Monday 08:30" (today: "08:30") in the page's language and the location's clock. */
  private opening(opensAt: string): string {
    return formatOpening(this.lang, this.view?.location.timezone, opensAt, serverNow())
  }

  // ---- a tap --------------------------------------------------------------------------------

  /** One tap: one key, reused on every retry of this tap (and by a new tap after an unanswered one). */
  private async take(serviceId: string): Promise<void> {
    if (this.busy || this.ended || this.screen !== 'start') return
    this.busy = true
    for (const button of this.el.main.querySelectorAll<HTMLButtonElement>('button')) button.disabled = true
    this.el.main.setAttribute('aria-busy', 'true')
    const now = Date.now()
    const priority = this.view?.priorityChoice === true && this.priority
    const pending = this.pending
    const key = pending !== null && pending.serviceId === serviceId && pending.priority === priority && now - pending.at < PENDING_KEY_MS ? pending.key : crypto.randomUUID()
    this.pending = { serviceId, priority, key, at: now }
    let answer: ApiAnswer<{ data: KioskTicket }> | null = null
    for (let attempt = 0; attempt <= RETRIES; attempt++) {
      // Contract §18: the ticket keeps the page's language (its print and phone pages speak it).
      answer = await api<{ data: KioskTicket }>('POST', `${API}/tickets`, { serviceId, ...(priority ? { priority } : {}), language: this.lang }, { 'idempotency-key': key })
      if (answer !== null && answer.status < 500) break
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS))
    }
    this.busy = false
    this.el.main.removeAttribute('aria-busy')
    if (answer !== null && answer.status === 201 && answer.body?.data) {
      this.pending = null
      this.priority = false
      this.showTicket(answer.body.data)
      return
    }
    // A definite refusal frees the key; no answer keeps it for the next tap on this service.
    if (answer !== null && answer.status < 500) this.pending = null
    if (answer !== null && answer.status === 401) return this.unpaired(true)
    this.showError(answer)
  }

  private showTicket(data: KioskTicket): void {
    const lang = this.lang
    this.screen = 'ticket'
    const shownAt = Date.now()
    const countdown = h('p', { class: 'kiosk-finish' })
    const tracking = data.ticket.trackingUrl
    const verdict = waitVerdict(data)
    const panel = h('section', { class: 'kiosk-ticket', 'aria-labelledby': 'kiosk-ticket-number', 'data-ticket-id': data.ticket.id },
      h('div', { class: 'kiosk-ticket-main' },
        h('p', { class: 'kiosk-ticket-label' }, this.words.yourNumber),
        h('p', { class: 'kiosk-ticket-number', id: 'kiosk-ticket-number', dir: 'ltr' }, data.ticket.ticketNumber),
        h('p', { class: 'kiosk-ticket-service', dir: 'auto', lang: data.language }, data.serviceName),
        data.ticket.priority === true ? h('p', { class: 'kiosk-ticket-priority' }, this.words.priorityTicket) : null,
        // Contract §28: an appointment's ticket is marked, with its slot's time.
        data.appointmentAt === null ? null : h('p', { class: 'kiosk-ticket-appointment' }, this.t('appointmentAt', { time: formatTime(lang, data.timezone, data.appointmentAt) })),
        // Contract §28: "You're next" alone (no count, no minutes), else the people ahead and the minutes.
        verdict.kind === 'next'
          ? h('p', { class: 'kiosk-ticket-next' }, this.words.youreNext)
          : h('dl', { class: 'kiosk-ticket-facts' },
            h('div', null, h('dt', null, this.words.peopleAhead), h('dd', { class: 'kiosk-ticket-ahead' }, formatNumber(lang, data.peopleAhead))),
            h('div', null, h('dt', null, this.words.approxWaitLabel), h('dd', { class: 'kiosk-ticket-wait' },
              verdict.kind === 'closed' ? this.words.closedNow : formatSaidMinutes(lang, verdict.minutes)))),
        verdict.kind === 'noCounter' ? h('p', { class: 'kiosk-ticket-no-counter' }, this.words.noCounterOpen) : null,
        this.printing ? h('p', { class: 'kiosk-printed' }, this.words.printed) : null),
      tracking === null ? null : h('figure', { class: 'kiosk-qr' },
        h('img', { src: `${tracking}/qr.svg`, alt: this.words.scan, width: 320, height: 320 }),
        h('figcaption', null, this.words.scan)),
      countdown)
    this.el.main.replaceChildren(panel)
    if (this.printing) this.print(data.printPath)
    let left = TICKET_SCREEN_SECONDS
    const paint = () => {
      countdown.textContent = this.t('tapToFinish', { seconds: formatNumber(lang, left) })
    }
    paint()
    const done = () => this.backToStart()
    this.backTimer = setInterval(() => {
      left -= 1
      if (left <= 0) done()
      else paint()
    }, 1000)
    const onTouch = () => {
      if (Date.now() - shownAt < TOUCH_GUARD_MS) return
      done()
    }
    panel.addEventListener('click', onTouch)
  }

  private showError(answer: ApiAnswer | null, words: [string, string] = this.errorWords(answer), okLabel = this.words.ok): void {
    this.screen = 'error'
    const [heading, hint] = words
    const ok = h('button', { type: 'button', class: 'kiosk-ok' }, okLabel)
    ok.addEventListener('click', () => this.backToStart())
    this.el.main.replaceChildren(h('section', { class: 'kiosk-error', role: 'alert' }, h('p', { class: 'kiosk-notice-heading' }, heading), h('p', null, hint), ok))
    ok.focus()
    let left = ERROR_SECONDS
    this.backTimer = setInterval(() => {
      if (--left <= 0) this.backToStart()
    }, 1000)
  }

  /** Every refusal in words (contract §9: service closed, unit inactive, too many tickets, offline). */
  private errorWords(answer: ApiAnswer | null): [string, string] {
    const w = this.words
    if (answer === null || answer.status >= 500) return [w.offline, w.offlineHint]
    switch (answer.code) {
      case 'VALIDATION_FAILED':
      case 'SERVICE_FORBIDDEN':
      case 'LOCATION_FORBIDDEN':
        return [w.serviceClosed, w.serviceClosedHint]
      case 'SERVICE_CLOSED':
        // It closed between the last read and the tap: the start screen shows it greyed once back.
        return [w.serviceClosed, w.serviceClosedHint]
      case 'QUEUE_UNIT_INACTIVE':
        return [w.unitInactive, w.unitInactiveHint]
      case 'RATE_LIMITED':
        return [w.tooMany, this.t('tooManyHint', { seconds: answer.headers.get('retry-after') ?? '60' })]
      case 'QUEUE_UNIT_EDGE_MANAGED':
        return [w.edgeManaged, w.edgeManagedHint]
      default:
        return [w.failed, this.t('failedHint', { message: answer.message || String(answer.status) })]
    }
  }

  private backToStart(): void {
    clearInterval(this.backTimer)
    this.screen = 'start'
    this.priority = false
    this.paintStart()
    void this.topic?.refresh()
  }

  /**
   * Prints the ticket: its print page in a hidden frame, which calls `window.print()` once
   * loaded. Chromium started with `--kiosk-printing` prints it silently on the default printer.
   */
  private print(printPath: string): void {
    const frame = h('iframe', {
      class: 'kiosk-print-frame',
      title: 'print',
      'aria-hidden': 'true',
      tabindex: '-1',
      // No `lang`: the print page speaks the ticket's own language (contract §18).
      src: `${printPath}?auto=1&paper=${this.paper}`,
    })
    document.body.append(frame)
    setTimeout(() => frame.remove(), 60_000)
  }
}
