import { notice } from '../board'
import { serverNow } from '../clock'
import { h, hidePartialRows, text, timeNode } from '../dom'
import { formatLongDate, timeParts } from '../../screens/shared/format'
import type { ScheduleData, ScheduleItem } from '../types'
import { instant, RedrawingView, type ViewEnv } from './view'

const REDRAW_MS = 20_000
/** An item with no end and no later item is taken to last this long. */
const DEFAULT_LENGTH_MS = 60 * 60_000

/**
 * Today's schedule: items in time order, the current one marked "Now", finished ones dimmed,
 * cancelled ones struck through; the list scrolls so the current item is near the top.
 */
export class ScheduleView extends RedrawingView<ScheduleData> {
  constructor(env: ViewEnv) {
    super(env, REDRAW_MS)
  }

  protected draw(data: ScheduleData): void {
    const { ctx, shell } = this.env
    const { labels, lang } = ctx
    shell.setTitle(data.title || this.env.name(), data.subtitle || formatLongDate(lang, data.date))
    shell.setClockZone(data.timezone)
    const items = [...data.items].sort((a, b) => instant(a.startAt) - instant(b.startAt))
    if (items.length === 0) return shell.setContent(notice(labels.noSchedule))

    const now = serverNow()
    const rows = items.map((item, i) => {
      const start = instant(item.startAt)
      const end = item.endAt ? instant(item.endAt) : instant(items[i + 1]?.startAt) > start ? instant(items[i + 1]?.startAt) : start + DEFAULT_LENGTH_MS
      const status = item.status ?? 'SCHEDULED'
      const over = status === 'CANCELLED' || status === 'COMPLETED'
      const current = status === 'IN_PROGRESS' || (!over && start <= now && now < end)
      const past = !current && (status === 'COMPLETED' || end <= now)
      return this.row(item, data.timezone, { current, past })
    })
    const list = h('ol', { class: 'sched-list' }, rows)
    const frame = h('div', { class: 'sched' }, list)
    shell.setContent(frame)
    // Keep the current item (else the first one still ahead) near the top, one earlier item above it.
    const focus = rows.findIndex((r) => r.classList.contains('is-current'))
    const ahead = focus >= 0 ? focus : rows.findIndex((r) => !r.classList.contains('is-past'))
    const target = rows[Math.max(0, (ahead >= 0 ? ahead : rows.length - 1) - 1)]
    if (target !== undefined) frame.scrollTop = target.offsetTop - list.offsetTop
    hidePartialRows(frame, rows)
  }

  private row(item: ScheduleItem, timeZone: string, state: { current: boolean; past: boolean }): HTMLElement {
    const { labels, lang } = this.env.ctx
    const status = item.status ?? 'SCHEDULED'
    const badge = state.current && status !== 'DELAYED' ? labels.now : status === 'SCHEDULED' ? null : labels[status]
    const classes = ['sched-item', `status-${status}`, state.current ? 'is-current' : '', state.past ? 'is-past' : ''].filter(Boolean).join(' ')
    const meta = [item.location, item.host].filter((x): x is string => Boolean(x))
    return h(
      'li',
      { class: classes },
      h(
        'div',
        { class: 'sched-time' },
        timeNode('time', 'sched-start', timeParts(lang, timeZone, item.startAt), item.startAt),
        item.endAt ? timeNode('time', 'sched-end', timeParts(lang, timeZone, item.endAt), item.endAt) : null,
      ),
      h('div', { class: 'sched-main' }, text('h3', 'sched-title', item.title), meta.length > 0 ? text('p', 'sched-meta', meta.join(' · ')) : null),
      badge ? h('span', { class: `badge badge-${state.current ? 'now' : status}` }, badge) : null,
    )
  }
}
