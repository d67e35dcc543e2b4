import { ASSETS } from '../screens/page'
import { escapeHtml, pageHeaders, pageShell, SCREEN_CSP } from '../screens/page'
import type { UserRole } from './service'

/**
 * The sign-in and setup pages (contract §16): small server-rendered HTML on the shared page
 * frame, English or Arabic (`?lang=ar`, right to left), every control labelled, errors in words.
 * The one script (src/client/login/main.ts) posts the form with fetch; it and the
 * stylesheet are the asset registry's `login.js` and `login.css` (no CDN, no inline script: the
 * pages keep the screens' CSP, whose `form-action 'none'` also stops a form from ever being
 * sent without it, so a password never lands in a URL). The words are here, in the page's
 * language; the script reads its messages from the form's `data-msg…`.
 */

type Lang = 'en' | 'ar'

const TEXT = {
  en: {
    signInTitle: 'Sign in',
    setupTitle: 'Set your password',
    username: 'Username',
    password: 'Password',
    newPassword: 'New password (at least 10 characters)',
    confirm: 'New password again',
    pin: 'Desk PIN (6 digits)',
    signIn: 'Sign in',
    save: 'Save',
    working: 'Please wait…',
    other: 'العربية',
    needsScript: 'This page needs JavaScript.',
    setupFor: 'Account',
    done: 'Your password is set. You can sign in now.',
    toSignIn: 'Go to sign-in',
    SIGN_IN_FAILED: 'Wrong username or password.',
    SIGN_IN_LOCKED: 'Too many failed sign-ins for this username. Try again in {minutes} minutes.',
    RATE_LIMITED: 'Too many attempts from this computer. Try again in a minute.',
    SETUP_CODE_INVALID: 'This setup link is wrong, expired or already used. Ask an administrator for a new one.',
    PASSWORD_TOO_SHORT: 'The password must have at least 10 characters.',
    PASSWORD_TOO_COMMON: 'This password is among the most common ones. Choose another.',
    PASSWORD_REPEATED: 'The password is one character repeated. Choose another.',
    PASSWORD_SEQUENCE: 'The password is a run of letters, digits or keys in a row (like abcdefghij or 1234567890). Choose another.',
    PASSWORD_CONTAINS_USERNAME: 'The password must not contain your username. Choose another.',
    PASSWORD_CONTAINS_WORKSPACE: 'The password must not contain the name of your organisation (its workspace in Lobby). Choose another.',
    PIN_INVALID: 'The PIN must be exactly 6 digits.',
    MISMATCH: 'The two passwords are not the same.',
    OTHER: 'Something went wrong. Try again.',
  },
  ar: {
    signInTitle: 'تسجيل الدخول',
    setupTitle: 'تعيين كلمة المرور',
    username: 'اسم المستخدم',
    password: 'كلمة المرور',
    newPassword: 'كلمة المرور الجديدة (10 أحرف على الأقل)',
    confirm: 'أعد كتابة كلمة المرور الجديدة',
    pin: 'رمز المكتب (6 أرقام)',
    signIn: 'دخول',
    save: 'حفظ',
    working: 'يرجى الانتظار…',
    other: 'English',
    needsScript: 'تحتاج هذه الصفحة إلى JavaScript.',
    setupFor: 'الحساب',
    done: 'تم تعيين كلمة المرور. يمكنك تسجيل الدخول الآن.',
    toSignIn: 'الذهاب إلى تسجيل الدخول',
    SIGN_IN_FAILED: 'اسم المستخدم أو كلمة المرور غير صحيحة.',
    SIGN_IN_LOCKED: 'محاولات فاشلة كثيرة لهذا الاسم. حاول مرة أخرى بعد {minutes} دقيقة.',
    RATE_LIMITED: 'محاولات كثيرة من هذا الجهاز. حاول مرة أخرى بعد دقيقة.',
    SETUP_CODE_INVALID: 'رابط الإعداد هذا غير صحيح أو منتهي الصلاحية أو مستخدم. اطلب رابطًا جديدًا من المسؤول.',
    PASSWORD_TOO_SHORT: 'يجب أن تتكون كلمة المرور من 10 أحرف على الأقل.',
    PASSWORD_TOO_COMMON: 'كلمة المرور هذه من أكثر الكلمات شيوعًا. اختر غيرها.',
    PASSWORD_REPEATED: 'كلمة المرور حرف واحد مكرر. اختر غيرها.',
    PASSWORD_SEQUENCE: 'كلمة المرور سلسلة متتالية من الحروف أو الأرقام أو مفاتيح لوحة المفاتيح (مثل abcdefghij أو 1234567890). اختر غيرها.',
    PASSWORD_CONTAINS_USERNAME: 'يجب ألا تحتوي كلمة المرور على اسم المستخدم الخاص بك. اختر غيرها.',
    PASSWORD_CONTAINS_WORKSPACE: 'يجب ألا تحتوي كلمة المرور على اسم مؤسستك (مساحة عملها في Lobby). اختر غيرها.',
    PIN_INVALID: 'يجب أن يتكون الرمز من 6 أرقام بالضبط.',
    MISMATCH: 'كلمتا المرور غير متطابقتين.',
    OTHER: 'حدث خطأ. حاول مرة أخرى.',
  },
} as const

const MESSAGE_KEYS = ['SIGN_IN_FAILED', 'SIGN_IN_LOCKED', 'RATE_LIMITED', 'SETUP_CODE_INVALID', 'PASSWORD_TOO_SHORT', 'PASSWORD_TOO_COMMON',
  'PASSWORD_REPEATED', 'PASSWORD_SEQUENCE', 'PASSWORD_CONTAINS_USERNAME', 'PASSWORD_CONTAINS_WORKSPACE', 'PIN_INVALID', 'MISMATCH', 'OTHER', 'working', 'done'] as const

function langOf(query: Record<string, string | undefined>): Lang {
  return (query.lang ?? '').toLowerCase().startsWith('ar') ? 'ar' : 'en'
}

function messages(lang: Lang): string {
  return MESSAGE_KEYS.map((key) => ` data-msg${key.toLowerCase().replace(/_/g, '')}="${escapeHtml(TEXT[lang][key])}"`).join('')
}

function page(lang: Lang, title: string, otherHref: string, main: string): Response {
  const t = TEXT[lang]
  const html = pageShell({
    lang,
    dir: lang === 'ar' ? 'rtl' : 'ltr',
    title,
    stylesheet: ASSETS['login.css'].path,
    script: ASSETS['login.js'].path,
    body: `<main>
<a class="lang" href="${escapeHtml(otherHref)}" lang="${lang === 'ar' ? 'en' : 'ar'}">${escapeHtml(t.other)}</a>
<h1>${escapeHtml(title)}</h1>
${main}
<noscript><p>${escapeHtml(t.needsScript)}</p></noscript>
</main>`,
  })
  return new Response(html, { status: 200, headers: pageHeaders(SCREEN_CSP) })
}

/** `GET /login`: username and password. */
export function loginPage(query: Record<string, string | undefined>): Response {
  const lang = langOf(query)
  const t = TEXT[lang]
  return page(lang, t.signInTitle, lang === 'ar' ? '/login' : '/login?lang=ar', `<form method="post" data-api="/api/auth/v1/sessions"${messages(lang)}>
<label for="username">${escapeHtml(t.username)}</label>
<input id="username" name="username" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="64">
<label for="password">${escapeHtml(t.password)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">
<button type="submit">${escapeHtml(t.signIn)}</button>
</form>
<p id="status" role="alert" aria-live="assertive"></p>`)
}

/**
 * `GET /login/setup?code=…`: a new password (and a clerk's PIN). `account` is who the code opens,
 * or null for a wrong, expired or used code: the page says so in words, with no form. The code
 * stays in the URL (the script reads it there); the page repeats it only in its language link.
 */
export function setupPage(query: Record<string, string | undefined>, account: { username: string; role: UserRole } | null): Response {
  const lang = langOf(query)
  const t = TEXT[lang]
  const code = query.code ?? ''
  const other = `/login/setup?code=${encodeURIComponent(code)}${lang === 'ar' ? '' : '&lang=ar'}`
  if (account === null) {
    return page(lang, t.setupTitle, other, `<p id="status" role="alert">${escapeHtml(t.SETUP_CODE_INVALID)}</p>`)
  }
  const pin = account.role === 'clerk'
    ? `<label for="pin">${escapeHtml(t.pin)}</label>
<input id="pin" name="pin" inputmode="numeric" pattern="[0-9]{6}" autocomplete="off" required minlength="6" maxlength="6">`
    : ''
  return page(lang, t.setupTitle, other, `<p class="who">${escapeHtml(t.setupFor)}: <strong>${escapeHtml(account.username)}</strong></p>
<form method="post" data-api="/api/auth/v1/setup"${messages(lang)}>
<input type="text" name="username" autocomplete="username" value="${escapeHtml(account.username)}" hidden readonly>
<label for="password">${escapeHtml(t.newPassword)}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="256">
<label for="confirm">${escapeHtml(t.confirm)}</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="10" maxlength="256">
${pin}
<button type="submit">${escapeHtml(t.save)}</button>
</form>
<p id="status" role="alert" aria-live="assertive"></p>
<p id="next" hidden><a href="${lang === 'ar' ? '/login?lang=ar' : '/login'}">${escapeHtml(t.toSignIn)}</a></p>`)
}
