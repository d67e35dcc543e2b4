import { withPageDigits } from '../../screens/shared/digits'
import { breakReasonLabel } from '../../screens/shared/break-reason-words'
import uPlot from 'uplot'
import { byId, h, directionOfProse } from '../dom'
import { fill } from '../i18n'
import { formatNumber, formatPercent } from '../../screens/shared/format'
import { canonicalLang, directionOf } from '../../screens/shared/options'
import { api } from '../devices/page'
import { toCsv, staffCsv, DAILY_CSV_HEADER, COUNTERS_CSV_HEADER, NO_BREAK_REASON } from '../../reports/csv'
import type { AppointmentReportRow, CounterReportRow, DailyReportRow, FeedbackReport, ReportSummary, StaffReportRow } from '../../contract/wire'
import { reportLabelsFor, type ReportLabelKey, type ReportLabels } from './strings'
import { languageOfName, nameIn } from '../names'

/*
 * The /reports page (contract §12) for a paired `reports` device: a date range, totals, four
 * charts drawn by uPlot (bundled, no CDN), the daily, counter and staff (§16) tables, CSV
 * downloads of the same rows as `lobby report`, and a print layout. Everything comes from the report API with
 * the device cookie. Charts are canvases: each carries a text label, and the tables below hold
 * every figure for a screen reader.
 */

/** A cell's text, with its language when it is not the page's, or its own direction (a customer's prose). */
type Cell = string | { text: string; lang?: string; dir?: 'ltr' | 'rtl' }

const WAIT_BIN_MINUTES = [0, 5, 10, 15, 20, 30, 45, 60]
const COLORS = ['#0b5cad', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0e7490', '#a16207', '#4338ca']
const LANG_KEY = 'lobby.device.lang'

class ReportsPage {
  readonly lang: string
  readonly labels: ReportLabels
  readonly content = byId('page-content')
  private readonly charts: uPlot[] = []
  private readonly slants = new WeakMap<uPlot, Slant>()
  private daily: DailyReportRow[] = []
  private counterRows: CounterReportRow[] = []
  /** Null when the staff report could not be read (the rest of the page still shows). */
  private staffRows: StaffReportRow[] | null = []
  /** Contract §20: the customers' ratings; null when they could not be read. */
  private feedback: FeedbackReport | null = null
  /** Contract §21; null when it could not be read. */
  private appointmentRows: AppointmentReportRow[] | null = []
  private summary: ReportSummary | null = null
  private status!: HTMLElement
  private results!: HTMLElement
  private fromInput!: HTMLInputElement
  private toInput!: HTMLInputElement
  private locationSelect!: HTMLSelectElement
  private unitSelect!: HTMLSelectElement
  private unitLabel!: HTMLElement

  constructor() {
    const fromUrl = canonicalLang(new URLSearchParams(location.search).get('lang'))
    let stored: string | null = null
    try {
      stored = localStorage.getItem(LANG_KEY)
    } catch {}
    this.lang = fromUrl ?? canonicalLang(stored) ?? canonicalLang(navigator.language) ?? 'en'
    this.labels = reportLabelsFor(this.lang)
    document.documentElement.lang = this.lang
    document.documentElement.dir = directionOf(this.lang)
    document.title = `Lobby · ${this.labels.title}`
  }

  t(key: ReportLabelKey, values: Record<string, string | number> = {}): string {
    return fill(this.labels[key], Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])))
  }

  num(n: number): string {
    return formatNumber(this.lang, n)
  }

  /** Seconds as `m:ss` (or `h:mm:ss`) in the page's digits; `—` for null. */
  duration(seconds: number | null): string {
    if (seconds === null) return this.labels.none
    const total = Math.round(seconds)
    const hh = Math.floor(total / 3600)
    const mm = Math.floor((total % 3600) / 60)
    const ss = total % 60
    const two = (n: number) => new Intl.NumberFormat(withPageDigits(this.lang), { minimumIntegerDigits: 2, useGrouping: false }).format(n)
    const plain = (n: number) => new Intl.NumberFormat(withPageDigits(this.lang), { useGrouping: false }).format(n)
    return hh > 0 ? `${plain(hh)}:${two(mm)}:${two(ss)}` : `${plain(mm)}:${two(ss)}`
  }

  /** A calendar date (given as noon UTC) in the page's language: `19 Nov`. */
  shortDate(ms: number): string {
    return new Intl.DateTimeFormat(withPageDigits(this.lang), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(ms)
  }

  /** A business day `YYYY-MM-DD` in the page's language, isolated so it reads right in Arabic. */
  day(date: string): string {
    return '\u2068' + new Intl.DateTimeFormat(withPageDigits(this.lang), { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.parse(`${date}T12:00:00Z`)) + '\u2069'
  }

  percent(share: number | null): string {
    if (share === null) return this.labels.none
    return formatPercent(this.lang, share)
  }

  start(): void {
    const params = new URLSearchParams(location.search)
    const today = isoDay(new Date())
    const weekAgo = isoDay(new Date(Date.now() - 6 * 86_400_000))
    this.fromInput = h('input', { type: 'date', id: 'reports-from', name: 'from', required: true, value: params.get('from') ?? weekAgo })
    this.toInput = h('input', { type: 'date', id: 'reports-to', name: 'to', required: true, value: params.get('to') ?? today })
    this.locationSelect = h('select', { id: 'reports-location', name: 'locationId' }, h('option', { value: '' }, this.labels.allLocations))
    // Contract §24: shown once the summary says the reader has several units (a manager of two branches, an admin).
    this.unitSelect = h('select', { id: 'reports-unit', name: 'queueUnitId', hidden: true }, h('option', { value: params.get('queueUnitId') ?? '' }, this.labels.allUnits))
    this.unitLabel = h('label', { for: 'reports-unit', hidden: true }, this.labels.unit)
    this.unitSelect.addEventListener('change', () => {
      // Another unit's locations differ: its figures are read for all of them.
      this.locationSelect.value = ''
      void this.load()
    })
    const languages = h('select', { id: 'reports-lang', 'aria-label': this.labels.language },
      h('option', { value: 'en', selected: this.lang === 'en' }, 'English'),
      h('option', { value: 'ar', selected: this.lang === 'ar' }, 'العربية'))
    languages.addEventListener('change', () => {
      try {
        localStorage.setItem(LANG_KEY, languages.value)
      } catch {}
      const url = new URL(location.href)
      url.searchParams.set('lang', languages.value)
      location.assign(url.toString())
    })
    const form = h('form', { class: 'reports-range', 'aria-label': this.labels.range },
      this.unitLabel, this.unitSelect,
      h('label', { for: 'reports-from' }, this.labels.from), this.fromInput,
      h('label', { for: 'reports-to' }, this.labels.to), this.toInput,
      h('label', { for: 'reports-location' }, this.labels.location), this.locationSelect,
      h('button', { type: 'submit', class: 'primary' }, this.labels.show))
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      void this.load()
    })
    const dailyCsv = h('button', { type: 'button', id: 'download-daily' }, this.labels.downloadDaily)
    dailyCsv.addEventListener('click', () => this.download('daily'))
    const countersCsv = h('button', { type: 'button', id: 'download-counters' }, this.labels.downloadCounters)
    countersCsv.addEventListener('click', () => this.download('counters'))
    const staffCsvButton = h('button', { type: 'button', id: 'download-staff' }, this.labels.downloadStaff)
    staffCsvButton.addEventListener('click', () => this.download('staff'))
    const print = h('button', { type: 'button', id: 'print' }, this.labels.print)
    print.addEventListener('click', () => window.print())
    this.status = h('p', { id: 'reports-status', class: 'reports-status', role: 'status', 'aria-live': 'polite' })
    this.results = h('div', { id: 'reports-results' })
    this.content.replaceChildren(
      h('header', { class: 'reports-bar' },
        h('h1', null, this.labels.title),
        h('div', { class: 'reports-actions' }, dailyCsv, countersCsv, staffCsvButton, print, languages)),
      form,
      this.status,
      this.results,
    )
    window.addEventListener('beforeprint', () => this.resizeCharts(true))
    window.addEventListener('afterprint', () => this.resizeCharts(false))
    let resizeTimer: ReturnType<typeof setTimeout> | undefined
    window.addEventListener('resize', () => {
      clearTimeout(resizeTimer)
      resizeTimer = setTimeout(() => this.resizeCharts(false), 150)
    })
    void this.load()
  }

  private query(): string {
    const q = new URLSearchParams(this.rangeQuery())
    if (this.locationSelect.value !== '') q.set('locationId', this.locationSelect.value)
    return q.toString()
  }

  /** The range and the unit chosen: what every report reads. */
  private rangeQuery(): string {
    const q = new URLSearchParams({ from: this.fromInput.value, to: this.toInput.value })
    if (this.unitSelect.value !== '') q.set('queueUnitId', this.unitSelect.value)
    return q.toString()
  }

  async load(): Promise<void> {
    this.status.dataset.tone = ''
    this.status.textContent = this.labels.loading
    const q = this.query()
    // The staff report covers the whole unit (a clerk's figures are not per location): the range only.
    const range = this.rangeQuery()
    const [summary, daily, counters, staff, feedback, appointments] = await Promise.all([
      api<{ data: ReportSummary }>('GET', `/api/operator/v1/reports/summary?${q}`),
      api<{ data: DailyReportRow[] }>('GET', `/api/operator/v1/reports/daily?${q}`),
      api<{ data: CounterReportRow[] }>('GET', `/api/operator/v1/reports/counters?${q}`),
      api<{ data: StaffReportRow[] }>('GET', `/api/operator/v1/reports/staff?${range}`),
      api<{ data: FeedbackReport }>('GET', `/api/operator/v1/reports/feedback?${range}`),
      api<{ data: AppointmentReportRow[] }>('GET', `/api/operator/v1/reports/appointments?${range}`),
    ])
    const answers = [summary, daily, counters]
    if (answers.some((a) => a === null || a.status >= 500)) return this.fail(this.labels.offline)
    const refused = answers.find((a) => a!.status !== 200)
    if (refused !== undefined) {
      if (refused!.status === 401) return this.refuse('notSignedIn')
      if (refused!.status === 403 && refused!.code === 'ROLE_FORBIDDEN') return this.refuse('clerk')
      if (refused!.status === 422) return this.fail(this.t('badRange', { message: refused!.message }))
      return this.fail(this.t('failed', { message: refused!.message }))
    }
    this.summary = summary!.body!.data
    this.daily = daily!.body!.data
    this.counterRows = counters!.body!.data
    this.staffRows = staff !== null && staff.status === 200 ? staff.body!.data : null
    // The ratings and appointments are read for all the reader's units: the unit chosen (its locations) narrows them here.
    const inUnit = new Set(this.summary.locations.map((l) => l.id))
    this.feedback = feedback !== null && feedback.status === 200
      ? { ratings: feedback.body!.data.ratings.filter((r) => inUnit.has(r.locationId)), comments: feedback.body!.data.comments.filter((c) => inUnit.has(c.locationId)) }
      : null
    // The range is read whole (as the staff report); the location chosen narrows it here.
    const chosenLocation = this.locationSelect.value
    this.appointmentRows = appointments !== null && appointments.status === 200
      ? appointments.body!.data.filter((r) => inUnit.has(r.locationId) && (chosenLocation === '' || r.locationId === chosenLocation))
      : null
    this.fillUnits()
    this.fillLocations()
    const url = new URL(location.href)
    for (const [k, v] of new URLSearchParams(q)) url.searchParams.set(k, v)
    if (this.locationSelect.value === '') url.searchParams.delete('locationId')
    if (this.unitSelect.value === '') url.searchParams.delete('queueUnitId')
    history.replaceState(null, '', url.toString())
    this.render()
    this.status.textContent = this.daily.length === 0 ? this.labels.empty : this.t('loaded', { from: this.day(this.summary.from), to: this.day(this.summary.to), rows: this.num(this.daily.length) })
  }

  private fail(message: string): void {
    this.status.dataset.tone = 'error'
    this.status.textContent = message
  }

  /**
   * The report API refused the browser after the page opened: the session ended or the device
   * was revoked (401: sign in or pair again), or a clerk signed in meanwhile (403), said in words
   * as the server's own refusal page says it.
   */
  private refuse(why: 'notSignedIn' | 'clerk'): void {
    const lang = `?lang=${encodeURIComponent(this.lang)}`
    this.content.replaceChildren(h('section', { class: 'page-message', role: 'alert' },
      h('h1', null, why === 'clerk' ? this.labels.clerkOnly : this.labels.notPaired),
      h('p', null, why === 'clerk' ? this.labels.clerkOnlyHint : this.labels.notPairedHint),
      h('p', { class: 'page-links' },
        h('a', { class: 'button-link', href: `/login${lang}` }, this.labels.signIn), ' ',
        why === 'clerk' ? h('a', { href: `/${lang}` }, this.labels.startPage) : h('a', { class: 'button-link', href: `/pair${lang}` }, this.labels.pairAgain))))
  }

  /** Contract §24: the Unit menu, when the reader may read several units (else it stays hidden). */
  private fillUnits(): void {
    const units = this.summary!.queueUnits
    const several = units.length > 1
    this.unitSelect.hidden = !several
    this.unitLabel.hidden = !several
    if (!several) return
    const fallback = this.summary!.defaultLanguage
    this.unitSelect.replaceChildren(h('option', { value: '' }, this.labels.allUnits), ...units.map((u) => {
      const language = languageOfName(u.names, this.lang, fallback)
      return h('option', { value: u.id, ...(primary(language) !== primary(this.lang) ? { lang: language } : {}) }, nameIn(u.names, this.lang, fallback, u.name))
    }))
    this.unitSelect.value = this.summary!.queueUnitId ?? ''
  }

  private fillLocations(): void {
    const chosen = this.locationSelect.value || new URLSearchParams(location.search).get('locationId') || ''
    const options = [h('option', { value: '' }, this.labels.allLocations), ...this.summary!.locations.map((l) => {
      // An option holds the name alone: nothing around it to isolate it from.
      const cell = this.nameCell('locations', l.id)
      return h('option', { value: l.id, ...(typeof cell === 'string' ? {} : { lang: cell.lang }) }, this.name('locations', l.id))
    })]
    this.locationSelect.replaceChildren(...options)
    this.locationSelect.value = chosen
  }

  /** A location's, service's or counter's name in the page's language, else the unit's default, else the first (contract §18). */
  private name(kind: 'locations' | 'services' | 'counters', id: string): string {
    const entry = this.summary?.[kind].find((x) => x.id === id)
    return entry === undefined ? id : nameIn(entry.names, this.lang, this.summary!.defaultLanguage, entry.name)
  }

  /** The same name for a table cell: isolated from the text around it, with its `lang` when not the page's. */
  private nameCell(kind: 'locations' | 'services' | 'counters', id: string): Cell {
    const entry = this.summary?.[kind].find((x) => x.id === id)
    const text = isolated(this.name(kind, id))
    if (entry === undefined) return text
    const lang = languageOfName(entry.names, this.lang, this.summary!.defaultLanguage)
    return primary(lang) === primary(this.lang) ? text : { text, lang }
  }

  /** A line's name: the service, with its location when there are several. */
  private lineName(line: { locationId: string; serviceId: string }): string {
    const several = new Set(this.summary!.lines.map((l) => l.locationId)).size > 1
    return several ? `${this.name('services', line.serviceId)} · ${this.name('locations', line.locationId)}` : this.name('services', line.serviceId)
  }

  private render(): void {
    for (const chart of this.charts.splice(0)) chart.destroy()
    const s = this.summary!
    const total = (f: (r: DailyReportRow) => number) => this.daily.reduce((n, r) => n + f(r), 0)
    const called = s.lines.reduce((n, l) => n + l.called, 0)
    const within = s.lines.reduce((n, l) => n + l.withinTarget, 0)
    const tile = (label: string, value: string, note?: string) =>
      h('div', { class: 'tile' }, h('span', { class: 'tile-label' }, label), h('strong', { class: 'tile-value' }, value), note ? h('span', { class: 'tile-note' }, note) : null)
    const totals = h('section', { class: 'tiles', 'aria-label': this.labels.title },
      tile(this.labels.issued, this.num(total((r) => r.issued))),
      tile(this.labels.served, this.num(total((r) => r.served))),
      tile(this.labels.noShow, this.num(total((r) => r.noShow))),
      tile(this.labels.cancelled, this.num(total((r) => r.cancelled))),
      tile(this.labels.transferredOut, this.num(total((r) => r.transferredOut))),
      tile(this.labels.withinTarget, called === 0 ? this.labels.none : this.percent(within / called), called === 0 ? undefined : this.t('withinTargetOf', { share: this.num(within), called: this.num(called) })))

    const figure = (id: string, title: string, label: string) => {
      const plot = h('div', { class: 'chart', id, role: 'img', 'aria-label': label, dir: 'ltr' })
      return { el: h('figure', { class: 'chart-figure', 'aria-labelledby': `${id}-title` }, h('h2', { id: `${id}-title` }, title), plot), plot }
    }
    const issuedByHour = sumHours(s.lines.map((l) => l.issuedByHour))
    const servedByHour = sumHours(s.lines.map((l) => l.servedByHour))
    const busiest = issuedByHour.indexOf(Math.max(...issuedByHour))
    const hourFig = figure('chart-hours', this.labels.byHour, this.t('byHourLabel', { from: this.day(s.from), to: this.day(s.to), hour: String(busiest).padStart(2, '0') + ':00', n: this.num(issuedByHour[busiest] ?? 0) }))
    const waitFig = figure('chart-waits', this.labels.waitDistribution, this.labels.waitDistributionLabel)
    const targetFig = figure('chart-target', this.labels.targetShare, this.labels.targetShareLabel)
    const counterFig = figure('chart-counters', this.labels.perCounter, this.labels.perCounterLabel)

    this.results.replaceChildren(
      totals,
      h('section', { class: 'charts' }, hourFig.el, waitFig.el, targetFig.el, counterFig.el),
      this.dailyTable(),
      this.countersTable(),
      this.staffTable(),
      ...this.feedbackTables(),
      this.appointmentsTable(),
    )

    const hours = Array.from({ length: 24 }, (_, i) => i)
    this.chart(hourFig.plot, {
      series: [
        {},
        { label: this.labels.issued, stroke: COLORS[0], fill: COLORS[0] + 'cc', paths: uPlot.paths.bars!({ size: [0.4, 40], align: -1 }), points: { show: false } },
        { label: this.labels.served, stroke: COLORS[1], fill: COLORS[1] + 'cc', paths: uPlot.paths.bars!({ size: [0.4, 40], align: 1 }), points: { show: false } },
      ],
      scales: { x: { time: false, range: [-0.6, 23.6] } },
      axes: [{ values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? String(t).padStart(2, '0') : '')), label: this.labels.hour }, { label: this.labels.tickets }],
    }, [hours, issuedByHour, servedByHour])

    const bins = WAIT_BIN_MINUTES.map((_, i) => i)
    this.chart(waitFig.plot, {
      series: [{}, ...s.lines.map((line, i) => ({ label: this.lineName(line), stroke: COLORS[i % COLORS.length], width: 2, points: { show: true, size: 6 } }))],
      scales: { x: { time: false, range: [-0.3, bins.length - 0.7] }, y: { range: [0, 100] } },
      axes: [
        { values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) && t >= 0 && t < WAIT_BIN_MINUTES.length ? this.binLabel(t) : '')), label: '' },
        { values: (_u, ticks) => ticks.map((t) => `${t}%`), label: this.labels.shareCalled },
      ],
    }, [bins, ...s.lines.map((l) => { const n = l.waitBins.reduce((a, b) => a + b, 0); return l.waitBins.map((c) => (n === 0 ? null : (100 * c) / n)) })])

    const days = [...new Set(this.daily.map((r) => r.date))].sort()
    const dayIndex = new Map(days.map((d, i) => [d, i]))
    const lineKeys = s.lines.map((l) => `${l.locationId}\u0000${l.serviceId}`)
    const targetSeries = lineKeys.map(() => days.map(() => null as number | null))
    for (const r of this.daily) {
      const k = lineKeys.indexOf(`${r.locationId}\u0000${r.serviceId}`)
      if (k >= 0 && r.withinTarget !== null) targetSeries[k]![dayIndex.get(r.date)!] = r.withinTarget * 100
    }
    // Days as positions (not a time scale): one point per business day, labelled with its date.
    this.chart(targetFig.plot, {
      series: [{}, ...s.lines.map((line, i) => ({ label: this.lineName(line), stroke: COLORS[i % COLORS.length], width: 2, spanGaps: true, points: { show: true, size: 5 } }))],
      scales: { x: { time: false, range: [-0.5, Math.max(days.length, 1) - 0.5] }, y: { range: [0, 100] } },
      axes: [
        { values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) && days[t] !== undefined ? this.shortDate(Date.parse(`${days[t]}T12:00:00Z`)) : '')) },
        { values: (_u, ticks) => ticks.map((t) => `${t}%`) },
      ],
    }, [days.map((_, i) => i), ...targetSeries])

    const perCounter = new Map<string, { served: number; sum: number; n: number }>()
    for (const r of this.counterRows) {
      const c = perCounter.get(r.counterId) ?? { served: 0, sum: 0, n: 0 }
      c.served += r.served
      if (r.serviceSeconds.avg !== null) {
        // Weighted by served: rows' averages over their timed completions (close enough for a chart; the table is exact).
        c.sum += r.serviceSeconds.avg * r.served
        c.n += r.served
      }
      perCounter.set(r.counterId, c)
    }
    const counterIds = [...perCounter.keys()].sort((a, b) => this.name('counters', a).localeCompare(this.name('counters', b), this.lang))
    this.chart(counterFig.plot, {
      series: [
        {},
        { label: this.labels.served, stroke: COLORS[0], fill: COLORS[0] + 'cc', paths: uPlot.paths.bars!({ size: [0.5, 60] }), points: { show: false }, scale: 'n' },
        { label: this.labels.avgServiceMinutes, stroke: COLORS[1], width: 0, points: { show: true, size: 10, fill: COLORS[1] }, scale: 'min' },
      ],
      scales: { x: { time: false, range: [-0.6, Math.max(counterIds.length, 1) - 0.4] }, n: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] }, min: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.2] } },
      axes: [
        { values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) && counterIds[t] !== undefined ? this.name('counters', counterIds[t]!) : '')) },
        { scale: 'n', label: this.labels.served },
        { scale: 'min', side: 1, label: this.labels.avgServiceMinutes, grid: { show: false } },
      ],
    }, [counterIds.map((_, i) => i), counterIds.map((id) => perCounter.get(id)!.served), counterIds.map((id) => { const c = perCounter.get(id)!; return c.n === 0 ? null : c.sum / c.n / 60 })])
  }

  private binLabel(i: number): string {
    const from = WAIT_BIN_MINUTES[i]!
    const to = WAIT_BIN_MINUTES[i + 1]
    return to === undefined ? this.t('waitBinOpen', { from: this.num(from) }) : this.t('waitBin', { from: this.num(from), to: this.num(to) })
  }

  private chart(el: HTMLElement, options: Omit<uPlot.Options, 'width' | 'height'>, data: (number | null)[][]): void {
    const [x, ...others] = options.axes ?? [{}]
    const slant = slantedWhenCrowded()
    const axes = [{ ...x, ...slant.axis }, ...others]
    const chart = new uPlot({ ...options, axes, width: chartWidth(el), height: CHART_HEIGHT, legend: { show: true, live: false } } as uPlot.Options, data as uPlot.AlignedData, el)
    this.slants.set(chart, slant)
    this.charts.push(chart)
  }

  private resizeCharts(print: boolean): void {
    for (const chart of this.charts) {
      const el = chart.root.parentElement as HTMLElement
      this.sizeChart(chart, print ? 680 : chartWidth(el))
    }
  }

  /** `width` wide, and as much taller than the plot's 260 px as slanted x labels need: the plot keeps its height. */
  private sizeChart(chart: uPlot, width: number): void {
    chart.setSize({ width, height: CHART_HEIGHT + (this.slants.get(chart)?.extra() ?? 0) })
  }

  private dailyTable(): HTMLElement {
    const L = this.labels
    const head = [L.date, L.location, L.service, L.issued, L.served, L.noShow, L.cancelled, L.transferredOut, L.waitAvg, L.waitP50, L.waitP90, L.waitMax, L.serviceAvg, L.serviceP50, L.serviceP90, L.withinTarget]
    const rows = this.daily.map((r) => [
      r.date, this.nameCell('locations', r.locationId), this.nameCell('services', r.serviceId),
      this.num(r.issued), this.num(r.served), this.num(r.noShow), this.num(r.cancelled), this.num(r.transferredOut),
      this.duration(r.waitSeconds.avg), this.duration(r.waitSeconds.p50), this.duration(r.waitSeconds.p90), this.duration(r.waitSeconds.max),
      this.duration(r.serviceSeconds.avg), this.duration(r.serviceSeconds.p50), this.duration(r.serviceSeconds.p90), this.percent(r.withinTarget),
    ])
    return this.table('table-daily', L.dailyTable, head, rows, 3)
  }

  private countersTable(): HTMLElement {
    const L = this.labels
    const head = [L.date, L.counter, L.location, L.served, L.noShow, L.serviceAvg, L.serviceP50, L.serviceP90, L.busy]
    const rows = this.counterRows.map((r) => [
      r.date, this.nameCell('counters', r.counterId), this.nameCell('locations', r.locationId), this.num(r.served), this.num(r.noShow),
      this.duration(r.serviceSeconds.avg), this.duration(r.serviceSeconds.p50), this.duration(r.serviceSeconds.p90), this.duration(r.busySeconds),
    ])
    return this.table('table-counters', L.countersTable, head, rows, 3)
  }

  /**
   * Per clerk and day (contract §16): served, no-shows, service times, time signed in, and one
   * column per break reason met in the range (a standard reason in the page's language, a unit's
   * own reason as set).
   */
  private staffTable(): HTMLElement {
    const L = this.labels
    const rows = this.staffRows ?? []
    const reasons = [...new Set(rows.flatMap((r) => Object.keys(r.breakSeconds)))].sort()
    const head = [L.date, L.clerk, L.served, L.noShow, L.serviceAvg, L.serviceP50, L.serviceP90, L.signedIn,
      ...reasons.map((reason) => this.t('breakReason', { reason: reason === NO_BREAK_REASON ? L.noReason : isolated(breakReasonLabel(this.lang, reason)) }))]
    const cells = rows.map((r) => [
      r.date, isolated(r.displayName), this.num(r.served), this.num(r.noShow),
      this.duration(r.serviceSeconds.avg), this.duration(r.serviceSeconds.p50), this.duration(r.serviceSeconds.p90),
      this.duration(r.signedInSeconds), ...reasons.map((reason) => this.duration(r.breakSeconds[reason] ?? 0)),
    ])
    const empty = this.staffRows === null ? L.staffUnavailable : rows.length === 0 ? L.noStaff : null
    return this.table('table-staff', L.staffTable, head, cells, 2, L.staffNote, empty)
  }

  /** Contract §21: per day, location and service: booked, kept, missed, late and the wait after check-in. */
  private appointmentsTable(): HTMLElement {
    const L = this.labels
    const rows = this.appointmentRows ?? []
    const head = [L.date, L.location, L.service, L.booked, L.kept, L.missed, L.late, L.cancelled, L.waitAfterCheckIn]
    const cells = rows.map((r) => [
      r.date, this.nameCell('locations', r.locationId), this.nameCell('services', r.serviceId),
      this.num(r.booked), this.num(r.kept), this.num(r.missed), this.num(r.late), this.num(r.cancelled), this.duration(r.waitAfterCheckInSeconds.avg),
    ])
    const empty = this.appointmentRows === null ? L.appointmentsUnavailable : rows.length === 0 ? L.noAppointments : null
    return this.table('table-appointments', L.appointmentsTable, head, cells, 3, L.appointmentsNote, empty)
  }

  /**
   * Contract §20: the customers' ratings over the range per service, counter and clerk (added up
   * from the report's rows with their sums, so no average of averages), and the comments. A
   * comment is the customer's text: it goes into the page as text, never as markup (`h` makes
   * text nodes), whatever it holds.
   */
  private feedbackTables(): HTMLElement[] {
    const L = this.labels
    const rows = this.feedback?.ratings ?? []
    const empty = this.feedback === null ? L.feedbackUnavailable : rows.length === 0 ? L.noFeedback : null
    const by = (id: string, caption: string, keyHead: string, keyOf: (r: FeedbackReport['ratings'][number]) => string, name: (key: string) => Cell) => {
      const groups = new Map<string, { count: number; sum: number }>()
      for (const r of rows) {
        const g = groups.get(keyOf(r)) ?? { count: 0, sum: 0 }
        g.count += r.count
        g.sum += r.ratingSum
        groups.set(keyOf(r), g)
      }
      const cells = [...groups].map(([key, g]) => [name(key), this.num(g.count), formatNumber(this.lang, Math.round((g.sum / g.count) * 100) / 100)])
      return this.table(id, caption, [keyHead, L.ratings, L.averageRating], cells, 1, L.feedbackNote, empty)
    }
    const comments = (this.feedback?.comments ?? []).map((c) => [c.date, this.nameCell('services', c.serviceId), this.num(c.rating), prose(c.comment)])
    return [
      by('table-feedback-services', L.feedbackByService, L.service, (r) => r.serviceId, (id) => this.nameCell('services', id)),
      by('table-feedback-counters', L.feedbackByCounter, L.counter, (r) => r.counterId ?? '', (id) => (id === '' ? L.none : this.nameCell('counters', id))),
      by('table-feedback-clerks', L.feedbackByClerk, L.clerk, (r) => r.clerk ?? '', (name) => (name === '' ? L.noClerk : isolated(name))),
      this.table('table-feedback-comments', L.comments, [L.date, L.service, L.rating, L.comment], comments, 1, L.commentsNote,
        this.feedback === null ? L.feedbackUnavailable : comments.length === 0 ? L.noFeedback : null),
    ]
  }

  /**
   * A data table with a caption, column headers and row headers (the first `keys` cells name the
   * row); `empty`, when given, is said in the one row of a table without rows.
   */
  private table(id: string, caption: string, head: string[], rows: Cell[][], keys: number, note = this.labels.tableNote, empty: string | null = null): HTMLElement {
    // The wrapper scrolls sideways on a narrow screen: focusable (tabindex 0) so the keyboard can
    // scroll it, named by the table's caption (axe: scrollable-region-focusable).
    const body = empty !== null
      ? [h('tr', null, h('td', { colspan: head.length, class: 'table-empty' }, empty))]
      : rows.map((cells) => h('tr', null, cells.map((c, i) => {
        const { text, lang = null, dir = null } = typeof c === 'string' ? { text: c } : c
        const attributes = { ...(lang ? { lang } : {}), ...(dir ? { dir } : {}) }
        return i < keys ? h('th', { scope: 'row', ...attributes }, text) : h('td', attributes, text)
      })))
    return h('section', { class: 'table-wrap', tabindex: 0, 'aria-labelledby': `${id}-caption` },
      h('table', { id },
        h('caption', { id: `${id}-caption` }, caption, h('span', { class: 'table-note' }, note)),
        h('thead', null, h('tr', null, head.map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', null, body)))
  }

  /** The rows on screen as CSV, named as `lobby report` names them. */
  private download(which: 'daily' | 'counters' | 'staff'): void {
    const csv = which === 'daily' ? toCsv(this.daily as unknown as Record<string, unknown>[], DAILY_CSV_HEADER)
      : which === 'counters' ? toCsv(this.counterRows as unknown as Record<string, unknown>[], COUNTERS_CSV_HEADER)
      : staffCsv(this.staffRows ?? [])
    const blob = new Blob([csv], { type: 'text/csv;charset=utf-8' })
    const a = h('a', { href: URL.createObjectURL(blob), download: `lobby-${which}-${this.fromInput.value}-${this.toInput.value}.csv` })
    document.body.append(a)
    a.click()
    a.remove()
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000)
  }
}

/**
 * A name of the branch's own (a clerk, a break reason) isolated from the text around it, so
 * `Lina K.` keeps its full stop on the right in an Arabic table (FSI … PDI).
 */
/**
 * A customer's comment, in the direction of most of its letters: an Arabic comment that starts
 * with Latin letters (`<b>ممتاز</b> شكرا`) reads right to left, where the first-strong-letter
 * rule (an isolate, `dir="auto"`) would lay it out left to right, its words in reverse order.
 */
function prose(text: string): Cell {
  const dir = directionOfProse(text)
  return dir === null ? isolated(text) : { text, dir }
}

function isolated(text: string): string {
  return '\u2068' + text + '\u2069'
}

function primary(tag: string): string {
  return tag.split('-')[0]!.toLowerCase()
}

function isoDay(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

function sumHours(lists: number[][]): number[] {
  const out = new Array<number>(24).fill(0)
  for (const list of lists) list.forEach((n, h) => (out[h]! += n))
  return out
}

/** A chart's height with upright x labels; slanted ones add their room below (the plot keeps its height). */
const CHART_HEIGHT = 260
/** uPlot's own size of an x axis with upright labels. */
const X_AXIS_SIZE = 50
/** Room between two labels of the x axis, in CSS pixels. */
const LABEL_GAP = 8
const SLANT_DEGREES = 45
let measuring: CanvasRenderingContext2D | null = null

/** The widest of `labels` in the axis font (uPlot's `font[0]` is scaled by the device's pixel ratio). */
function widest(labels: (string | number | null)[], font: string): number {
  measuring ??= document.createElement('canvas').getContext('2d')!
  measuring.font = font
  const ratio = window.devicePixelRatio || 1
  return Math.max(0, ...labels.map((label) => (label === null || label === '' ? 0 : measuring!.measureText(String(label)).width / ratio)))
}

/**
 * The x axis's labels never run into each other (issue 48: "10–15 min15–20 min"): when the
 * widest is wider than the room between two ticks they are slanted, and the axis is made tall
 * enough for the longest (a 30-character counter name) to be read whole.
 */
function slantedWhenCrowded(): Slant {
  let slanted = false
  /** The room below the plot the chart's height now includes. */
  let extra = 0
  return {
    axis: {
      rotate: (u, values, axisIdx, space) => {
        const font = (u.axes[axisIdx]!.font as unknown as [string, number])[0]
        slanted = widest(values, font) + LABEL_GAP > space
        return slanted ? SLANT_DEGREES : 0
      },
      size: (u, values, axisIdx) => {
        let size = X_AXIS_SIZE
        if (slanted && values !== null) {
          const [font, px] = u.axes[axisIdx]!.font as unknown as [string, number]
          const lineHeight = px / (window.devicePixelRatio || 1)
          const sin = Math.sin((SLANT_DEGREES * Math.PI) / 180)
          size = Math.ceil(15 + widest(values, font) * sin + lineHeight * sin + 6)
        }
        // The chart grows by what the axis took beyond its usual size (after this layout, which
        // uPlot is in the middle of), so the plot above it keeps its height.
        if (size - X_AXIS_SIZE !== extra) {
          extra = size - X_AXIS_SIZE
          queueMicrotask(() => u.setSize({ width: u.width, height: CHART_HEIGHT + extra }))
        }
        return size
      },
    },
    extra: () => extra,
  }
}

/** An x axis that slants its labels when crowded, and how much taller than uPlot's 50 px it made itself. */
interface Slant {
  axis: Pick<uPlot.Axis, 'rotate' | 'size'>
  extra: () => number
}

function chartWidth(el: HTMLElement): number {
  return Math.max(280, Math.floor(el.clientWidth || el.parentElement?.clientWidth || 600))
}

// The server renders a refusal in words (a clerk, a browser neither signed in nor paired) without the frame.
if (document.getElementById('page')?.dataset.kind === 'reports') new ReportsPage().start()
