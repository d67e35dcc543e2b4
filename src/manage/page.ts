import { ASSETS } from '../screens/page'
import { escapeHtml, pageHeaders, pageShell, SCREEN_CSP } from '../screens/page'

/*
 * The /manage page's frame (contract §22): server-rendered in English or Arabic (`?lang=ar`,
 * right to left), filled and kept live by src/client/manage/main.ts over the floor's
 * websocket. A person without the role gets a page in words (403), never the floor.
 */

export type ManageLang = 'en' | 'ar'

const TEXT = {
  en: {
    title: 'Live floor',
    other: 'العربية',
    needsScript: 'This page needs JavaScript.',
    loading: 'Loading the floor…',
    forbiddenTitle: 'Not for this account',
    forbidden: 'The live floor is for managers and administrators. Your account cannot see it.',
    home: 'Go to your start page',
    signOut: 'Sign out',
  },
  ar: {
    title: 'القاعة مباشرة',
    other: 'English',
    needsScript: 'تحتاج هذه الصفحة إلى JavaScript.',
    loading: 'جارٍ تحميل القاعة…',
    forbiddenTitle: 'غير متاح لهذا الحساب',
    forbidden: 'عرض القاعة المباشر مخصص للمديرين والمسؤولين. لا يمكن لحسابك رؤيته.',
    home: 'الذهاب إلى صفحة البداية',
    signOut: 'تسجيل الخروج',
  },
} as const

export function manageLangOf(query: Record<string, string | undefined>): ManageLang {
  return (query.lang ?? '').toLowerCase().startsWith('ar') ? 'ar' : 'en'
}

function frame(lang: ManageLang, title: string, body: string, status: number): Response {
  const html = pageShell({
    lang,
    dir: lang === 'ar' ? 'rtl' : 'ltr',
    title,
    stylesheet: ASSETS['manage.css'].path,
    script: ASSETS['manage.js'].path,
    body,
  })
  return new Response(html, { status, headers: pageHeaders(SCREEN_CSP) })
}

/**
 * `GET /manage` for an admin or a manager: the frame the script fills (`unit` preselects one of
 * theirs; `locale`, the URL's locale of the page's language, e.g. `en-US`, comes before the
 * browser's for times and numbers).
 */
export function managePage(lang: ManageLang, unit: string | undefined, username: string, locale: string | null = null): Response {
  const t = TEXT[lang]
  const other = `/manage${lang === 'ar' ? '' : '?lang=ar'}${unit ? `${lang === 'ar' ? '?' : '&'}unit=${encodeURIComponent(unit)}` : ''}`
  return frame(lang, t.title, `<div id="manage" data-lang="${lang}" data-locale="${escapeHtml(locale ?? '')}" data-unit="${escapeHtml(unit ?? '')}">
<header class="top">
<h1 id="manage-title">${escapeHtml(t.title)}</h1>
<div class="top-tools">
<span id="manage-unit-picker"></span>
<span id="manage-connection" role="status"></span>
<span class="who">${escapeHtml(username)}</span>
<button type="button" id="manage-sign-out">${escapeHtml(t.signOut)}</button>
<a class="lang" href="${escapeHtml(other)}" lang="${lang === 'ar' ? 'en' : 'ar'}">${escapeHtml(t.other)}</a>
</div>
</header>
<main id="manage-floor" aria-busy="true"><p class="loading">${escapeHtml(t.loading)}</p><noscript><p>${escapeHtml(t.needsScript)}</p></noscript></main>
<div id="manage-alerts" class="visually-hidden" role="status" aria-live="polite"></div>
<div id="manage-error" role="alert"></div>
</div>`, 200)
}

/** `GET /manage` signed in without the role (a clerk): 403, in words, nothing of the floor. */
export function forbiddenPage(lang: ManageLang, home: string): Response {
  const t = TEXT[lang]
  return frame(lang, t.forbiddenTitle, `<main class="forbidden">
<h1>${escapeHtml(t.forbiddenTitle)}</h1>
<p>${escapeHtml(t.forbidden)}</p>
<p><a href="${escapeHtml(home)}">${escapeHtml(t.home)}</a></p>
</main>`, 403)
}
