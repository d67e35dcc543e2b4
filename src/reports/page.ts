import { canonicalLang, directionOf } from '../screens'
import { escapeHtml, pageHeaders, pageShell } from '../screens/page'
import { SCREEN_CSP } from '../screens/page'
import { ASSETS } from '../screens/page'

/** Who opens /reports, as the route finds out from the request's cookies (contract §12, §24). */
export type ReportsVisitor = 'reader' | 'clerk' | 'nobody'

/**
 * The words of the two refusals, rendered by the server so they need no script: a clerk, and a
 * browser neither signed in (as a manager or admin) nor paired as a reports device.
 */
const TEXT = {
  en: {
    clerkTitle: 'Reports are for managers and administrators',
    clerkBody: 'You are signed in as a clerk. Reports show a whole branch’s figures: ask a manager, or sign in as one.',
    nobodyTitle: 'Sign in or pair this device to see reports',
    nobodyBody: 'You are not signed in, and this browser is not paired as a reports device. Managers and administrators sign in; a shared office PC can be paired with a code from an administrator.',
    signIn: 'Sign in',
    signInOther: 'Sign in as someone else',
    pair: 'Pair this device',
    start: 'Start page',
  },
  ar: {
    clerkTitle: 'التقارير للمديرين والمسؤولين',
    clerkBody: 'أنت مسجل الدخول كموظف. تعرض التقارير أرقام الفرع كله: اسأل مديرًا، أو سجّل الدخول باسم مدير.',
    nobodyTitle: 'سجّل الدخول أو اقرن هذا الجهاز لعرض التقارير',
    nobodyBody: 'لم تسجل الدخول، وهذا المتصفح غير مقترن كجهاز تقارير. يسجّل المديرون والمسؤولون الدخول؛ ويمكن اقتران حاسوب مكتب مشترك برمز من المسؤول.',
    signIn: 'تسجيل الدخول',
    signInOther: 'تسجيل الدخول باسم شخص آخر',
    pair: 'اقتران هذا الجهاز',
    start: 'صفحة البداية',
  },
} as const

/**
 * The /reports page (contract §12, §24). For a reader (a paired `reports` device, or a signed-in
 * manager or admin): the frame its bundle fills in from the report API with the browser's
 * cookies; it holds no data, so it is the same for every reader. A clerk gets a page saying in
 * words that reports are for managers and administrators (403); a browser neither signed in nor
 * paired, one saying so with links to /login and /pair. Language and direction come from
 * `?lang=` so Arabic is right to left from the first paint.
 */
export function reportsPage(query: Record<string, string | undefined>, visitor: ReportsVisitor = 'reader'): Response {
  const lang = canonicalLang(query.lang ?? null)
  const page = { lang: lang ?? 'en', dir: lang ? directionOf(lang) : 'ltr' as const, stylesheet: ASSETS['reports.css'].path, script: ASSETS['reports.js'].path }
  // Own origin only, as the screens and device pages (uPlot draws on a canvas: no inline style needed).
  // Own origin only, as the screens and device pages (uPlot draws on a canvas: no inline style needed).
  const headers = pageHeaders(SCREEN_CSP)
  if (visitor !== 'reader') {
    const ar = (lang ?? '').startsWith('ar')
    const t = TEXT[ar ? 'ar' : 'en']
    const suffix = ar ? '?lang=ar' : ''
    const title = visitor === 'clerk' ? t.clerkTitle : t.nobodyTitle
    const links = visitor === 'clerk'
      ? [`<a class="button-link" href="/login${suffix}">${escapeHtml(t.signInOther)}</a>`, `<a href="/${suffix}">${escapeHtml(t.start)}</a>`]
      : [`<a class="button-link" href="/login${suffix}">${escapeHtml(t.signIn)}</a>`, `<a class="button-link" href="/pair${suffix}">${escapeHtml(t.pair)}</a>`]
    const html = pageShell({
      ...page,
      title,
      body: `<div id="page" data-kind="reports-refused">
<main id="page-content"><section class="page-message"><h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(visitor === 'clerk' ? t.clerkBody : t.nobodyBody)}</p>
<p class="page-links">${links.join(' ')}</p></section></main>
</div>`,
    })
    return new Response(html, { status: visitor === 'clerk' ? 403 : 200, headers })
  }
  const html = pageShell({
    ...page,
    title: 'Reports',
    body: `<div id="page" data-kind="reports">
<main id="page-content"><p class="page-starting">Lobby · Reports…</p><noscript><p class="page-error">This page needs JavaScript.</p></noscript></main>
</div>`,
  })
  return new Response(html, { status: 200, headers })
}
