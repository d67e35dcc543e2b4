import { withPageDigits } from '../../screens/shared/digits'
import type { FloorAppointment, FloorCounter, FloorCounterChanged, FloorLocation, FloorService, FloorSnapshot, ManagedUnits } from '../../contract/wire'
import { api } from '../api'
import { byId, h } from '../dom'
import { formatLocale, formatMinutes, formatNumber, formatPercent, formatOpening, formatSaidMinutes, formatWallTime } from '../../screens/shared/format'
import { waitVerdict } from '../../screens/shared/wait-verdict'
import { keepClockInSync, serverNow } from '../clock'
import { nameIn } from '../names'
import { reconnectDelayMs } from '../reconnect'
import { WireCloseCodes } from '../../screens/shared/close-codes'
import { MANAGE_STRINGS, REASONS_AR, type ManageLang, type ManageStringKey } from './strings'

/**
 * The live floor (/manage, contract §22; src/manage/): the units the person may watch, one
 * unit's floor read once over HTTP and then kept live by the floor's websocket (no polling);
 * times count on every second from the instants the server sent (on the server's clock), so a
 * line is marked "Over target" the second it passes, before the server's own look says so.
 * Counters open and close through the API; a close asks for the break reason first.
 */

const API = '/api/manage/v1'
const HEARTBEAT_MS = 20_000

const root = document.getElementById('manage')
if (root !== null) start(root)

function start(root: HTMLElement): void {
  const lang: ManageLang = root.dataset.lang === 'ar' ? 'ar' : 'en'
  /** Numbers, durations and clock times in the browser's locale of the page's language (en-GB: 14:30). */
  const locale = formatLocale(lang, root.dataset.locale)
  const t = (key: ManageStringKey, slots: Record<string, string> = {}): string =>
    MANAGE_STRINGS[lang][key].replace(/\{(\w+)\}/g, (_, name: string) => slots[name] ?? '')
  const floorEl = byId('manage-floor')
  const alerts = byId('manage-alerts')
  const errorEl = byId('manage-error')
  const connection = byId('manage-connection')
  let unitId = ''
  let snapshot: FloorSnapshot | null = null
  let overBefore = new Set<string>()
  let socket: WebSocket | null = null
  let attempt = 0
  /** The websocket just (re)opened: its first snapshot replaces the floor shown. */
  let fresh = false
  let heartbeat: ReturnType<typeof setInterval> | undefined

  const nameOf = (item: { name: string; names: Record<string, string> }, defaultLanguage = 'en') => nameIn(item.names, lang, defaultLanguage, item.name)
  /** Contract §28: a break reason's name in the floor's language, from the unit's names per language (a reason no longer provisioned: as stored, the standard ones in Arabic too). */
  let reasonNames: FloorSnapshot['breakReasonNames'] = {}
  const reasonName = (reason: string) => nameIn(reasonNames[reason], lang, 'en', lang === 'ar' ? REASONS_AR[reason] ?? reason : reason)
  const toLogin = () => location.assign(lang === 'ar' ? '/login?lang=ar' : '/login')
  const say = (message: string) => {
    errorEl.textContent = message
  }
  const secondsSince = (iso: string) => Math.max(0, Math.floor((serverNow() - Date.parse(iso)) / 1000))
  const unit = (u: 'hour' | 'minute' | 'second') => new Intl.NumberFormat(withPageDigits(locale), { style: 'unit', unit: u, unitDisplay: 'narrow' })
  const units = { hour: unit('hour'), minute: unit('minute'), second: unit('second') }
  /** An elapsed time in words a screen reader reads as a duration ("7m 6s"), never a clock time ("7:06"). */
  const elapsed = (seconds: number): string => {
    const h = Math.floor(seconds / 3600)
    const m = Math.floor((seconds % 3600) / 60)
    const sec = seconds % 60
    if (h > 0) return `${units.hour.format(h)} ${units.minute.format(m)}`
    return m > 0 ? `${units.minute.format(m)} ${units.second.format(sec)}` : units.second.format(sec)
  }

  keepClockInSync()
  // Contract §24: Sign out ends the session and lands on /login (a 401: it had already ended).
  const signOut = byId('manage-sign-out') as HTMLButtonElement
  signOut.addEventListener('click', async () => {
    signOut.disabled = true
    const answer = await api('DELETE', '/api/auth/v1/sessions/current')
    if (answer !== null && (answer.status === 200 || answer.status === 401)) return toLogin()
    signOut.disabled = false
    say(answer === null ? t('OTHER') : answer.message || t('OTHER'))
  })

  void (async () => {
    const answer = await api<ManagedUnits>('GET', `${API}/queue-units`)
    if (answer === null) return say(t('OTHER'))
    if (answer.status === 401) return toLogin()
    if (answer.status !== 200 || answer.body === null) return say(t('OTHER'))
    const units = answer.body.data
    if (units.length === 0) {
      floorEl.setAttribute('aria-busy', 'false')
      floorEl.replaceChildren(h('p', { class: 'empty' }, t('noUnits')))
      return
    }
    const wanted = root.dataset.unit ?? ''
    unitId = units.some((u) => u.id === wanted) ? wanted : units[0]!.id
    if (units.length > 1) {
      const select = h('select', { id: 'manage-unit' }, units.map((u) => h('option', { value: u.id, selected: u.id === unitId }, nameOf(u))))
      select.addEventListener('change', () => {
        const url = new URL(location.href)
        url.searchParams.set('unit', select.value)
        location.assign(url.toString())
      })
      byId('manage-unit-picker').replaceChildren(h('label', { for: 'manage-unit' }, t('unit')), ' ', select)
    }
    await readFloor()
    connect()
    setInterval(tick, 1000)
  })()

  async function readFloor(): Promise<void> {
    const answer = await api<FloorSnapshot>('GET', `${API}/queue-units/${encodeURIComponent(unitId)}/floor`)
    if (answer === null) return
    if (answer.status === 401) return toLogin()
    // A read over HTTP (at start, after a lost connection) is the floor now: it replaces what was shown.
    if (answer.status === 200 && answer.body !== null) {
      snapshot = null
      render(answer.body)
    }
    else say(answer.message || t('OTHER'))
  }

  function connect(): void {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
    const ws = new WebSocket(`${scheme}//${location.host}${API}/live`)
    socket = ws
    ws.addEventListener('open', () => {
      attempt = 0
      // Always a whole snapshot on (re)connect, never `sinceRevision`: the floor's revision counts
      // the server run's wait-target crossings too, so after a restart it may repeat a number.
      ws.send(JSON.stringify({ type: 'subscribe', topics: [{ kind: 'queue', id: unitId }] }))
      fresh = true
      connection.textContent = t('live')
      connection.className = 'is-live'
      clearInterval(heartbeat)
      heartbeat = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"type":"heartbeat"}'), HEARTBEAT_MS)
    })
    ws.addEventListener('message', (event) => {
      let message: { type?: string; data?: FloorSnapshot; revision?: number }
      try {
        message = JSON.parse(String(event.data))
      } catch {
        return
      }
      if ((message.type === 'snapshot' || message.type === 'update') && message.data) {
        // The connection's first snapshot replaces whatever was shown, whatever its revision.
        if (fresh) snapshot = null
        fresh = false
        render(message.data)
      }
    })
    ws.addEventListener('close', (event) => {
      clearInterval(heartbeat)
      if (socket !== ws) return
      socket = null
      connection.textContent = t('reconnecting')
      connection.className = 'is-offline'
      if (event.code === WireCloseCodes.TOKEN_INVALID) {
        say(t('signedOut'))
        return toLogin()
      }
      if (event.code === WireCloseCodes.FORBIDDEN) {
        // Rights changed (contract §27): the HTTP read says what this person may see now; no reconnect to a unit that is no longer theirs.
        connection.textContent = t('noLongerAllowed')
        say(t('noLongerAllowed'))
        return void readFloor()
      }
      const delay = reconnectDelayMs(attempt++, Math.random(), event.code === WireCloseCodes.TRY_AGAIN_LATER)
      setTimeout(() => {
        // A refused upgrade (signed out, no role) looks like a close here: the HTTP read tells.
        void readFloor().then(connect)
      }, delay)
    })
  }

  // ---- rendering ------------------------------------------------------------------------

  /** Shows a floor; within one connection (and against its HTTP read) an older revision never replaces a newer one. */
  function render(next: FloorSnapshot): void {
    if (snapshot !== null && next.revision < snapshot.revision) return
    snapshot = next
    const focusKey = (document.activeElement as HTMLElement | null)?.dataset?.focusKey
    floorEl.replaceChildren(...next.locations.map((loc) => locationSection(loc, next)))
    floorEl.setAttribute('aria-busy', 'false')
    if (focusKey) floorEl.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus()
    tick()
  }

  function locationSection(loc: FloorLocation, unit: FloorSnapshot): HTMLElement {
    const headingId = `loc-${loc.id}`
    const language = Object.keys(unit.names)[0] ?? 'en'
    return h('section', { class: 'location', 'aria-labelledby': headingId },
      h('h2', { id: headingId }, nameOf(loc, language)),
      h('div', { class: 'panes' },
        h('div', { class: 'pane' },
          h('h3', null, t('lines')),
          h('table', { class: 'lines' },
            h('thead', null, h('tr', null,
              h('th', { scope: 'col' }, t('service')), h('th', { scope: 'col' }, t('waiting')), h('th', { scope: 'col' }, t('longestWait')),
              h('th', { scope: 'col' }, t('estimate')), h('th', { scope: 'col' }, t('withinTarget')))),
            h('tbody', null, loc.services.length === 0
              ? h('tr', null, h('td', { colspan: 5, class: 'muted' }, t('noServices')))
              : loc.services.map((s) => serviceRow(s, loc, language))))),
        h('div', { class: 'pane' },
          h('h3', null, t('counters')),
          h('table', { class: 'counters' },
            h('thead', null, h('tr', null,
              h('th', { scope: 'col' }, t('counter')), h('th', { scope: 'col' }, t('state')), h('th', { scope: 'col' }, t('clerk')),
              h('th', { scope: 'col' }, t('ticket')), h('th', { scope: 'col' }, t('timeInState')), h('th', { scope: 'col' }, t('servedToday')),
              h('th', { scope: 'col' }, t('actions')))),
            h('tbody', null, loc.counters.length === 0
              ? h('tr', null, h('td', { colspan: 7, class: 'muted' }, t('noCounters')))
              : loc.counters.map((c) => counterRow(c, loc, unit, language))))),
        appointmentsPane(loc, language)))
  }

  /** Today's appointments of the location (cancelled ones are not sent), with how many are still to come. */
  function appointmentsPane(loc: FloorLocation, language: string): HTMLElement {
    const headingId = `appts-${loc.id}`
    return h('div', { class: 'pane appointments-pane' },
      h('h3', { id: headingId }, t('appointments'), ' ',
        h('span', { class: 'to-come' }, t('toCome', { n: formatNumber(locale, loc.appointmentsToCome) }))),
      loc.appointments.length === 0
        ? h('p', { class: 'muted' }, t('noAppointments'))
        // A long day scrolls inside its own box (reachable from the keyboard) so the lines and
        // counters above keep their place on the screen.
        : h('div', { class: 'appointments-scroll', role: 'region', tabindex: 0, 'aria-labelledby': headingId },
          h('table', { class: 'appointments', 'aria-labelledby': headingId },
            h('thead', null, h('tr', null,
              h('th', { scope: 'col' }, t('time')), h('th', { scope: 'col' }, t('service')),
              h('th', { scope: 'col' }, t('customer')), h('th', { scope: 'col' }, t('state')))),
            h('tbody', null, loc.appointments.map((a) => appointmentRow(a, language))))))
  }

  function appointmentRow(a: FloorAppointment, language: string): HTMLElement {
    const status = a.status === 'BOOKED' ? t('apptBooked') : a.status === 'CHECKED_IN' ? t('apptCheckedIn') : t('apptMissed')
    return h('tr', { class: `appointment is-${a.status.toLowerCase().replace('_', '-')}`, 'data-appointment': a.id },
      h('th', { scope: 'row', class: 'num' }, h('time', { datetime: a.startAt }, formatWallTime(locale, a.time))),
      // <bdi>: a name in the other script keeps its own direction without moving the cell's alignment.
      h('td', null, h('bdi', null, nameIn(a.serviceNames, lang, language, a.serviceName))),
      h('td', null, a.customerName === null ? h('span', { class: 'muted' }, t('erased')) : h('bdi', null, a.customerName)),
      h('td', null, h('span', { class: 'badge' }, status)))
  }

  /**
   * A new ticket's wait in the customers' words (contract §28's verdict): closed says when it
   * opens, "You're next" only with nobody ahead and a counter free for it, else the minutes
   * (with "no counter open" when none is).
   */
  function estimateWords(s: FloorService, loc: FloorLocation): (HTMLElement | string)[] {
    const verdict = waitVerdict(s)
    switch (verdict.kind) {
      case 'closed':
        return [h('span', { class: 'closed-until' }, verdict.opensAt === null ? t('closed') : t('closedOpens', { when: formatOpening(locale, loc.timezone, verdict.opensAt, serverNow()) }))]
      case 'next':
        return [t('youreNext')]
      case 'noCounter':
        return [formatSaidMinutes(locale, verdict.minutes), h('span', { class: 'muted' }, ` (${t('noCounterOpen')})`)]
      case 'wait':
        return [formatSaidMinutes(locale, verdict.minutes)]
    }
  }

  function serviceRow(s: FloorService, loc: FloorLocation, language: string): HTMLElement {
    const wait = s.longestWait
    const share = s.today.withinTargetShare
    return h('tr', { class: 'service', 'data-service': s.id, 'data-location': loc.id, 'data-since': wait?.waitingSince ?? '', 'data-target': s.waitTargetSeconds },
      h('th', { scope: 'row', dir: 'auto' }, nameOf(s, language)),
      h('td', { class: 'num waiting' }, formatNumber(locale, s.waiting)),
      h('td', { class: 'longest' },
        wait === null
          ? h('span', { class: 'muted' }, t('noneWaiting'))
          : [h('span', { class: 'elapsed', 'data-since': wait.waitingSince }, elapsed(wait.seconds)), ' ', h('span', { class: 'ticket-number' }, wait.ticketNumber)],
        h('span', { class: 'over-target', hidden: true }, h('span', { class: 'icon', 'aria-hidden': 'true' }, '⚠'), ' ', t('overTarget')),
        h('span', { class: 'target muted' }, t('target', { time: formatMinutes(locale, s.waitTargetSeconds) }))),
      h('td', { class: 'estimate' }, estimateWords(s, loc)),
      h('td', { class: 'share' }, share === null
        ? h('span', { class: 'muted' }, t('noCalls'))
        : t('share', { pct: formatPercent(locale, share), n: formatNumber(locale, s.today.called) })))
  }

  function counterRow(c: FloorCounter, loc: FloorLocation, unit: FloorSnapshot, language: string): HTMLElement {
    reasonNames = unit.breakReasonNames
    const name = nameOf(c, language)
    const state = c.state === 'open' ? t('open') : c.state === 'break' ? t('onBreak', { reason: reasonName(c.breakReason ?? '') }) : t('closed')
    const since = c.ticket?.since ?? c.stateSince
    const action = c.state === 'open'
      ? h('button', { type: 'button', class: 'close', 'data-focus-key': `close:${c.id}`, disabled: c.ticket !== null }, t('closeCounter', { counter: name }))
      : h('button', { type: 'button', class: 'open', 'data-focus-key': `open:${c.id}` }, t('openCounter', { counter: name }))
    action.addEventListener('click', () => (c.state === 'open' ? askClose(c, name, unit.breakReasons, action) : void setCounter(c.id, 'open', null)))
    return h('tr', { class: `counter is-${c.state}`, 'data-counter': c.id, 'data-location': loc.id },
      h('th', { scope: 'row', dir: 'auto' }, name),
      h('td', { class: 'state' }, h('span', { class: 'badge' }, state)),
      h('td', { class: 'clerk', dir: 'auto' }, c.clerk === null ? h('span', { class: 'muted' }, t('noClerk')) : c.clerk.displayName),
      h('td', { class: 'ticket' }, c.ticket === null
        ? h('span', { class: 'muted' }, t('noTicket'))
        : [h('span', { class: 'ticket-number' }, c.ticket.ticketNumber), ' ', h('span', { class: 'muted' }, c.ticket.status === 'SERVING' ? t('serving') : t('called'))]),
      h('td', { class: 'in-state' }, since === null ? '' : h('span', { class: 'elapsed', 'data-since': since }, elapsed(secondsSince(since)))),
      h('td', { class: 'num served' }, formatNumber(locale, c.servedToday)),
      h('td', { class: 'action' }, action))
  }

  /** Every second: the elapsed times, and which lines are over their target (announced once each). */
  function tick(): void {
    for (const el of floorEl.querySelectorAll<HTMLElement>('.elapsed')) {
      el.textContent = elapsed(secondsSince(el.dataset.since ?? ''))
    }
    const over = new Set<string>()
    for (const row of floorEl.querySelectorAll<HTMLElement>('tr.service')) {
      const since = row.dataset.since ?? ''
      const waited = since === '' ? 0 : (serverNow() - Date.parse(since)) / 1000
      const isOver = since !== '' && waited > Number(row.dataset.target)
      row.classList.toggle('is-over', isOver)
      const mark = row.querySelector<HTMLElement>('.over-target')
      if (mark !== null) mark.hidden = !isOver
      const key = `${row.dataset.location}/${row.dataset.service}`
      if (!isOver) continue
      over.add(key)
      if (!overBefore.has(key)) {
        const loc = snapshot?.locations.find((l) => l.id === row.dataset.location)
        const service = loc?.services.find((s) => s.id === row.dataset.service)
        if (loc && service && service.longestWait) {
          alerts.textContent = t('alertOver', { service: nameOf(service), location: nameOf(loc), ticket: service.longestWait.ticketNumber, time: formatMinutes(locale, waited) })
        }
      }
    }
    overBefore = over
  }

  // ---- open and close ---------------------------------------------------------------------

  async function setCounter(counterId: string, action: 'open' | 'close', reason: string | null): Promise<void> {
    say('')
    const answer = await api<FloorCounterChanged>('POST', `${API}/queue-units/${encodeURIComponent(unitId)}/counters/${encodeURIComponent(counterId)}/${action}`, reason === null ? {} : { reason })
    if (answer === null) return say(t('OTHER'))
    if (answer.status === 401) return toLogin()
    if (answer.status !== 200) {
      const code = answer.code
      say(code === 'COUNTER_BUSY' || code === 'VALIDATION_FAILED' ? t(code) : answer.message || t('OTHER'))
    }
  }

  function askClose(c: FloorCounter, name: string, reasons: string[], opener: HTMLElement): void {
    const dialog = h('dialog', { class: 'close-dialog', 'aria-labelledby': 'close-title' })
    const form = h('form', { method: 'dialog' },
      h('h2', { id: 'close-title' }, t('closeTitle', { counter: name })),
      h('fieldset', null,
        h('legend', null, t('closeReason')),
        reasons.map((reason, i) => h('label', { class: 'choice' }, h('input', { type: 'radio', name: 'reason', value: reason, checked: i === 0 }), ' ', reasonName(reason))),
        h('label', { class: 'choice' }, h('input', { type: 'radio', name: 'reason', value: '' }), ' ', t('noReason'))),
      h('div', { class: 'buttons' },
        h('button', { type: 'submit', value: 'close', class: 'primary' }, t('confirmClose')),
        h('button', { type: 'submit', value: 'cancel' }, t('cancel'))))
    dialog.append(form)
    document.body.append(dialog)
    dialog.addEventListener('close', () => {
      const chosen = dialog.returnValue === 'close' ? (new FormData(form).get('reason') as string | null) : null
      dialog.remove()
      const key = opener.dataset.focusKey
      const back = key ? document.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(key)}"]`) : null
      back?.focus()
      if (dialog.returnValue === 'close') void setCounter(c.id, 'close', chosen === '' || chosen === null ? null : chosen)
    })
    dialog.showModal()
  }
}
