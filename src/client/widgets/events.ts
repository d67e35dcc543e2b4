import { notice } from '../board'
import { serverNow } from '../clock'
import { h, hidePartialRows, text } from '../dom'
import { dateBlock, formatTime, localDate } from '../../screens/shared/format'
import type { EventItem, EventsData } from '../types'
import { instant, optionalImage, RedrawingView, type ViewEnv } from './view'

const REDRAW_MS = 60_000
/** More than a screen can hold; the rest is cut off by the layout. */
const MAX_ROWS = 24
const HOUR_MS = 60 * 60_000
const DAY_MS = 24 * HOUR_MS

/** Events still to come or under way, in time order, each with a date block; ended ones drop off. */
export class EventsView extends RedrawingView<EventsData> {
  constructor(env: ViewEnv) {
    super(env, REDRAW_MS)
  }

  protected draw(data: EventsData): void {
    const { ctx, shell } = this.env
    shell.setTitle(data.title || this.env.name(), data.subtitle ?? '')
    shell.setClockZone(data.timezone)
    const now = serverNow()
    const upcoming = data.items
      .filter((e) => endOf(e) > now)
      .sort((a, b) => instant(a.startAt) - instant(b.startAt))
      .slice(0, MAX_ROWS)
    if (upcoming.length === 0) return shell.setContent(notice(ctx.labels.noEvents))
    const today = localDate(data.timezone, now)
    const tomorrow = localDate(data.timezone, now + DAY_MS)
    const list = h('ol', { class: 'events-list' }, upcoming.map((e) => this.row(e, data.timezone, today, tomorrow, now)))
    shell.setContent(list)
    hidePartialRows(list, list.querySelectorAll<HTMLElement>('.event'))
  }

  private row(event: EventItem, timeZone: string, today: string, tomorrow: string, now: number): HTMLElement {
    const { labels, lang } = this.env.ctx
    const status = event.status ?? 'SCHEDULED'
    const day = localDate(timeZone, instant(event.startAt))
    const block = dateBlock(lang, timeZone, event.startAt)
    const relative = day === today ? labels.today : day === tomorrow ? labels.tomorrowDay : null
    const when = event.allDay
      ? labels.allDay
      : event.endAt
        ? `${formatTime(lang, timeZone, event.startAt)} – ${formatTime(lang, timeZone, event.endAt)}`
        : formatTime(lang, timeZone, event.startAt)
    const meta = [event.location, event.organizer].filter((x): x is string => Boolean(x))
    const underway = instant(event.startAt) <= now && status !== 'CANCELLED' && status !== 'POSTPONED'
    return h(
      'li',
      { class: `event status-${status}${underway ? ' is-current' : ''}` },
      h(
        'div',
        { class: `event-date${relative ? ' is-soon' : ''}` },
        h('span', { class: 'event-weekday' }, relative ?? block.weekday),
        h('span', { class: 'event-day' }, block.day),
        h('span', { class: 'event-month' }, block.month),
      ),
      h(
        'div',
        { class: 'event-main' },
        h('div', { class: 'event-when' }, h('span', { class: 'event-time' }, when), status !== 'SCHEDULED' ? h('span', { class: `badge badge-${status}` }, labels[status]) : null),
        text('h3', 'event-title', event.title),
        meta.length > 0 ? text('p', 'event-meta', meta.join(' · ')) : null,
        text('p', 'event-description', event.description),
      ),
      optionalImage(event.imageUrl, 'event-image'),
    )
  }
}

/** When an event stops being shown: its end, else the end of its day (all-day) or one hour after it starts. */
function endOf(event: EventItem): number {
  const start = instant(event.startAt)
  if (event.endAt) return instant(event.endAt)
  return start + (event.allDay ? DAY_MS : HOUR_MS)
}
