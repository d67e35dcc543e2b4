import { Elysia } from 'elysia'
import { sessionIdOf } from '../access'
import { deviceSecretOf } from '../access'
import type { AdminDeps } from './deps'
import { ASSETS } from '../screens/page'
import { escapeHtml, pageHeaders, pageShell, SCREEN_CSP } from '../screens/page'
import { localeWithin } from '../platform/names'
import { USER_HOME, type PeopleService, type User } from '../people'
import { ROLE_HOME, type DeviceService } from '../devices'

/*
 * The /admin page (contract §17) and the start page `/`. Both are server-rendered frames on the
 * page toolkit: /admin's bundle (src/client/admin/) fills its sections in from the admin
 * API; `/` is plain links and needs no script. Signed out, /admin sends the browser to /login;
 * a clerk gets a page saying in words that the console is not for them (403).
 */

type Lang = 'en' | 'ar'
const langOf = (query: Record<string, string | undefined>): Lang => ((query.lang ?? '').toLowerCase().startsWith('ar') ? 'ar' : 'en')

const TEXT = {
  en: {
    admin: 'Administration',
    starting: 'Loading the console…',
    needsScript: 'This page needs JavaScript.',
    clerkTitle: 'Not for clerks',
    clerkBody: 'The administration console is for managers and administrators. You are signed in as a clerk: sign in at a desk instead, or ask a manager.',
    signOutHint: 'Sign in as someone else',
    signOut: 'Sign out',
    start: 'Lobby',
    startIntro: 'Pick where to go.',
    signedInAs: 'Signed in as {name} ({role}).',
    device: 'This browser is the paired {role} device “{name}”.',
    notSignedIn: 'You are not signed in.',
    firstStart: 'This Lobby has no administrator yet. Open the setup link the server printed when it started (in its terminal or service log) to choose the first administrator’s password; restart the server for a new link.',
    links: {
      '/admin': 'Administration: branch, audit log',
      '/manage': 'The floor, live',
      '/reports': 'Reports',
      '/desk': 'Counter desk',
      '/kiosk': 'Kiosk',
      '/screens': 'Queue boards',
      '/login': 'Sign in',
      '/pair': 'Pair this browser as a desk, kiosk, board or reports device',
    } as Record<string, string>,
    roles: { admin: 'administrator', manager: 'manager', clerk: 'clerk', desk: 'desk', kiosk: 'kiosk', display: 'board', reports: 'reports' } as Record<string, string>,
    other: 'العربية',
  },
  ar: {
    admin: 'الإدارة',
    starting: 'جارٍ تحميل لوحة الإدارة…',
    needsScript: 'تحتاج هذه الصفحة إلى JavaScript.',
    clerkTitle: 'ليست للموظفين',
    clerkBody: 'لوحة الإدارة للمديرين والمسؤولين. أنت مسجل الدخول كموظف: سجّل الدخول في مكتب بدلاً من ذلك، أو اسأل مديرًا.',
    signOutHint: 'تسجيل الدخول باسم شخص آخر',
    signOut: 'تسجيل الخروج',
    start: 'Lobby',
    startIntro: 'اختر وجهتك.',
    signedInAs: 'مسجل الدخول باسم {name} ({role}).',
    device: 'هذا المتصفح هو جهاز {role} المقترن «{name}».',
    notSignedIn: 'لم تسجل الدخول.',
    firstStart: 'لا يوجد مسؤول لهذا النظام بعد. افتح رابط الإعداد الذي طبعه الخادم عند تشغيله (في الطرفية أو سجل الخدمة) لاختيار كلمة مرور المسؤول الأول؛ أعد تشغيل الخادم للحصول على رابط جديد.',
    links: {
      '/admin': 'الإدارة: الفرع وسجل التدقيق',
      '/manage': 'القاعة مباشرة',
      '/reports': 'التقارير',
      '/desk': 'مكتب الشباك',
      '/kiosk': 'الكشك',
      '/screens': 'شاشات الطابور',
      '/login': 'تسجيل الدخول',
      '/pair': 'اقتران هذا المتصفح كمكتب أو كشك أو شاشة أو جهاز تقارير',
    } as Record<string, string>,
    roles: { admin: 'مسؤول', manager: 'مدير', clerk: 'موظف', desk: 'مكتب', kiosk: 'كشك', display: 'شاشة', reports: 'تقارير' } as Record<string, string>,
    other: 'English',
  },
} as const

/** The pages a signed-in person may open (contract §16's table), their home first. */
export const PERSON_PAGES: Record<User['role'], string[]> = {
  admin: ['/admin', '/manage', '/reports'],
  manager: ['/admin', '/manage', '/reports'],
  clerk: ['/desk'],
}

const otherLang = (lang: Lang, path: string) => `${path}?lang=${lang === 'ar' ? 'en' : 'ar'}`

/** The page frame: the console's bundle does nothing on a page without `#admin` (the start page, the clerk's 403). */
function frame(lang: Lang, title: string, body: string): string {
  return pageShell({
    lang,
    dir: lang === 'ar' ? 'rtl' : 'ltr',
    title,
    stylesheet: ASSETS['admin.css'].path,
    script: ASSETS['admin.js'].path,
    body,
  })
}

export function adminPageRoutes(deps: AdminDeps, { people, devices }: { people: PeopleService; devices?: DeviceService }) {
  const signedIn = async (request: Request): Promise<User | null> => {
    const found = await people.authenticate(sessionIdOf(request), deps.clock.now())
    return found?.user ?? null
  }

  return new Elysia({ name: 'lobby.admin.pages' })
    .get('/admin', async ({ request, query }) => {
      const lang = langOf(query)
      const t = TEXT[lang]
      const user = await signedIn(request)
      if (user === null) return new Response(null, { status: 303, headers: { location: `/login${lang === 'ar' ? '?lang=ar' : ''}`, 'cache-control': 'no-store' } })
      if (user.role === 'clerk') {
        const html = frame(lang, t.clerkTitle, `<main id="page-content" class="admin-denied"><h1>${escapeHtml(t.clerkTitle)}</h1><p>${escapeHtml(t.clerkBody)}</p>
<p><a href="/login${lang === 'ar' ? '?lang=ar' : ''}">${escapeHtml(t.signOutHint)}</a> · <a href="/">${escapeHtml(t.start)}</a></p></main>`)
        return new Response(html, { status: 403, headers: pageHeaders(SCREEN_CSP) })
      }
      // The URL's locale of the page's language (`?lang=en-US`), if any: the page's dates use it before the browser's.
      const locale = localeWithin(query.lang, lang) ?? ''
      const html = frame(lang, t.admin, `<div id="admin" data-lang="${lang}" data-locale="${escapeHtml(locale)}" data-role="${user.role}" data-username="${escapeHtml(user.username)}" data-display-name="${escapeHtml(user.displayName)}">
<header class="admin-bar"><a class="admin-home" href="/${lang === 'ar' ? '?lang=ar' : ''}">Lobby</a><h1>${escapeHtml(t.admin)}</h1><span class="admin-user">${escapeHtml(user.displayName || user.username)}</span><button type="button" id="admin-sign-out" class="admin-sign-out">${escapeHtml(t.signOut)}</button><a class="admin-lang" href="${otherLang(lang, '/admin')}" lang="${lang === 'ar' ? 'en' : 'ar'}">${t.other}</a></header>
<div class="admin-body"><nav id="admin-nav" aria-label="${escapeHtml(t.admin)}"></nav>
<main id="admin-main" tabindex="-1"><p class="admin-starting">${escapeHtml(t.starting)}</p><noscript><p class="admin-error">${escapeHtml(t.needsScript)}</p></noscript></main></div>
<div id="admin-status" role="status" aria-live="polite" class="admin-status"></div>
</div>`)
      return new Response(html, { status: 200, headers: pageHeaders(SCREEN_CSP) })
    }, { detail: { hide: true } })
    .get('/', async ({ request, query }) => {
      const lang = langOf(query)
      const t = TEXT[lang]
      const suffix = lang === 'ar' ? '?lang=ar' : ''
      const user = await signedIn(request)
      const secret = deviceSecretOf(request)
      const device = secret === null || devices === undefined ? null : devices.authenticate(deps.credentials, secret, deps.clock.now())
      const pages: string[] = []
      const lines: string[] = []
      if (user !== null) {
        lines.push(t.signedInAs.replace('{name}', `<bdi>${escapeHtml(user.displayName || user.username)}</bdi>`).replace('{role}', escapeHtml(t.roles[user.role] ?? user.role)))
        pages.push(USER_HOME[user.role], ...PERSON_PAGES[user.role])
      }
      if (device !== null) {
        lines.push(t.device.replace('{role}', escapeHtml(t.roles[device.role] ?? device.role)).replace('{name}', `<bdi>${escapeHtml(device.name)}</bdi>`))
        pages.push(ROLE_HOME[device.role])
      }
      if (user === null && device === null) lines.push(escapeHtml(t.notSignedIn))
      // Contract §24: on a first start, say how to begin instead of a sign-in nobody can pass.
      if (user === null && !people.hasAdministrator()) lines.unshift(`<strong class="first-start">${escapeHtml(t.firstStart)}</strong>`)
      pages.push('/login', '/pair')
      const links = [...new Set(pages)].map((path) => `<li><a href="${path}${suffix}">${escapeHtml(t.links[path] ?? path)}</a></li>`).join('\n')
      const html = frame(lang, t.start, `<main id="page-content" class="start-page"><h1>Lobby</h1>
${lines.map((l) => `<p>${l}</p>`).join('\n')}
<p>${escapeHtml(t.startIntro)}</p>
<ul class="start-links">
${links}
</ul>
<p><a href="${otherLang(lang, '/')}" lang="${lang === 'ar' ? 'en' : 'ar'}">${t.other}</a></p></main>`)
      return new Response(html, { status: 200, headers: pageHeaders(SCREEN_CSP) })
    }, { detail: { hide: true } })
}
