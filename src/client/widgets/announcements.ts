import { notice } from '../board'
import { serverNow } from '../clock'
import { fitBoxes, h, text } from '../dom'
import { formatNumber } from '../../screens/shared/format'
import type { Announcement, AnnouncementsData } from '../types'
import { instant, optionalImage, type ViewEnv, type WidgetView } from './view'

/** Contract §4 leaves `displaySeconds` optional: this long when it is absent. */
export const DEFAULT_DISPLAY_SECONDS = 10
/** With nothing active, look again this often (an item's `startsAt` may come). */
const IDLE_RECHECK_MS = 30_000

/**
 * Announcements one at a time, each for its `displaySeconds`, only inside its
 * `startsAt`–`endsAt` window. A new snapshot redraws the one on screen without restarting
 * its time, so frequent pushes never stall the rotation.
 */
export class AnnouncementsView implements WidgetView<AnnouncementsData> {
  private data: AnnouncementsData | null = null
  private currentId: string | null = null
  private timer: ReturnType<typeof setTimeout> | undefined
  private shownAt = 0

  constructor(private readonly env: ViewEnv) {}

  update(data: AnnouncementsData): void {
    this.data = data
    const items = this.active()
    const current = items.find((a) => a.id === this.currentId)
    if (current === undefined || this.timer === undefined) this.show(items[0] ?? null)
    else this.draw(current, items)
  }

  dispose(): void {
    clearTimeout(this.timer)
  }

  private active(): Announcement[] {
    const now = serverNow()
    return (this.data?.items ?? []).filter((a) => {
      const starts = instant(a.startsAt)
      const ends = instant(a.endsAt)
      return !(starts > now) && !(ends <= now)
    })
  }

  private show(item: Announcement | null): void {
    clearTimeout(this.timer)
    const items = this.active()
    if (item === null) {
      this.currentId = null
      this.draw(null, items)
      this.timer = setTimeout(() => this.show(this.active()[0] ?? null), IDLE_RECHECK_MS)
      return
    }
    this.currentId = item.id
    this.shownAt = serverNow()
    this.draw(item, items)
    const seconds = item.displaySeconds ?? DEFAULT_DISPLAY_SECONDS
    this.timer = setTimeout(() => this.advance(), seconds * 1000)
  }

  private advance(): void {
    const items = this.active()
    const at = items.findIndex((a) => a.id === this.currentId)
    this.show(items[(at + 1) % Math.max(items.length, 1)] ?? null)
  }

  private draw(item: Announcement | null, items: Announcement[]): void {
    const { ctx, shell } = this.env
    const { labels, lang } = ctx
    shell.setTitle(this.data?.title || this.env.name())
    shell.setClockZone(this.data?.timezone)
    if (item === null) return shell.setContent(notice(labels.noAnnouncements))
    const priority = item.priority ?? 'NORMAL'
    const flag = priority === 'URGENT' || priority === 'HIGH' ? labels[priority] : null
    const length = item.body.length <= 140 ? 's' : item.body.length <= 320 ? 'm' : item.body.length <= 600 ? 'l' : 'xl'
    const index = items.findIndex((a) => a.id === item.id)
    const seconds = item.displaySeconds ?? DEFAULT_DISPLAY_SECONDS
    const progress = h('div', { class: 'ann-progress' })
    // The bar runs for what is left of this item's time (a redraw mid-way keeps its place).
    progress.style.setProperty('--ann-duration', `${seconds}s`)
    progress.style.setProperty('--ann-delay', `${-Math.min(seconds, (serverNow() - this.shownAt) / 1000)}s`)
    const image = optionalImage(item.imageUrl, 'ann-image')
    shell.setContent(
      h(
        'article',
        { class: `ann priority-${priority}${image ? ' has-image' : ''}`, 'data-id': item.id, 'data-length': length },
        h(
          'div',
          { class: 'ann-text' },
          flag || item.category ? h('div', { class: 'ann-meta' }, flag ? h('span', { class: 'ann-flag' }, flag) : null, text('span', 'ann-category', item.category)) : null,
          text('h2', 'ann-title', item.title),
          text('p', 'ann-body', item.body),
        ),
        image,
      ),
      items.length > 1
        ? h(
            'footer',
            { class: 'ann-footer' },
            h('span', { class: 'ann-count', dir: 'ltr' }, `${formatNumber(lang, index + 1)} / ${formatNumber(lang, items.length)}`),
            progress,
          )
        : h('footer', { class: 'ann-footer' }),
    )
    fitBoxes([...shell.content.querySelectorAll<HTMLElement>('.ann')], 0.3)
  }
}
