import { notice } from '../board'
import { serverNow } from '../clock'
import { h, hidePartialRows, text, timeNode } from '../dom'
import { fill } from '../i18n'
import { formatNumber, formatTime, readableOn, timeParts } from '../../screens/shared/format'
import type { TransportData, TransportItem } from '../types'
import { instant, RedrawingView, type ViewEnv } from './view'

const REDRAW_MS = 15_000
/** A trip leaves the board this long after its (expected) time, unless it is still boarding. */
const GONE_AFTER_MS = 60_000
const MAX_ROWS = 30

/**
 * A departures/arrivals board: scheduled time, line badge in the line's colours, destination
 * (or origin), platform, and the status: on time, the delay in minutes with the expected
 * time, cancellations struck through. Departures and arrivals get a table each.
 */
export class TransportView extends RedrawingView<TransportData> {
  constructor(env: ViewEnv) {
    super(env, REDRAW_MS)
  }

  protected draw(data: TransportData): void {
    const { ctx, shell } = this.env
    const { labels } = ctx
    shell.setTitle(data.title || this.env.name(), data.stop?.name ?? '')
    shell.setClockZone(data.timezone)
    const now = serverNow()
    const showing = (item: TransportItem) => item.status === 'BOARDING' || effectiveTime(item) >= now - GONE_AFTER_MS
    const byTime = (a: TransportItem, b: TransportItem) => instant(a.scheduledAt) - instant(b.scheduledAt)
    const departures = data.items.filter((i) => i.direction === 'DEPARTURE' && showing(i)).sort(byTime).slice(0, MAX_ROWS)
    const arrivals = data.items.filter((i) => i.direction === 'ARRIVAL' && showing(i)).sort(byTime).slice(0, MAX_ROWS)
    if (departures.length === 0 && arrivals.length === 0) return shell.setContent(notice(labels.noTransport))
    const both = departures.length > 0 && arrivals.length > 0
    const sections = [
      departures.length > 0 ? this.table('DEPARTURE', departures, data.timezone, both) : null,
      arrivals.length > 0 ? this.table('ARRIVAL', arrivals, data.timezone, both) : null,
    ].filter((x): x is HTMLElement => x !== null)
    shell.setContent(h('div', { class: `board${both ? ' has-both' : ''}` }, sections))
    for (const section of sections) hidePartialRows(section, section.querySelectorAll<HTMLElement>('tbody tr'))
  }

  private table(direction: TransportItem['direction'], items: TransportItem[], timeZone: string, withHeading: boolean): HTMLElement {
    const { labels } = this.env.ctx
    const departure = direction === 'DEPARTURE'
    return h(
      'section',
      { class: `board-section board-${direction.toLowerCase()}` },
      withHeading ? h('h2', { class: 'board-heading' }, departure ? labels.departures : labels.arrivals) : null,
      h(
        'table',
        { class: 'board-table' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { class: 't-time' }, labels.time),
            h('th', { class: 't-line' }, labels.line),
            h('th', { class: 't-place' }, departure ? labels.destination : labels.origin),
            h('th', { class: 't-platform' }, labels.platform),
            h('th', { class: 't-status' }, labels.status),
          ),
        ),
        h('tbody', null, items.map((item) => this.row(item, timeZone))),
      ),
    )
  }

  private row(item: TransportItem, timeZone: string): HTMLElement {
    const { lang } = this.env.ctx
    const badge = h('span', { class: 'line-badge' }, item.line.shortName)
    if (item.line.color) {
      badge.style.setProperty('--line-bg', item.line.color)
      badge.style.setProperty('--line-fg', item.line.textColor ?? readableOn(item.line.color))
    }
    const place = item.direction === 'DEPARTURE' ? item.destination : item.origin
    return h(
      'tr',
      { class: `trip status-${item.status}`, 'data-id': item.id },
      h('td', { class: 't-time' }, timeNode('time', 't-scheduled', timeParts(lang, timeZone, item.scheduledAt), item.scheduledAt)),
      h('td', { class: 't-line' }, badge),
      h('td', { class: 't-place' }, text('span', 't-destination', place), text('span', 't-remarks', item.remarks)),
      h('td', { class: 't-platform' }, item.platform ? h('bdi', null, item.platform) : null),
      h('td', { class: 't-status' }, this.status(item, timeZone)),
    )
  }

  private status(item: TransportItem, timeZone: string): (HTMLElement | null)[] {
    const { labels, lang } = this.env.ctx
    const expected = item.estimatedAt ? formatTime(lang, timeZone, item.estimatedAt) : null
    switch (item.status) {
      case 'DELAYED': {
        const minutes = Math.round((instant(item.estimatedAt) - instant(item.scheduledAt)) / 60_000)
        return [
          h('span', { class: 'status-text' }, minutes > 0 ? fill(labels.delayMinutes, { n: formatNumber(lang, minutes) }) : labels.DELAYED),
          expected ? h('span', { class: 'status-expected' }, fill(labels.expected, { time: expected })) : null,
        ]
      }
      case 'EARLY':
        return [h('span', { class: 'status-text' }, labels.EARLY), expected ? h('span', { class: 'status-expected' }, fill(labels.expected, { time: expected })) : null]
      case 'CANCELLED':
        return [h('span', { class: 'status-text' }, labels.CANCELLED_TRIP)]
      case 'NO_REPORT':
        return []
      default:
        return [h('span', { class: 'status-text' }, labels[item.status])]
    }
  }
}

function effectiveTime(item: TransportItem): number {
  const estimated = instant(item.estimatedAt)
  return Number.isNaN(estimated) ? instant(item.scheduledAt) : estimated
}
