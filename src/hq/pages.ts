import { Elysia } from 'elysia'
import { ASSETS, assetRoutes, escapeHtml, pageHeaders, pageShell, SCREEN_CSP } from '../screens/page'
import { cookieValue } from '../platform/http'
import { HQ_SESSION_PATTERN, type HqService } from './service'
import { HQ_SESSION_COOKIE } from './routes'

/*
 * The head-office console's pages (contract §26): server-rendered frames on the shared page
 * toolkit, English or Arabic (`?lang=ar`, right to left). Sign-in and setup reuse the branch's
 * sign-in bundle (src/client/login/, which posts to the form's `data-api`); /hq,
 * /hq/live and /hq/reports are filled by src/client/hq/main.ts from /api/hq/v1. A page
 * for someone not signed in sends them to /hq/login.
 */

type Lang = 'en' | 'ar'

const TEXT = {
  en: {
    other: 'العربية', needsScript: 'This page needs JavaScript.', signInTitle: 'Head office: sign in', setupTitle: 'Head office: set your password',
    username: 'Username', password: 'Password', newPassword: 'New password (at least 10 characters)', confirm: 'New password again',
    signIn: 'Sign in', save: 'Save', working: 'Please wait…', toSignIn: 'Go to sign-in', done: 'Your password is set. You can sign in now.',
    SIGN_IN_FAILED: 'Wrong username or password.', SIGN_IN_LOCKED: 'Too many failed sign-ins for this username. Try again in {minutes} minutes.',
    SETUP_CODE_INVALID: 'This setup link is wrong, expired or already used. Ask a head-office administrator for a new one.',
    PASSWORD_TOO_SHORT: 'The password must have at least 10 characters.', PASSWORD_TOO_COMMON: 'This password is among the most common ones. Choose another.',
    PASSWORD_REPEATED: 'The password is one character repeated. Choose another.', PASSWORD_SEQUENCE: 'The password is a run of letters, digits or keys in a row. Choose another.',
    PASSWORD_CONTAINS_USERNAME: 'The password must not contain your username. Choose another.', MISMATCH: 'The two passwords are not the same.', OTHER: 'Something went wrong. Try again.',
    profiles: 'Profiles', live: 'Chain live', reports: 'Reports', signOut: 'Sign out', loading: 'Loading…',
  },
  ar: {
    other: 'English', needsScript: 'تحتاج هذه الصفحة إلى JavaScript.', signInTitle: 'المكتب الرئيسي: تسجيل الدخول', setupTitle: 'المكتب الرئيسي: تعيين كلمة المرور',
    username: 'اسم المستخدم', password: 'كلمة المرور', newPassword: 'كلمة المرور الجديدة (10 أحرف على الأقل)', confirm: 'أعد كتابة كلمة المرور الجديدة',
    signIn: 'دخول', save: 'حفظ', working: 'يرجى الانتظار…', toSignIn: 'الذهاب إلى تسجيل الدخول', done: 'تم تعيين كلمة المرور. يمكنك تسجيل الدخول الآن.',
    SIGN_IN_FAILED: 'اسم المستخدم أو كلمة المرور غير صحيحة.', SIGN_IN_LOCKED: 'محاولات فاشلة كثيرة لهذا الاسم. حاول مرة أخرى بعد {minutes} دقيقة.',
    SETUP_CODE_INVALID: 'رابط الإعداد هذا غير صحيح أو منتهي الصلاحية أو مستخدم. اطلب رابطًا جديدًا من مسؤول المكتب الرئيسي.',
    PASSWORD_TOO_SHORT: 'يجب أن تتكون كلمة المرور من 10 أحرف على الأقل.', PASSWORD_TOO_COMMON: 'كلمة المرور هذه من أكثر الكلمات شيوعًا. اختر غيرها.',
    PASSWORD_REPEATED: 'كلمة المرور حرف واحد مكرر. اختر غيرها.', PASSWORD_SEQUENCE: 'كلمة المرور سلسلة متتالية من الحروف أو الأرقام أو المفاتيح. اختر غيرها.',
    PASSWORD_CONTAINS_USERNAME: 'يجب ألا تحتوي كلمة المرور على اسم المستخدم الخاص بك. اختر غيرها.', MISMATCH: 'كلمتا المرور غير متطابقتين.', OTHER: 'حدث خطأ. حاول مرة أخرى.',
    profiles: 'الملفات التعريفية', live: 'السلسلة مباشرة', reports: 'التقارير', signOut: 'تسجيل الخروج', loading: 'جارٍ التحميل…',
  },
} as const

const MESSAGE_KEYS = ['SIGN_IN_FAILED', 'SIGN_IN_LOCKED', 'SETUP_CODE_INVALID', 'PASSWORD_TOO_SHORT', 'PASSWORD_TOO_COMMON', 'PASSWORD_REPEATED',
  'PASSWORD_SEQUENCE', 'PASSWORD_CONTAINS_USERNAME', 'MISMATCH', 'OTHER', 'working', 'done'] as const

const langOf = (query: Record<string, string | undefined>): Lang => ((query.lang ?? '').toLowerCase().startsWith('ar') ? 'ar' : 'en')
const messages = (lang: Lang) => MESSAGE_KEYS.map((key) => ` data-msg${key.toLowerCase().replace(/_/g, '')}="${escapeHtml(TEXT[lang][key])}"`).join('')

function html(lang: Lang, title: string, script: 'login' | 'hq', body: string, status = 200): Response {
  const page = pageShell({
    lang,
    dir: lang === 'ar' ? 'rtl' : 'ltr',
    title,
    stylesheet: ASSETS[script === 'login' ? 'login.css' : 'hq.css'].path,
    script: ASSETS[script === 'login' ? 'login.js' : 'hq.js'].path,
    body,
  })
  return new Response(page, { status, headers: { ...pageHeaders(SCREEN_CSP), 'cache-control': 'no-store' } })
}

const VIEWS = { '/hq': 'profiles', '/hq/live': 'live', '/hq/reports': 'reports' } as const

export function hqPages(hq: HqService) {
  const app = new Elysia({ name: 'lobby.hq.pages' })
    .use(assetRoutes())
    .get('/', () => new Response(null, { status: 303, headers: { location: '/hq' } }), { detail: { hide: true } })
    .get('/hq/login', ({ query }) => {
      const lang = langOf(query)
      const t = TEXT[lang]
      return html(lang, t.signInTitle, 'login', `<main>
<a class="lang" href="${lang === 'ar' ? '/hq/login' : '/hq/login?lang=ar'}" lang="${lang === 'ar' ? 'en' : 'ar'}">${escapeHtml(t.other)}</a>
<h1>${escapeHtml(t.signInTitle)}</h1>
<form method="post" data-api="/api/hq/v1/sessions"${messages(lang)}>
<label for="username">${escapeHtml(t.username)}</label>
<input id="username" name="username" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="64">
<label for="password">${escapeHtml(t.password)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">
<button type="submit">${escapeHtml(t.signIn)}</button>
</form>
<p id="status" role="alert" aria-live="assertive"></p>
<noscript><p>${escapeHtml(t.needsScript)}</p></noscript>
</main>`)
    }, { detail: { hide: true } })
    .get('/hq/setup', ({ query }) => {
      const lang = langOf(query)
      const t = TEXT[lang]
      const code = query.code ?? ''
      return html(lang, t.setupTitle, 'login', `<main>
<a class="lang" href="/hq/setup?code=${encodeURIComponent(code)}${lang === 'ar' ? '' : '&amp;lang=ar'}" lang="${lang === 'ar' ? 'en' : 'ar'}">${escapeHtml(t.other)}</a>
<h1>${escapeHtml(t.setupTitle)}</h1>
<form method="post" data-api="/api/hq/v1/setup"${messages(lang)}>
<label for="password">${escapeHtml(t.newPassword)}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="256">
<label for="confirm">${escapeHtml(t.confirm)}</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="10" maxlength="256">
<button type="submit">${escapeHtml(t.save)}</button>
</form>
<p id="status" role="alert" aria-live="assertive"></p>
<p id="next" hidden><a href="${lang === 'ar' ? '/hq/login?lang=ar' : '/hq/login'}">${escapeHtml(t.toSignIn)}</a></p>
<noscript><p>${escapeHtml(t.needsScript)}</p></noscript>
</main>`)
    }, { detail: { hide: true } })
  for (const [path, view] of Object.entries(VIEWS)) {
    app.get(path, async ({ query, request }) => {
      const lang = langOf(query)
      const t = TEXT[lang]
      const user = await hq.authenticate(cookieValue(request, HQ_SESSION_COOKIE, HQ_SESSION_PATTERN))
      if (user === null) return new Response(null, { status: 303, headers: { location: lang === 'ar' ? '/hq/login?lang=ar' : '/hq/login' } })
      const link = (href: string, key: 'profiles' | 'live' | 'reports') =>
        `<a href="${href}${lang === 'ar' ? '?lang=ar' : ''}"${VIEWS[href as keyof typeof VIEWS] === view ? ' aria-current="page"' : ''}>${escapeHtml(t[key])}</a>`
      const title = t[view]
      return html(lang, title, 'hq', `<header class="top">
<nav aria-label="Head office">${link('/hq', 'profiles')} ${link('/hq/live', 'live')} ${link('/hq/reports', 'reports')}</nav>
<span class="who">${escapeHtml(user.displayName)} (${escapeHtml(user.role)})</span>
<a class="lang" href="${path}${lang === 'ar' ? '' : '?lang=ar'}" lang="${lang === 'ar' ? 'en' : 'ar'}">${escapeHtml(t.other)}</a>
<button type="button" id="sign-out">${escapeHtml(t.signOut)}</button>
</header>
<main id="hq" data-view="${view}" data-lang="${lang}" data-role="${escapeHtml(user.role)}">
<h1>${escapeHtml(title)}</h1>
<p id="loading">${escapeHtml(t.loading)}</p>
<noscript><p>${escapeHtml(t.needsScript)}</p></noscript>
</main>`)
    }, { detail: { hide: true } })
  }
  return app
}
