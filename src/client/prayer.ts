import { Board, notice } from './board'
import { serverNow } from './clock'
import type { ScreenContext } from './context'
import { fitBoxes, h, timeNode } from './dom'
import { fill } from './i18n'
import { formatCountdown, formatHijri, formatLongDate, localDate, wallTimeParts } from '../screens/shared/format'
import type { Shell } from './shell'
import type { AdhanName, PrayerName, PrayerToday } from './types'

const TIMES: AdhanName[] = ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha']
/** At most one re-read per this interval while waiting for the server to move on. */
const REFRESH_GAP_MS = 10_000

/**
 * The prayer board: today's adhan and iqamah times in the source's time zone, the next
 * prayer with a countdown, jumuah on Fridays, the Gregorian and hijri dates. The `today`
 * read is fetched again when the next prayer's time passes and when the local date changes,
 * since a month push is the only change the websocket reports.
 */
export class PrayerBoard extends Board<PrayerToday> {
  private countdownEl: HTMLElement | null = null
  private lastRefresh = 0

  constructor(ctx: ScreenContext, shell: Shell, sourceId: string) {
    super(ctx, shell, 'prayer', sourceId, `/api/display/v1/prayer-schedules/sources/${encodeURIComponent(sourceId)}/today`, () => ctx.labels.unknownPrayer)
    setInterval(() => this.tick(), 1000)
  }

  protected draw(today: PrayerToday | null): void {
    const { labels, lang } = this.ctx
    this.countdownEl = null
    if (today === null) {
      this.shell.setTitle('')
      return this.shell.setContent(notice(labels.noPrayerMonth, labels.noPrayerMonthHint))
    }
    const place = today.location.name ?? ''
    this.shell.setTitle(place, today.location.city && today.location.city !== place ? today.location.city : '')
    this.shell.setClockZone(today.timezone)

    const next = today.next
    const nextIsToday = next !== null && next.date === today.date
    const passed = (name: AdhanName) => {
      if (next === null || !nextIsToday) return true
      return TIMES.indexOf(name) < TIMES.indexOf(next.prayer)
    }

    const dates = h(
      'div',
      { class: 'prayer-dates' },
      h('span', { class: 'date-gregorian' }, formatLongDate(lang, today.date)),
      h('span', { class: 'date-hijri' }, formatHijri(lang, labels.hijriEra, today.date, today.day.hijri)),
    )

    const rows = TIMES.map((name) => {
      const iqamah = name === 'sunrise' ? undefined : today.day.iqamah?.[name]
      const isNext = nextIsToday && next.prayer === name
      return h(
        'div',
        { class: `prayer-row${isNext ? ' is-next' : ''}${passed(name) && !isNext ? ' is-past' : ''}${name === 'sunrise' ? ' is-sunrise' : ''}`, 'data-prayer': name },
        h('span', { class: 'p-name' }, labels[name]),
        h('span', { class: 'p-adhan' }, h('span', { class: 'p-label' }, labels.adhan), timeNode('span', 'p-time', wallTimeParts(lang, today.day[name]))),
        h('span', { class: 'p-iqamah' }, iqamah ? [h('span', { class: 'p-label' }, labels.iqamah), timeNode('span', 'p-time', wallTimeParts(lang, iqamah))] : null),
      )
    })
    const table = h(
      'section',
      { class: 'prayer-table' },
      h('div', { class: 'prayer-row prayer-head', 'aria-hidden': 'true' }, h('span', null), h('span', null, labels.adhan), h('span', null, labels.iqamah)),
      rows,
    )

    const jumuah = today.day.jumuah?.length
      ? h(
          'section',
          { class: 'jumuah' },
          h('h2', { class: 'jumuah-heading' }, labels.jumuah),
          today.day.jumuah.map((session) =>
            h(
              'div',
              { class: 'jumuah-session' },
              session.khutbah ? h('span', { class: 'jumuah-part' }, h('span', { class: 'jumuah-label' }, labels.khutbah), timeNode('b', 'jumuah-time', wallTimeParts(lang, session.khutbah))) : null,
              h('span', { class: 'jumuah-part' }, h('span', { class: 'jumuah-label' }, labels.iqamah), timeNode('b', 'jumuah-time', wallTimeParts(lang, session.iqamah))),
            ),
          ),
        )
      : null

    let nextPanel: HTMLElement | null = null
    if (next !== null) {
      this.countdownEl = h('span', { class: 'next-countdown' }, this.countdownText(next.at))
      nextPanel = h(
        'section',
        { class: 'next', 'data-prayer': next.prayer },
        h('span', { class: 'next-label' }, labels.nextPrayer),
        h(
          'div',
          { class: 'next-main' },
          h('span', { class: 'next-name' }, labels[next.prayer as PrayerName]),
          timeNode('span', 'next-time', wallTimeParts(lang, next.time)),
          nextIsToday ? null : h('span', { class: 'next-when' }, labels.tomorrow),
        ),
        this.countdownEl,
        next.iqamah ? h('span', { class: 'next-iqamah' }, h('span', null, labels.iqamah), ' ', timeNode('b', 'next-iqamah-time', wallTimeParts(lang, next.iqamah))) : null,
      )
    }

    this.shell.setContent(h('div', { class: `prayer-layout${jumuah ? ' has-jumuah' : ''}` }, dates, nextPanel, table, jumuah))
    this.fit()
  }

  /** Shrinks each panel whose contents do not fit (12-hour times, long names, narrow screens). */
  private fit(): void {
    const content = this.shell.content
    fitBoxes([...content.querySelectorAll<HTMLElement>('.prayer-row:not(.prayer-head), .next, .prayer-dates, .jumuah')], 0.3)
  }

  private countdownText(at: string): string {
    return fill(this.ctx.labels.inTime, { time: formatCountdown(this.ctx.lang, Date.parse(at) - serverNow()) })
  }

  /** Every second: the countdown, and a re-read once the next prayer or the day has passed. */
  private tick(): void {
    const today = this.data
    if (today === undefined || today === null) return
    const now = serverNow()
    if (today.next !== null && this.countdownEl !== null) {
      const text = this.countdownText(today.next.at)
      if (this.countdownEl.textContent !== text) {
        const wider = text.length !== (this.countdownEl.textContent ?? '').length
        this.countdownEl.textContent = text
        // "9:59" becomes "10:00": the panel may need another scale.
        const panel = this.countdownEl.closest<HTMLElement>('.next')
        if (wider && panel !== null) fitBoxes([panel], 0.3)
      }
    }
    const nextPassed = today.next !== null && now >= Date.parse(today.next.at)
    const dayChanged = localDate(today.timezone, now) !== today.date
    if ((nextPassed || dayChanged) && now - this.lastRefresh >= REFRESH_GAP_MS) {
      this.lastRefresh = now
      void this.topic.refresh()
    }
  }
}
