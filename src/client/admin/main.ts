import { api } from '../api'
import { h } from '../dom'
import { formatLocale } from '../../screens/shared/format'
import { fill, STRINGS, type Lang } from './strings'
import { SECTIONS, type AdminContext, type AdminSection } from './sections'

/*
 * The administration console (/admin; contract §17, src/admin/page.ts renders the frame with
 * who is signed in). The navigation is built from `SECTIONS`: one link per section the role may
 * use, the current one marked `aria-current="page"`; the URL fragment (`#branch`, `#audit`)
 * chooses the section, so a reload or a shared link opens the same one, and Back works.
 */

function start(): void {
  const root = document.getElementById('admin')
  if (root === null) return
  const lang: Lang = root.dataset.lang === 'ar' ? 'ar' : 'en'
  const role = root.dataset.role === 'admin' ? 'admin' : 'manager'
  const status = document.getElementById('admin-status')!
  let hide: ReturnType<typeof setTimeout> | undefined
  const ctx: AdminContext = {
    lang,
    locale: formatLocale(lang, root.dataset.locale),
    t: STRINGS[lang],
    role,
    username: root.dataset.username ?? '',
    announce: (message) => {
      status.textContent = ''
      clearTimeout(hide)
      // A fresh text node so a repeated message is read again; the visible note goes after a while.
      setTimeout(() => (status.textContent = message), 50)
      hide = setTimeout(() => (status.textContent = ''), 6000)
    },
  }
  // Contract §24: Sign out ends the session (every one of this person's) and lands on /login.
  const signOut = document.getElementById('admin-sign-out') as HTMLButtonElement | null
  signOut?.addEventListener('click', async () => {
    signOut.disabled = true
    const answer = await api('DELETE', '/api/auth/v1/sessions/current')
    // 401: the session had already ended; either way nobody is signed in here now.
    if (answer !== null && (answer.status === 200 || answer.status === 401)) return location.assign(lang === 'ar' ? '/login?lang=ar' : '/login')
    signOut.disabled = false
    ctx.announce(answer === null ? ctx.t.offline : fill(ctx.t.failed, { message: answer.message }))
  })
  const nav = document.getElementById('admin-nav')!
  const main = document.getElementById('admin-main')!
  const sections = SECTIONS.filter((s) => s.roles.includes(role))
  const links = new Map<string, HTMLAnchorElement>()
  nav.replaceChildren(h('ul', null, sections.map((s) => {
    const a = h('a', { href: `#${s.id}` }, s.label(ctx.t))
    links.set(s.id, a)
    return h('li', null, a)
  })))

  /** The latest section asked for: a section whose render ends after another was chosen is dropped. */
  let latest = 0
  const show = async (section: AdminSection, focus: boolean) => {
    const mine = ++latest
    for (const [id, a] of links) {
      if (id === section.id) a.setAttribute('aria-current', 'page')
      else a.removeAttribute('aria-current')
    }
    document.title = `Lobby · ${section.label(ctx.t)}`
    // A note about the section left behind does not belong to this one.
    status.textContent = ''
    main.replaceChildren(h('h2', { class: 'section-title' }, section.label(ctx.t)), h('p', { class: 'admin-starting' }, ctx.t.loading))
    const body = h('div', { class: 'section-body' })
    await section.render(body, ctx)
    // The person chose another section meanwhile (a link, Back, a typed #fragment): it is shown, not this one.
    if (mine !== latest) return
    main.replaceChildren(h('h2', { class: 'section-title' }, section.label(ctx.t)), body)
    if (focus) main.focus()
  }
  const current = (): AdminSection => sections.find((s) => `#${s.id}` === location.hash) ?? sections[0]!
  window.addEventListener('hashchange', () => void show(current(), true))
  void show(current(), false)
}

start()
