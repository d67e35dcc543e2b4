import { h } from '../dom'
import type { BoardsResponse } from '../../contract/wire'
import { api, whoAmI, type DevicePage } from './page'

/** `/screens` on a paired display: the workspace's boards, each a link to open on this screen. */
export async function boardsPage(page: DevicePage): Promise<void> {
  const { labels } = page
  document.title = `Lobby · ${labels.boardsTitle}`
  const device = await whoAmI()
  if (device === 'offline') return page.showMessage(labels.pairOffline, '')
  if (device === null || device.role !== 'display') {
    return page.showMessage(labels.notPaired, labels.notPairedHint, { label: labels.pairAgain, href: '/pair' })
  }
  const answer = await api<BoardsResponse>('GET', '/api/devices/v1/boards')
  if (answer === null || answer.status !== 200 || answer.body === null) return page.showMessage(labels.noLongerPaired, labels.notPairedHint, { label: labels.pairAgain, href: '/pair' })
  const kindLabel = { queue: labels.kindQueue, widget: labels.kindWidget, prayer: labels.kindPrayer }
  const lang = new URLSearchParams(location.search).get('lang')
  const boards = answer.body.data.boards
  page.content.replaceChildren(
    h(
      'section',
      { class: 'boards' },
      h('h1', null, labels.boardsTitle),
      h('p', null, labels.boardsIntro),
      boards.length === 0
        ? h('p', { class: 'hint' }, labels.boardsNone)
        : h('ul', { class: 'board-list' }, boards.map((b) => h('li', null, h('a', { href: lang ? `${b.path}${b.path.includes('?') ? '&' : '?'}lang=${encodeURIComponent(lang)}` : b.path }, h('span', { class: 'board-kind' }, kindLabel[b.kind]), h('span', { class: 'board-name', dir: 'auto' }, b.name))))),
    ),
  )
}
