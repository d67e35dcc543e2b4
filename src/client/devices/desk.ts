import { h } from '../dom'
import { formatCountdown, formatNumber, formatOpening, formatSaidMinutes, formatTime } from '../../screens/shared/format'
import { waitVerdict } from '../../screens/shared/wait-verdict'
import { LiveTopic, type ConnectionState, type Problem } from '../live'
import { serverNow } from '../clock'
import { api, whoAmI, type ApiAnswer, type DevicePage, type DeviceInfo } from './page'
import { detailAfter } from '../api'
import { breakReasonLabel, DESK_LANGUAGES, type DeviceLabelKey } from './strings'
import { languageOfName, nameIn } from '../names'
import { directionOf } from '../../screens/shared/options'
import type { AppointmentCheckIn, CloseCounterRequest, DeskClerkResponse, DeskSignInRequest, DeskSignOutResponse, DeskView, QueueTicket as Ticket, TrackedQueueTicket as TrackedTicket } from '../../contract/wire'

// The wire format of `GET /api/devices/v1/desk`: DeskView (src/desk/model.ts, through src/contract/wire.ts).

const OPERATOR = '/api/operator/v1'
/** Contract §16: a clerk signs in at this desk (POST) and out (DELETE). */
const CLERK = '/api/devices/v1/desk/clerk'
const PIN_PATTERN = /^\d{6}$/
const NBSP = '\u00a0'
/**
 * The desk's heartbeat on its live socket (docs/display.md). Revocation reaches an open desk
 * within 2 s (contract §7) without an HTTP check: the live hub re-checks open sockets every
 * second and closes a revoked device's with 4401 (at a heartbeat, at once), and the desk then
 * asks who it is once and says "no longer paired".
 */
const HEARTBEAT_MS = 5000

type ActionKey = 'callNext' | 'recall' | 'startServing' | 'complete' | 'noShow' | 'requeue'

/**
 * The six actions with shortcuts (contract §8), by physical key so they work on any layout.
 * No-show is O, away from C (Complete) and S (Start serving), which act on the same tickets.
 */
const SHORTCUTS: { action: ActionKey; code: string; key: string }[] = [
  { action: 'callNext', code: 'KeyN', key: 'N' },
  { action: 'recall', code: 'KeyR', key: 'R' },
  { action: 'startServing', code: 'KeyS', key: 'S' },
  { action: 'complete', code: 'KeyC', key: 'C' },
  { action: 'noShow', code: 'KeyO', key: 'O' },
  { action: 'requeue', code: 'KeyQ', key: 'Q' },
]

/**
 * The counter desk (contract §8). The view comes from `GET /api/devices/v1/desk`; the display
 * websocket's queue topic says when to read it again, so a change made anywhere shows within
 * a second. Actions are the operator API's routes with the device cookie. While a request is
 * in flight, or the desk is offline, every button is disabled: nothing is sent twice, and an
 * answer that refuses (another desk was faster) is said in words beside the fresh state.
 */
export class DeskPage {
  private view: DeskView | null = null
  private device: DeviceInfo | null = null
  private topic: LiveTopic<{ data: DeskView }> | null = null
  private online = false
  private inFlight = false
  private ended = false
  private everShown = false
  /** The queue unit is inactive: shown in the banner, every button off, until data comes back. */
  private blocked = false

  // The parts that stay (so keyboard focus stays where it is when the data changes).
  private readonly buttons = {} as Record<ActionKey | 'transfer' | 'walkIn' | 'open' | 'close', HTMLButtonElement>
  /** The clerk's controls (contract §16): not operator calls, so not in `buttons`. */
  private readonly clerkButtons = {} as Record<'signIn' | 'signOut', HTMLButtonElement>
  private readonly el = {
    // A no-break space until the data comes: each holds its line from the first paint, so
    // filling them in moves nothing (layout shift, CLS under 0.05).
    title: h('h1', { class: 'desk-title', dir: 'auto' }, NBSP),
    location: h('p', { class: 'desk-location', dir: 'auto' }, NBSP),
    state: h('span', { class: 'desk-state' }, NBSP),
    served: h('b', { class: 'desk-served-count' }, NBSP),
    clock: h('span', { class: 'desk-clock' }, NBSP),
    banner: h('div', { class: 'desk-banner', role: 'alert', hidden: true }),
    outcome: h('p', { class: 'desk-outcome', role: 'status', 'aria-live': 'polite' }),
    problem: h('p', { class: 'desk-problem', role: 'alert' }),
    current: h('div', { class: 'desk-current-body' }),
    timer: h('span', { class: 'desk-timer', role: 'timer', 'aria-live': 'off' }),
    lines: h('div', { class: 'desk-lines' }),
    // One line held from the first paint (the hint's or the first appointment's): no layout shift when data comes.
    appointments: h('div', { class: 'desk-appointments-body' }, h('p', { class: 'hint' }, NBSP)),
    requeueAt: h('select', { id: 'desk-requeue-at' }),
    transferTo: h('select', { id: 'desk-transfer-to' }),
    walkInService: h('select', { id: 'desk-walkin-service' }),
    walkInPriority: h('input', { type: 'checkbox', id: 'desk-walkin-priority' }),
    closeReason: h('select', { id: 'desk-close-reason' }),
    // Contract §20: a note for the receiving desk, the counter's missed turns, a walk-in's takeaway.
    transferNote: h('input', { id: 'desk-transfer-note', type: 'text', maxlength: '200', autocomplete: 'off', dir: 'auto' }),
    missed: h('div', { class: 'desk-missed-body' }),
    takeaway: h('div', { class: 'desk-takeaway', role: 'region', hidden: true }),
    // The clerk (contract §16): a sign-in form while nobody is signed in, the name and "Sign out" after.
    clerkName: h('p', { class: 'desk-clerk-name', dir: 'auto' }),
    clerkNotice: h('p', { class: 'desk-clerk-notice', id: 'desk-clerk-notice' }),
    signInForm: h('form', { class: 'desk-signin', novalidate: '' }),
    signedIn: h('div', { class: 'desk-signed-in', hidden: true }),
    username: h('input', { id: 'desk-clerk-username', name: 'username', autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false', maxlength: '64', required: '', 'aria-describedby': 'desk-signin-problem' }),
    pin: h('input', {
      id: 'desk-clerk-pin', name: 'pin', type: 'password', inputmode: 'numeric', autocomplete: 'off', maxlength: '6', pattern: '[0-9]{6}', required: '',
      'aria-describedby': 'desk-clerk-pin-hint desk-signin-problem',
    }),
    signInProblem: h('p', { class: 'desk-problem', id: 'desk-signin-problem', role: 'alert' }),
  }

  constructor(private readonly page: DevicePage) {}

  async start(): Promise<void> {
    const { labels } = this.page
    document.title = `Lobby · ${labels.deskTitle}`
    const device = await this.whoAmIUntilReachable()
    if (device === null) return this.unpaired()
    if (device.role !== 'desk' || device.binding.queueUnitId === undefined) {
      return this.page.showMessage(this.page.t('wrongRole', { role: device.role }), labels.notPairedHint, { label: labels.pairAgain, href: '/pair' })
    }
    this.device = device
    this.build()
    this.topic = new LiveTopic<{ data: DeskView }>('queue', device.binding.queueUnitId, null, '/api/devices/v1/desk', {
      data: (body) => {
        if (body?.data) this.show(body.data)
      },
      problem: (problem) => this.problem(problem),
      connection: (state) => this.connection(state),
    }, { rereadOnChange: true, heartbeatMs: HEARTBEAT_MS })
    this.topic.start()
    setInterval(() => this.tick(), 1000)
    document.addEventListener('keydown', (event) => this.shortcut(event))
  }

  private async whoAmIUntilReachable(): Promise<DeviceInfo | null> {
    for (let delay = 1000; ; delay = 2000) {
      const device = await whoAmI()
      if (device !== 'offline') return device
      this.page.showMessage(this.page.labels.connecting, this.page.labels.pairOffline)
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }

  // ---- the page's frame -------------------------------------------------------------------

  private build(): void {
    const { labels } = this.page
    const button = (key: keyof typeof this.buttons, label: string, onClick: () => void, extra: Record<string, string> = {}, shortcut?: string) => {
      const el = h('button', { type: 'button', class: `desk-button desk-${key}`, ...(shortcut ? { 'aria-keyshortcuts': shortcut } : {}), ...extra }, label,
        shortcut ? h('kbd', { 'aria-hidden': 'true' }, shortcut) : null)
      el.addEventListener('click', onClick)
      this.buttons[key] = el
      return el
    }
    const shortcutOf = (action: ActionKey) => SHORTCUTS.find((s) => s.action === action)!.key

    this.el.requeueAt.replaceChildren(h('option', { value: 'LAST' }, labels.requeueLast), h('option', { value: 'FIRST' }, labels.requeueFirst))
    // A closed menu shows the chosen name in that name's direction (an English service on the Arabic desk).
    for (const select of [this.el.transferTo, this.el.walkInService]) select.addEventListener('change', () => followChosen(select))
    // Enter in the note sends the transfer, as in a form: type the note, press Enter.
    this.el.transferNote.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || event.isComposing) return
      event.preventDefault()
      if (!this.buttons.transfer.disabled) this.buttons.transfer.click()
    })
    const language = h('select', { id: 'desk-language' }, DESK_LANGUAGES.map((l) => h('option', { value: l.tag, lang: l.tag, selected: this.page.lang.split('-')[0] === l.tag }, l.name)))
    language.addEventListener('change', () => this.page.chooseLanguage(language.value))

    const header = h(
      'header',
      { class: 'desk-header' },
      h('div', { class: 'desk-heading' }, this.el.title, this.el.location),
      h('div', { class: 'desk-facts' },
        this.el.state,
        h('span', { class: 'desk-served' }, labels.servedToday, ' ', this.el.served),
        this.el.clock,
        h('span', { class: 'desk-language' }, h('label', { for: 'desk-language' }, labels.language), language)),
    )
    const current = h(
      'section',
      { class: 'desk-current', 'aria-labelledby': 'desk-current-heading' },
      h('h2', { id: 'desk-current-heading' }, labels.currentTicket),
      this.el.current,
      h('div', { class: 'desk-actions' },
        button('callNext', labels.callNext, () => void this.callNext(), {}, shortcutOf('callNext')),
        button('recall', labels.recall, () => void this.ticketAction('recall', 'didRecall'), {}, shortcutOf('recall')),
        button('startServing', labels.startServing, () => void this.ticketAction('start', 'didStart'), {}, shortcutOf('startServing')),
        button('complete', labels.complete, () => void this.ticketAction('complete', 'didComplete'), {}, shortcutOf('complete')),
        button('noShow', labels.noShow, () => void this.ticketAction('no-show', 'didNoShow'), {}, shortcutOf('noShow')),
      ),
      h('div', { class: 'desk-moves' },
        h('div', { class: 'desk-move' },
          h('label', { for: 'desk-requeue-at' }, labels.requeueAt), this.el.requeueAt,
          button('requeue', labels.requeue, () => void this.requeue(), {}, shortcutOf('requeue'))),
        h('div', { class: 'desk-move' },
          h('label', { for: 'desk-transfer-to' }, labels.transferTo), this.el.transferTo,
          h('label', { for: 'desk-transfer-note' }, labels.transferNote), this.el.transferNote,
          button('transfer', labels.transfer, () => void this.transfer())),
      ),
      this.el.outcome,
      this.el.problem,
    )
    this.el.signInForm.replaceChildren(
      h('div', { class: 'desk-move' }, h('label', { for: 'desk-clerk-username' }, labels.clerkUsername), this.el.username),
      h('div', { class: 'desk-move' },
        h('label', { for: 'desk-clerk-pin' }, labels.clerkPin, ' ', h('span', { class: 'desk-hint', id: 'desk-clerk-pin-hint' }, `(${labels.clerkPinHint})`)), this.el.pin),
      (this.clerkButtons.signIn = h('button', { type: 'submit', class: 'desk-button desk-signIn' }, labels.signIn)),
    )
    this.el.signInForm.addEventListener('submit', (event) => {
      event.preventDefault()
      void this.signIn()
    })
    this.clerkButtons.signOut = h('button', { type: 'button', class: 'desk-button desk-signOut' }, labels.signOut)
    this.clerkButtons.signOut.addEventListener('click', () => void this.signOut())
    this.el.signedIn.replaceChildren(this.el.clerkName, this.clerkButtons.signOut)
    const clerk = h(
      'section',
      { class: 'desk-clerk', 'aria-labelledby': 'desk-clerk-heading' },
      h('h2', { id: 'desk-clerk-heading' }, labels.clerk),
      this.el.signedIn,
      this.el.signInForm,
      this.el.clerkNotice,
      this.el.signInProblem,
    )
    const counterTools = h(
      'section',
      { class: 'desk-tools', 'aria-label': labels.newWalkIn },
      h('div', { class: 'desk-move' },
        h('label', { for: 'desk-walkin-service' }, labels.walkInService), this.el.walkInService,
        h('label', { class: 'desk-check' }, this.el.walkInPriority, labels.walkInPriority),
        button('walkIn', labels.newWalkIn, () => void this.walkIn())),
      h('div', { class: 'desk-openclose' },
        button('open', labels.openCounter, () => void this.openClose('open')),
        h('div', { class: 'desk-move' },
          h('label', { for: 'desk-close-reason' }, labels.closeReason), this.el.closeReason,
          button('close', labels.closeCounter, () => void this.openClose('close')))),
    )
    const shortcuts = h(
      'section',
      { class: 'desk-shortcuts', 'aria-labelledby': 'desk-shortcuts-heading' },
      h('h2', { id: 'desk-shortcuts-heading' }, labels.shortcuts),
      h('dl', null, SHORTCUTS.flatMap((s) => [h('dt', null, h('kbd', null, s.key)), h('dd', null, labels[s.action])])),
    )
    const waiting = h('section', { class: 'desk-waiting', 'aria-labelledby': 'desk-waiting-heading' }, h('h2', { id: 'desk-waiting-heading' }, labels.waitingLines), this.el.lines)
    const missed = h('section', { class: 'desk-missed', 'aria-labelledby': 'desk-missed-heading', 'aria-describedby': 'desk-missed-hint' },
      h('h2', { id: 'desk-missed-heading' }, labels.missedTurns),
      h('p', { class: 'hint', id: 'desk-missed-hint' }, labels.missedTurnsHint),
      this.el.missed)
    this.el.takeaway.setAttribute('aria-label', labels.walkInTakeaway)
    counterTools.append(this.el.takeaway)
    // Contract §21: today's appointments of the counter's services (time, name, checked in or not),
    // in a row of its own below the rest: its height changes with the day, and nothing below it moves.
    const appointments = h('section', { class: 'desk-appointments', 'aria-labelledby': 'desk-appointments-heading' }, h('h2', { id: 'desk-appointments-heading' }, labels.appointmentsToday), this.el.appointments)
    this.page.content.replaceChildren(
      h('div', { class: 'desk' }, header, this.el.banner, h('div', { class: 'desk-body' }, clerk, current, waiting, missed, counterTools, shortcuts, appointments)),
    )
    this.el.current.replaceChildren(h('p', { class: 'hint' }, labels.connecting))
    this.paintButtons()
  }

  // ---- data in ----------------------------------------------------------------------------

  private show(view: DeskView): void {
    this.view = view
    this.everShown = true
    if (this.blocked) {
      this.blocked = false
      this.paintBanner()
    }
    const { labels } = this.page
    const lang = this.page.lang
    const zone = view.counter.timezone
    this.named(this.el.title, view.counter.names, view.counter.name)
    // Two names that may be in two languages: each in its own element with its own `lang`.
    this.el.location.replaceChildren(
      this.nameElement('span', view.counter.locationNames, view.counter.locationName),
      ' · ',
      this.nameElement('span', view.queueUnit.names, view.queueUnit.name),
    )
    this.el.state.textContent = view.counter.open ? labels.open : labels.closed
    this.el.state.dataset.state = view.counter.open ? 'open' : 'closed'
    this.el.served.textContent = formatNumber(lang, view.servedToday)
    document.title = `${this.nameOf(view.counter.names, view.counter.name)} · ${labels.deskTitle}`

    // Today's appointments.
    this.el.appointments.replaceChildren(view.appointments.length === 0
      ? h('p', { class: 'hint' }, labels.noAppointments)
      : h('ol', { class: 'desk-appointment-list' }, view.appointments.map((a) => h('li', { class: 'desk-appointment', 'data-status': a.status },
        h('span', { class: 'desk-appointment-time' }, formatTime(lang, zone, a.startAt)),
        // A name in any script, isolated; it lines up with the page's direction like the others.
        h('span', { class: 'desk-appointment-name' }, h('bdi', null, a.name ?? '—')),
        h('span', { class: 'desk-appointment-service' }, this.serviceName(a.serviceId)),
        h('span', { class: 'desk-appointment-status', id: `desk-appointment-${a.id}` }, a.status === 'CHECKED_IN' ? labels.appointmentCheckedIn : a.status === 'MISSED' ? labels.appointmentMissed : labels.appointmentBooked),
        a.status === 'BOOKED' ? this.checkInButton(a.id, a.name) : null))))

    // The current ticket.
    const ticket = view.ticket
    if (ticket === null) {
      // A closed counter calls no one (contract §27, 409 COUNTER_CLOSED): the words say to open it
      // first, and the disabled "Call next" points to them.
      this.el.current.replaceChildren(h('p', { class: 'desk-none' }, labels.noCurrentTicket), view.counter.open
        ? h('p', { class: 'hint' }, labels.noCurrentTicketHint)
        : h('p', { class: 'desk-closed-hint', id: 'desk-closed-hint' }, labels.closedHint))
    } else {
      const since = ticket.status === 'SERVING' && ticket.servingAt ? ticket.servingAt : ticket.calledAt
      this.el.current.replaceChildren(
        h('p', { class: 'desk-number' }, h('bdi', { dir: 'ltr' }, ticket.ticketNumber), ticket.priority ? priorityBadge(labels.priorityBadge) : null,
          ticket.source === 'APPOINTMENT' ? appointmentBadge(labels.appointmentBadge) : null),
        h('p', { class: 'desk-ticket-service' }, this.serviceName(ticket.serviceId)),
        h('p', { class: 'desk-ticket-status', 'data-status': ticket.status }, ticket.status === 'SERVING' ? labels.statusSERVING : labels.statusCALLED),
        h('p', { class: 'desk-ticket-time' },
          since ? this.page.t(ticket.status === 'SERVING' ? 'servingSince' : 'calledAt', { time: formatTime(lang, zone, since) }) : null,
          ' · ', h('span', { class: 'visually-hidden' }, labels.timer, ' '), this.el.timer),
        ...this.transferLines(ticket),
      )
    }

    this.paintMissed(view)

    // The clerk: the form while nobody is signed in (kept, so typing is not lost on a re-read).
    const clerkNow = view.clerk
    this.el.signedIn.hidden = clerkNow === null
    this.el.signInForm.hidden = clerkNow !== null
    this.el.clerkName.textContent = clerkNow === null ? '' : this.page.t('signedInAs', { name: clerkNow.displayName })
    this.el.clerkNotice.textContent = clerkNow !== null ? '' : view.deskSignIn === 'required' ? labels.clerkRequired : labels.noClerk
    this.el.clerkNotice.dataset.required = String(clerkNow === null && view.deskSignIn === 'required')
    // Contract §28: each reason's name in the desk's language; the id is what "Close counter" sends.
    keepSelect(this.el.closeReason, view.breakReasons.map((reason) => ({ value: reason, label: this.reasonName(reason) })))

    // Targets of a transfer: the other active services at the location.
    const targets = view.transferTargets.filter((t) => t.id !== ticket?.serviceId)
    keepSelect(this.el.transferTo, targets.map((t) => this.option(t.id, t.names, t.name)))
    keepSelect(this.el.walkInService, view.services.filter((s) => s.active).map((s) => this.option(s.id, s.names, s.name)))

    // The waiting lines, keeping focus on the same ticket's Call button.
    const focusedTicket = (document.activeElement as HTMLElement | null)?.dataset?.ticketId
    this.el.lines.replaceChildren(...view.services.map((service) => {
      const headingId = `desk-line-${service.id}`
      return h(
        'section',
        { class: 'desk-line', 'aria-labelledby': headingId },
        h('h3', { id: headingId },
          this.nameElement('span', service.names, service.name, 'desk-line-name'),
          h('span', { class: 'desk-line-count' }, this.page.t('waitingCount', { n: formatNumber(lang, service.waiting) })),
          // Contract §19, §28: the words the customers' pages say of a new ticket, from the one wait verdict.
          service.waiting > 0 ? this.lineWait(service) : null),
        service.tickets.length === 0
          ? h('p', { class: 'hint' }, labels.nobodyWaiting)
          : h('ol', { class: 'desk-tickets' }, service.tickets.map((t) => {
            const numberId = `desk-ticket-${t.id}`
            const badgeId = `desk-priority-${t.id}`
            const appointmentId = `desk-appointment-ticket-${t.id}`
            const appointment = t.source === 'APPOINTMENT'
            // The Call button is described by the number and its marks (priority; an appointment, contract §28).
            const described = [numberId, ...(t.priority ? [badgeId] : []), ...(appointment ? [appointmentId] : [])].join(' ')
            const call = h('button', { type: 'button', class: 'desk-call', 'data-ticket-id': t.id, 'aria-describedby': described }, labels.call)
            call.addEventListener('click', () => void this.callTicket(t))
            return h('li', null,
              h('span', { class: 'desk-ticket-number', id: numberId, dir: 'ltr' }, t.ticketNumber),
              h('span', { class: 'desk-ticket-since' },
                t.priority ? priorityBadge(labels.priorityBadge, badgeId) : null,
                appointment ? appointmentBadge(labels.appointmentBadge, appointmentId) : null,
                this.page.t('waitingSince', { time: formatTime(lang, zone, t.createdAt) })),
              call)
          })),
        service.waiting > service.tickets.length ? h('p', { class: 'hint' }, this.page.t('moreWaiting', { n: formatNumber(lang, service.waiting - service.tickets.length) })) : null,
      )
    }))
    if (focusedTicket) (this.el.lines.querySelector(`[data-ticket-id="${CSS.escape(focusedTicket)}"]`) as HTMLElement | null)?.focus()
    this.paintButtons()
    this.tick()
  }

  // ---- the customer's journey (contract §20) -------------------------------------------------

  /** "Transferred from Accounts, Counter 1" and the sending desk's note (as text, never HTML), for a ticket that was transferred. */
  /**
   * A line's wait for a new ticket in the customers' words (contract §28's verdict): "You're
   * next" only with nobody ahead and a counter free for it, "No counter is open right now", else
   * "about N min".
   */
  private lineWait(service: DeskView['services'][number]): HTMLElement {
    const { labels } = this.page
    const verdict = waitVerdict(service)
    return h('span', { class: 'desk-line-wait' }, verdict.kind === 'noCounter' ? labels.noCounterOpen
      : verdict.kind === 'next' ? labels.youreNext
      : verdict.kind === 'closed' ? labels.closed
      : this.page.t('approxWait', { time: formatSaidMinutes(this.page.lang, verdict.minutes) }))
  }

  private transferLines(ticket: Ticket): HTMLElement[] {
    const transfer = ticket.transfer
    if (!transfer) return []
    const view = this.view!
    const service = this.serviceLabel(transfer.fromServiceId)
    const counterNames = transfer.fromCounterId === null ? undefined : view.counterNamesByLanguage[transfer.fromCounterId]
    const from = counterNames === undefined
      ? this.page.t('transferredFromService', { service })
      : this.page.t('transferredFrom', { service, counter: this.nameOf(counterNames, transfer.fromCounterId ?? '') })
    const lines: HTMLElement[] = [h('p', { class: 'desk-transferred', dir: 'auto' }, from)]
    if (transfer.note) lines.push(h('p', { class: 'desk-transfer-note', dir: 'auto' }, this.page.t('transferNoteShown', { note: transfer.note })))
    return lines
  }

  /** The counter's no-shows still within the grace window, each with "Bring back" (first by default, or last). */
  private paintMissed(view: DeskView): void {
    const { labels } = this.page
    const lang = this.page.lang
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.missedId
    if (view.noShows.length === 0) {
      this.el.missed.replaceChildren(h('p', { class: 'desk-missed-none' }, labels.noMissedTurns))
      return
    }
    this.el.missed.replaceChildren(h('ul', { class: 'desk-missed-list' }, view.noShows.map(({ ticket, until }) => {
      const numberId = `desk-missed-${ticket.id}`
      const selectId = `desk-missed-at-${ticket.id}`
      const at = h('select', { id: selectId, 'data-missed-at': ticket.id },
        h('option', { value: 'FIRST' }, labels.requeueFirst), h('option', { value: 'LAST' }, labels.requeueLast)) as HTMLSelectElement
      const bring = h('button', { type: 'button', class: 'desk-bring-back', 'data-missed-id': ticket.id, 'aria-describedby': numberId }, labels.bringBack) as HTMLButtonElement
      bring.addEventListener('click', () => void this.bringBack(ticket, at.value === 'LAST' ? 'LAST' : 'FIRST'))
      return h('li', null,
        h('span', { class: 'desk-ticket-number', id: numberId, dir: 'ltr' }, ticket.ticketNumber),
        h('span', { class: 'desk-ticket-since' }, this.serviceName(ticket.serviceId), ' · ', this.page.t('missedUntil', { time: formatTime(lang, view.counter.timezone, until) })),
        h('label', { for: selectId }, labels.bringBackAt), at,
        bring)
    })))
    if (focused) (this.el.missed.querySelector(`[data-missed-id="${CSS.escape(focused)}"]`) as HTMLElement | null)?.focus()
  }

  private bringBack(ticket: Ticket, position: 'FIRST' | 'LAST'): Promise<void> {
    return this.send(`${OPERATOR}/tickets/${encodeURIComponent(ticket.id)}/reinstate`, { position },
      (a) => this.page.t('didBringBack', { number: this.numberOf(a) }),
      (a) => (a.code === 'NO_SHOW_GRACE_EXPIRED' ? this.page.t('graceExpired', { number: ticket.ticketNumber }) : null))
  }

  /** After "New walk-in ticket": the number, the QR code of its phone page and "Print" (the print page of contract §9). */
  private showTakeaway(ticket: TrackedTicket): void {
    const { labels } = this.page
    const close = h('button', { type: 'button', class: 'desk-button desk-takeaway-close' }, labels.closeTakeaway)
    close.addEventListener('click', () => {
      this.el.takeaway.hidden = true
      this.el.takeaway.replaceChildren()
      this.buttons.walkIn.focus()
    })
    const printPath = `/kiosk/tickets/${encodeURIComponent(ticket.id)}/print`
    const print = h('button', { type: 'button', class: 'desk-button desk-print', 'aria-label': this.page.t('printTicket', { number: ticket.ticketNumber }) }, labels.print)
    print.addEventListener('click', () => { window.open(printPath, '_blank', 'noopener') })
    const qr = ticket.trackingUrl === null ? [] : [h('figure', { class: 'desk-qr' },
      h('img', { src: `${ticket.trackingUrl}/qr.svg`, alt: labels.walkInScan, width: 160, height: 160 }),
      h('figcaption', null, labels.walkInScan))]
    this.el.takeaway.replaceChildren(
      h('h3', null, labels.walkInTakeaway),
      h('p', { class: 'desk-number' }, h('bdi', { dir: 'ltr' }, ticket.ticketNumber), ticket.priority ? priorityBadge(labels.priorityBadge) : null),
      h('p', { class: 'desk-ticket-service' }, this.serviceName(ticket.serviceId)),
      ...qr,
      h('div', { class: 'desk-actions' }, print, close),
    )
    this.el.takeaway.hidden = false
  }

  // ---- names in the page's language (contract §18) -----------------------------------------

  /** A name in the page's language, else the unit's default, else the first given. */
  private nameOf(names: Readonly<Record<string, string>> | undefined, fallback: string): string {
    return nameIn(names, this.page.lang, this.view?.defaultLanguage ?? 'en', fallback)
  }

  /**
   * Fills `el` with a name and marks its language when it is not the page's (a service named
   * only in English on an Arabic desk): screen readers and shaping then follow the text.
   */
  private named<E extends HTMLElement>(el: E, names: Readonly<Record<string, string>> | undefined, fallback: string): E {
    el.textContent = this.nameOf(names, fallback)
    const lang = languageOfName(names, this.page.lang, this.view?.defaultLanguage ?? 'en')
    if (lang.split('-')[0]!.toLowerCase() === this.page.lang.split('-')[0]!.toLowerCase()) el.removeAttribute('lang')
    else el.setAttribute('lang', lang)
    return el
  }

  /** A new element holding a name, isolated (`dir: auto`) so it reads right inside text of the other direction. */
  private nameElement(tag: 'span' | 'bdi', names: Readonly<Record<string, string>> | undefined, fallback: string, className?: string): HTMLElement {
    return this.named(h(tag, { dir: 'auto', ...(className ? { class: className } : {}) }), names, fallback)
  }

  /** A service of the location by ID, in the page's language (the ID itself when the view no longer has it). */
  private serviceName(id: string): HTMLElement {
    const view = this.view!
    return this.nameElement('bdi', view.serviceNamesByLanguage[id], view.serviceNames[id] ?? id)
  }

  private serviceLabel(id: string): string {
    const view = this.view!
    return this.nameOf(view.serviceNamesByLanguage[id], view.serviceNames[id] ?? id)
  }

  private option(value: string, names: Readonly<Record<string, string>>, fallback: string): { value: string; label: string; lang: string | null } {
    const lang = languageOfName(names, this.page.lang, this.view?.defaultLanguage ?? 'en')
    const same = lang.split('-')[0]!.toLowerCase() === this.page.lang.split('-')[0]!.toLowerCase()
    return { value, label: this.nameOf(names, fallback), lang: same ? null : lang }
  }

  private problem(problem: Problem): void {
    if (problem === 'token') return void this.checkDevice()
    if (problem === 'forbidden') {
      this.blocked = true
      this.paintBanner()
      this.paintButtons()
      return
    }
    if (problem === 'not-found') {
      this.ended = true
      this.page.showMessage(this.page.labels.counterRetired, this.page.labels.counterRetiredHint)
    }
  }

  private connection(state: ConnectionState): void {
    this.online = state.live
    this.page.root.classList.toggle('is-offline', !state.live)
    this.paintBanner()
    this.paintButtons()
  }

  private paintBanner(): void {
    const { labels } = this.page
    const text = this.blocked ? `${labels.unitInactive}. ${labels.unitInactiveHint}` : !this.online && this.everShown ? labels.offline : ''
    this.el.banner.hidden = text === ''
    this.el.banner.textContent = text
  }

  /** Revocation (a 401 read or the socket closed 4401): the device check answers 401, and the page says so and stops. */
  private async checkDevice(): Promise<void> {
    if (this.ended) return
    const device = await whoAmI()
    if (device === null) this.unpaired()
  }

  private unpaired(): void {
    if (this.ended && this.device === null) return
    this.ended = true
    this.online = false
    const { labels } = this.page
    this.page.showMessage(this.everShown || this.device !== null ? labels.noLongerPaired : labels.notPaired, labels.notPairedHint, { label: labels.pairAgain, href: '/pair' })
    this.device = null
  }

  // ---- what may be done now ---------------------------------------------------------------

  private paintButtons(): void {
    const view = this.view
    const reachable = view !== null && this.online && !this.inFlight && !this.ended
    // A unit with `deskSignIn: required` takes no operator call from this desk without a clerk (contract §16).
    const clerkOk = view !== null && (view.deskSignIn !== 'required' || view.clerk !== null)
    const ready = reachable && !this.blocked && clerkOk
    const ticket = view?.ticket ?? null
    const anyWaiting = view?.services.some((s) => s.waiting > 0) ?? false
    const allowed: Record<keyof typeof this.buttons, boolean> = {
      // A closed counter calls no one (409 COUNTER_CLOSED, contract §27): "Open counter" comes first.
      callNext: view !== null && view.counter.open && ticket === null && anyWaiting,
      recall: ticket?.status === 'CALLED',
      startServing: ticket?.status === 'CALLED',
      complete: ticket?.status === 'SERVING',
      noShow: ticket?.status === 'CALLED',
      requeue: ticket?.status === 'CALLED',
      transfer: ticket !== null && this.el.transferTo.options.length > 0,
      walkIn: this.el.walkInService.options.length > 0,
      open: view !== null && !view.counter.open,
      close: view !== null && view.counter.open && ticket === null,
    }
    for (const [key, el] of Object.entries(this.buttons) as [keyof typeof this.buttons, HTMLButtonElement][]) el.disabled = !(ready && allowed[key])
    for (const el of this.el.lines.querySelectorAll<HTMLButtonElement>('button.desk-call')) el.disabled = !(ready && ticket === null)
    this.el.requeueAt.disabled = !(ready && allowed.requeue)
    this.el.transferTo.disabled = !(ready && allowed.transfer)
    this.el.transferNote.disabled = !(ready && allowed.transfer)
    for (const el of this.el.missed.querySelectorAll<HTMLButtonElement | HTMLSelectElement>('button.desk-bring-back, select[data-missed-at]')) el.disabled = !ready
    this.el.walkInService.disabled = !(ready && allowed.walkIn)
    this.el.walkInPriority.disabled = !(ready && allowed.walkIn)
    this.el.closeReason.disabled = !(ready && allowed.close)
    this.clerkButtons.signIn.disabled = !reachable
    this.clerkButtons.signOut.disabled = !reachable
    // The notice says why the buttons are off; each of them points to it. "Call next" at a closed
    // counter points to the words that say to open it first.
    for (const el of Object.values(this.buttons)) {
      if (view !== null && !clerkOk) el.setAttribute('aria-describedby', 'desk-clerk-notice')
      else el.removeAttribute('aria-describedby')
    }
    if (view !== null && clerkOk && !view.counter.open && ticket === null) this.buttons.callNext.setAttribute('aria-describedby', 'desk-closed-hint')
  }

  private tick(): void {
    const now = serverNow()
    const view = this.view
    if (view !== null) this.el.clock.textContent = formatTime(this.page.lang, view.counter.timezone, now)
    const ticket = view?.ticket
    const since = ticket ? (ticket.status === 'SERVING' && ticket.servingAt ? ticket.servingAt : ticket.calledAt) : null
    this.el.timer.textContent = since ? formatCountdown(this.page.lang, now - Date.parse(since)) : ''
  }

  private shortcut(event: KeyboardEvent): void {
    if (event.altKey || event.ctrlKey || event.metaKey || event.repeat) return
    const target = event.target as HTMLElement | null
    if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA' || target.isContentEditable)) return
    const shortcut = SHORTCUTS.find((s) => s.code === event.code)
    if (shortcut === undefined) return
    event.preventDefault()
    const button = this.buttons[shortcut.action]
    if (!button.disabled) button.click()
  }

  // ---- actions ----------------------------------------------------------------------------

  /** Sends one action: buttons off while it is in flight, the outcome in words, then a fresh read. */
  private async send(path: string, body: unknown, onOk: (answer: ApiAnswer<{ data: Ticket }>) => string, onRefused: (answer: ApiAnswer) => string | null = () => null, headers: Record<string, string> = {}): Promise<void> {
    if (this.inFlight || !this.online || this.ended) return
    // The buttons are disabled while the request is out, which takes the focus away from the
    // one pressed: it comes back afterwards (below), so a keyboard user never starts over.
    const focused = document.activeElement instanceof HTMLButtonElement && this.page.content.contains(document.activeElement) ? document.activeElement : null
    this.inFlight = true
    this.paintButtons()
    this.el.problem.textContent = ''
    this.el.outcome.textContent = ''
    const answer = await api<{ data: Ticket }>('POST', path, body, headers)
    this.inFlight = false
    if (answer === null) {
      this.el.problem.textContent = this.page.labels.notSent
    } else if (answer.status >= 200 && answer.status < 300) {
      this.el.outcome.textContent = onOk(answer)
    } else if (answer.status === 401) {
      return this.unpaired()
    } else {
      this.el.problem.textContent = onRefused(answer) ?? this.refusal(answer)
    }
    this.paintButtons()
    await this.topic?.refresh()
    if (focused !== null) this.restoreFocus(focused)
  }

  /** The pressed button if it is still there and enabled, else the next likely one. */
  private restoreFocus(pressed: HTMLButtonElement): void {
    const active = document.activeElement
    if (active instanceof HTMLElement && active !== document.body && !(active as HTMLButtonElement).disabled) return
    const candidates = [pressed, this.buttons.startServing, this.buttons.complete, this.buttons.callNext, this.el.lines.querySelector<HTMLButtonElement>('button.desk-call'), this.buttons.walkIn]
    candidates.find((b) => b !== null && b.isConnected && !b.disabled)?.focus()
  }

  /** A refusal in words: a lost race says what happened, anything else the server's words. */
  private refusal(answer: ApiAnswer): string {
    const { labels } = this.page
    switch (answer.code) {
      case 'NO_TICKET_WAITING': return labels.raceNoneWaiting
      case 'COUNTER_BUSY': return labels.raceBusy
      case 'COUNTER_CLOSED': return labels.raceClosed
      case 'INVALID_TRANSITION': return this.page.t('raceChanged', { message: answer.message })
      case 'TICKET_NOT_FOUND': return labels.raceGone
      case 'QUEUE_UNIT_EDGE_MANAGED': return labels.edgeManaged
      case 'RATE_LIMITED': return this.page.t('rateLimited', { seconds: answer.headers.get('retry-after') ?? '60' })
      case 'COUNTER_NOT_FOUND':
        this.ended = true
        this.page.showMessage(labels.counterRetired, labels.counterRetiredHint)
        return labels.counterRetired
      case 'QUEUE_UNIT_INACTIVE': return labels.unitInactive
      case 'CLERK_SIGN_IN_REQUIRED': return labels.clerkRequiredRefused
      default: return this.page.t('failed', { message: answer.message || String(answer.status) })
    }
  }

  /** Contract §21: a desk checks a booked customer in (the server decides the window). */
  private checkInButton(id: string, name: string | null): HTMLButtonElement {
    const { labels } = this.page
    const button = h('button', { type: 'button', class: 'desk-appointment-check-in', 'aria-label': `${labels.appointmentCheckIn}: ${name ?? ''}`.trim() }, labels.appointmentCheckIn)
    button.addEventListener('click', () => void this.send(`${OPERATOR}/appointments/${encodeURIComponent(id)}/check-in`, {},
      (a) => this.page.t('didCheckIn', { number: (a.body as unknown as AppointmentCheckIn).data.ticket.ticketNumber }),
      (a) => a.code === 'CHECK_IN_TOO_EARLY' ? this.checkInFrom(a) : a.code === 'CHECK_IN_TOO_LATE' ? labels.checkInTooLate : null))
    return button
  }

  /** Contract §28: a break reason's name in the desk's language (its names per language; a reason without them as the desk always said it). */
  private reasonName(reason: string): string {
    return nameIn(this.view?.breakReasonNames[reason], this.page.lang, this.view?.defaultLanguage ?? 'en', breakReasonLabel(this.page.lang, reason))
  }

  /** Contract §28: "too early" says from when check-in opens, in the location's clock. */
  private checkInFrom(answer: ApiAnswer): string {
    const opensAt = detailAfter(answer, 'check-in opens at ')
    if (opensAt === null || Number.isNaN(Date.parse(opensAt)) || this.view === null) return this.page.labels.checkInTooEarly
    return this.page.t('checkInTooEarlyFrom', { when: formatOpening(this.page.lang, this.view.counter.timezone, opensAt, serverNow()) })
  }

  private numberOf(answer: ApiAnswer<{ data: Ticket }>): string {
    return answer.body?.data?.ticketNumber ?? ''
  }

  private callNext(): Promise<void> {
    const counter = this.view!.counter.id
    return this.send(`${OPERATOR}/counters/${encodeURIComponent(counter)}/call-next`, {}, (a) => this.page.t('didCall', { number: this.numberOf(a) }))
  }

  private callTicket(ticket: Ticket): Promise<void> {
    const counter = this.view!.counter.id
    return this.send(
      `${OPERATOR}/tickets/${encodeURIComponent(ticket.id)}/call`,
      { counterId: counter },
      (a) => this.page.t('didCall', { number: this.numberOf(a) }),
      // Another desk called it first: the ticket is no longer WAITING.
      (a) => (a.code === 'INVALID_TRANSITION' || a.code === 'TICKET_NOT_FOUND' ? this.page.t('raceTaken', { number: ticket.ticketNumber }) : null),
    )
  }

  private ticketAction(action: 'recall' | 'start' | 'complete' | 'no-show', done: DeviceLabelKey): Promise<void> {
    const ticket = this.view?.ticket
    if (!ticket) return Promise.resolve()
    return this.send(`${OPERATOR}/tickets/${encodeURIComponent(ticket.id)}/${action}`, {}, (a) => this.page.t(done, { number: this.numberOf(a) }))
  }

  private requeue(): Promise<void> {
    const ticket = this.view?.ticket
    if (!ticket) return Promise.resolve()
    return this.send(`${OPERATOR}/tickets/${encodeURIComponent(ticket.id)}/requeue`, { position: this.el.requeueAt.value === 'FIRST' ? 'FIRST' : 'LAST' },
      (a) => this.page.t('didRequeue', { number: this.numberOf(a) }))
  }

  private transfer(): Promise<void> {
    const ticket = this.view?.ticket
    const serviceId = this.el.transferTo.value
    if (!ticket || !serviceId) return Promise.resolve()
    const name = this.serviceLabel(serviceId)
    const note = this.el.transferNote.value.trim()
    return this.send(`${OPERATOR}/tickets/${encodeURIComponent(ticket.id)}/transfer`, { serviceId, ...(note === '' ? {} : { note }) },
      (a) => {
        this.el.transferNote.value = ''
        return this.page.t('didTransfer', { number: this.numberOf(a), service: name })
      })
  }

  private walkIn(): Promise<void> {
    const serviceId = this.el.walkInService.value
    if (!serviceId || this.view === null) return Promise.resolve()
    const name = this.serviceLabel(serviceId)
    // One key per click: a request whose answer was lost cannot make a second ticket if sent again.
    const priority = this.el.walkInPriority.checked
    return this.send(`${OPERATOR}/tickets`, { locationId: this.view.counter.locationId, serviceId, ...(priority ? { priority: true } : {}) },
      (a) => {
        // One priority ticket per tick of the box: the next walk-in is a normal one again.
        this.el.walkInPriority.checked = false
        const issued = (a.body as { data?: TrackedTicket } | null)?.data
        if (issued) this.showTakeaway(issued)
        return this.page.t('didWalkIn', { number: this.numberOf(a), service: name })
      }, () => null,
      { 'idempotency-key': crypto.randomUUID() })
  }

  private openClose(action: 'open' | 'close'): Promise<void> {
    const counter = this.view!.counter.id
    if (action === 'open') return this.send(`${OPERATOR}/counters/${encodeURIComponent(counter)}/open`, {}, () => this.page.labels.didOpen)
    // Closing asks why (contract §16): the clerk signs out and, with a reason, is on a break.
    const reason = this.el.closeReason.value
    const body: CloseCounterRequest = reason ? { reason } : {}
    return this.send(`${OPERATOR}/counters/${encodeURIComponent(counter)}/close`, body,
      () => (reason ? this.page.t('didCloseFor', { reason: this.reasonName(reason) }) : this.page.labels.didClose))
  }

  // ---- the clerk (contract §16) -------------------------------------------------------------

  /** Username and PIN from the form; the PIN field is emptied whatever the answer. */
  private async signIn(): Promise<void> {
    if (this.inFlight || !this.online || this.ended) return
    const { labels } = this.page
    const username = this.el.username.value.trim()
    const pin = this.el.pin.value
    const invalid = (field: HTMLInputElement, message: string) => {
      field.setAttribute('aria-invalid', 'true')
      this.el.signInProblem.textContent = message
      field.focus()
    }
    this.el.username.removeAttribute('aria-invalid')
    this.el.pin.removeAttribute('aria-invalid')
    if (username === '') return invalid(this.el.username, labels.usernameMissing)
    if (!PIN_PATTERN.test(pin)) return invalid(this.el.pin, labels.pinShape)
    this.inFlight = true
    this.paintButtons()
    this.el.signInProblem.textContent = ''
    this.el.outcome.textContent = ''
    this.el.problem.textContent = ''
    const request: DeskSignInRequest = { username, pin }
    const answer = await api<DeskClerkResponse>('POST', CLERK, request)
    this.inFlight = false
    this.el.pin.value = ''
    if (answer === null) {
      this.el.signInProblem.textContent = labels.notSent
    } else if (answer.status === 200 && answer.body?.data) {
      this.el.username.value = ''
      this.el.outcome.textContent = this.page.t('didSignIn', { name: answer.body.data.displayName })
    } else if (answer.code === 'SIGN_IN_FAILED') {
      invalid(this.el.pin, labels.signInFailed)
    } else if (answer.code === 'SIGN_IN_LOCKED') {
      const seconds = Number(answer.headers.get('retry-after') ?? '900')
      this.el.signInProblem.textContent = this.page.t('signInLocked', { minutes: String(Math.max(1, Math.ceil(seconds / 60))) })
    } else if (answer.status === 401) {
      return this.unpaired()
    } else {
      this.el.signInProblem.textContent = this.refusal(answer)
    }
    this.paintButtons()
    await this.topic?.refresh()
    // Signed in: on to the work (Call next, or the first thing that may be done); else back to the form.
    if (this.view?.clerk) [this.buttons.callNext, this.buttons.open, this.clerkButtons.signOut].find((b) => !b.disabled)?.focus()
    else if (document.activeElement === document.body || (document.activeElement as HTMLButtonElement | null)?.disabled) this.el.pin.focus()
  }

  private async signOut(): Promise<void> {
    if (this.inFlight || !this.online || this.ended) return
    this.inFlight = true
    this.paintButtons()
    this.el.outcome.textContent = ''
    this.el.problem.textContent = ''
    const answer = await api<DeskSignOutResponse>('DELETE', CLERK)
    this.inFlight = false
    if (answer === null) this.el.problem.textContent = this.page.labels.notSent
    else if (answer.status === 200) this.el.outcome.textContent = this.page.labels.didSignOut
    else if (answer.status === 401) return this.unpaired()
    else this.el.problem.textContent = this.refusal(answer)
    this.paintButtons()
    await this.topic?.refresh()
    if (!this.view?.clerk) this.el.username.focus()
  }
}

/** Contract §28: the mark of a ticket taken at an appointment's check-in (source APPOINTMENT), beside its number. */
function appointmentBadge(label: string, id?: string): HTMLElement {
  return h('span', { class: 'desk-appointment-badge', ...(id ? { id } : {}) }, label)
}

/** The mark of a priority ticket, beside its number. */
function priorityBadge(label: string, id?: string): HTMLElement {
  return h('span', { class: 'desk-priority', ...(id ? { id } : {}) }, label)
}

/** Replaces a select's options, keeping the chosen one when it is still there; `lang` marks a name in another language than the page's. */
function keepSelect(select: HTMLSelectElement, options: { value: string; label: string; lang?: string | null }[]): void {
  const chosen = select.value
  const same = select.options.length === options.length && options.every((o, i) => select.options[i]?.value === o.value && select.options[i]?.text === o.label)
  if (same) return
  select.replaceChildren(...options.map((o) => h('option', { value: o.value, ...(o.lang ? { lang: o.lang, dir: directionOf(o.lang) } : {}) }, o.label)))
  if (options.some((o) => o.value === chosen)) select.value = chosen
  followChosen(select)
}

/**
 * A closed select shows its chosen option in the select's own direction: a long English name
 * on the Arabic desk would show its end cut off. The select takes the chosen name's direction
 * (and language) while that name is in another language than the page's.
 */
function followChosen(select: HTMLSelectElement): void {
  const option = select.selectedOptions[0]
  if (option?.lang) {
    select.dir = option.dir
    select.lang = option.lang
  } else {
    select.removeAttribute('dir')
    select.removeAttribute('lang')
  }
}
