import { Elysia } from 'elysia'
import { assertSameOrigin, serverOrigin } from '../access'
import type { AppointmentDeps } from './deps'
import { admitRate, clientAddressOf } from '../platform/admission'
import type { PeerSource } from '../platform/client-address'
import type { RateBucket } from '../platform/admission'
import { ApiError } from '../platform/errors'
import { admitAnonymousForm } from '../platform/anonymous-forms'
import { qrSvg } from '../platform/qr'
import { acceptedLocale, localeWithin, resolveName, storedName } from '../platform/names'
import { localDate } from '../platform/time'
import { inReadTransaction } from '../platform/transactions'
import { sha256Hex } from '../platform/idempotency'
import { escapeHtml } from '../screens/page'
import { withPageDigits } from '../screens'
import { trackingPath } from '../tickets'
import { AppointmentCodes } from './errors'
import { BOOKING_CODE_PATTERN, EMAIL_PATTERN, NAME_MAX, PHONE_PATTERN } from './model'
import { calendarFile } from './ics'
import { BookingCodes, isWrongCodeRefusal } from './codes'
import { bookingPath, type AppointmentRow, type AppointmentService, type BookingTarget } from './service'

/*
 * Contract §21's customer pages, server-rendered with plain forms (no script: they work on any
 * phone, from the keyboard and with a screen reader): `/book/{locationId}` (service → day →
 * free slots → name and optional phone or e-mail → confirmation) and `/b/{code}` (the booking:
 * its QR code, the calendar file, cancel, move, and check-in inside its window). Every form
 * post must carry this server's Origin; refusals are sentences on the page.
 */

/** Contract §21: 3 bookings per address per hour (the limiter's bounded per-address store, contract §23). */
export const BOOKINGS_PER_ADDRESS_PER_HOUR = 3
const BOOK_BUCKET = { name: 'book:address', perAddress: true, windowMs: 3_600_000 } as const satisfies RateBucket
const CODE = new RegExp(BOOKING_CODE_PATTERN)
const PHONE = new RegExp(PHONE_PATTERN)
const EMAIL = new RegExp(EMAIL_PATTERN)
/** Reads of the customer's pages per address a minute (the phone page's bound, contract §23). */
export const PAGE_READS_PER_ADDRESS = 600
const PAGE_BUCKET = { name: 'book:read', perAddress: true } as const satisfies RateBucket
/**
 * Changes on `/b/{code}` (cancel, move, check-in) per address a minute (contract §27: the
 * anonymous forms' per-address window, before the code and the body): a customer makes one or
 * two; a branch's guest Wi-Fi puts many behind one address, as for the phone page's changes.
 */
export const BOOKING_CHANGES_PER_ADDRESS = 30
const CHANGE_BUCKET = { name: 'book:change', perAddress: true } as const satisfies RateBucket

type Lang = 'en' | 'ar'

const STRINGS = {
  en: {
    title: 'Book an appointment', booking: 'Your appointment', service: 'Service', day: 'Day', showTimes: 'Show free times', freeTimes: 'Free times',
    noTimes: 'No free times on this day. Please choose another day.', dayNotOffered: 'This day cannot be booked: the branch is closed or it is outside the booking period. Please choose one of the days offered.',
    noDays: 'This service has no day open for appointments at the moment.', name: 'Your name', phone: 'Phone (optional)', email: 'E-mail (optional)', book: 'Book',
    consent: 'I agree to get messages about this appointment at this phone or e-mail (confirmation, reminders, changes). They are deleted 7 days after it.',
    consentNeeded: 'Tick this box to get messages, or leave the phone and the e-mail empty.',
    consentFix: 'Please check the form: tick the box to agree to messages, or leave the phone and the e-mail empty.',
    booked: 'You are booked.', code: 'Booking code', when: 'When', where: 'Where', status: 'Status', calendar: 'Add to calendar (.ics)',
    cancel: 'Cancel this booking', cancelConfirm: 'Yes, cancel my appointment', move: 'Move to another time', moveTo: 'Move', checkIn: 'Check in now',
    checkInHint: 'You can check in here from {from} to {to}.', keep: 'Keep this page: it is your booking. The QR code opens it on another phone.',
    statuses: { BOOKED: 'Booked', CANCELLED: 'Cancelled', CHECKED_IN: 'Checked in', MISSED: 'Missed' } as Record<string, string>,
    ticket: 'Your ticket number is {number}.', followTicket: 'Follow your place in the queue', notFound: 'There is no booking with this code.',
    noBooking: 'Appointments cannot be booked here.', tooManyReads: 'Too many requests from this connection. Please wait a minute and try again.',
    tooManyCodes: 'Too many wrong booking codes have been tried. Please wait a minute and try again.', language: 'العربية', languageLabel: 'Language', free: '{n} free', qr: 'QR code of this booking page',
    refusals: {
      SLOT_FULL: 'Sorry, that time has just been taken. Please choose another time.',
      SLOT_UNAVAILABLE: 'That time cannot be booked. Please choose one of the free times.',
      RATE_LIMITED: 'Too many bookings from this connection. Please try again in an hour.',
      ORIGIN_FORBIDDEN: 'This form must be sent from this page. Please reload it and try again.',
      VALIDATION_FAILED: 'Please check the form: a name is required, and the phone or e-mail must be valid.',
      APPOINTMENT_NOT_BOOKED: 'This booking can no longer be changed.',
      CHECK_IN_TOO_EARLY: 'It is too early to check in. You can check in from {when}.',
      CHECK_IN_TOO_LATE: 'The check-in time has passed. Please take a normal ticket at the kiosk.',
      QUEUE_UNIT_EDGE_MANAGED: 'Check-in is not possible from here right now. Please ask at the desk.',
      QUEUE_UNIT_INACTIVE: 'This branch is not taking appointments right now.',
      PAYLOAD_TOO_LARGE: 'The form is too long. Please shorten what you typed and try again.',
      SERVER_BUSY: 'The server is busy. Please try again in a moment.',
      other: 'Something went wrong. Please try again.',
    } as Record<string, string>,
  },
  ar: {
    title: 'حجز موعد', booking: 'موعدك', service: 'الخدمة', day: 'اليوم', showTimes: 'عرض الأوقات المتاحة', freeTimes: 'الأوقات المتاحة',
    noTimes: 'لا توجد أوقات متاحة في هذا اليوم. يرجى اختيار يوم آخر.', dayNotOffered: 'لا يمكن الحجز في هذا اليوم: الفرع مغلق أو أنه خارج فترة الحجز. يرجى اختيار أحد الأيام المعروضة.',
    noDays: 'لا يوجد حاليًا يوم مفتوح للمواعيد في هذه الخدمة.', name: 'اسمك', phone: 'الهاتف (اختياري)', email: 'البريد الإلكتروني (اختياري)', book: 'احجز',
    consent: 'أوافق على تلقي رسائل عن هذا الموعد على هذا الهاتف أو البريد (التأكيد والتذكير والتغييرات). تُحذف بعد 7 أيام من الموعد.',
    consentNeeded: 'ضع علامة في هذا المربع لتلقي الرسائل، أو اترك الهاتف والبريد فارغين.',
    consentFix: 'يرجى مراجعة النموذج: ضع علامة في المربع للموافقة على الرسائل، أو اترك الهاتف والبريد فارغين.',
    booked: 'تم حجز موعدك.', code: 'رمز الحجز', when: 'الموعد', where: 'المكان', status: 'الحالة', calendar: 'أضف إلى التقويم (.ics)',
    cancel: 'إلغاء هذا الحجز', cancelConfirm: 'نعم، ألغِ موعدي', move: 'تغيير الموعد إلى وقت آخر', moveTo: 'نقل', checkIn: 'سجّل حضورك الآن',
    checkInHint: 'يمكنك تسجيل الحضور هنا من {from} إلى {to}.', keep: 'احتفظ بهذه الصفحة: إنها حجزك. رمز QR يفتحها على هاتف آخر.',
    statuses: { BOOKED: 'محجوز', CANCELLED: 'ملغى', CHECKED_IN: 'تم تسجيل الحضور', MISSED: 'فائت' } as Record<string, string>,
    ticket: 'رقم تذكرتك {number}.', followTicket: 'تابع دورك في الطابور', notFound: 'لا يوجد حجز بهذا الرمز.',
    noBooking: 'لا يمكن حجز المواعيد هنا.', tooManyReads: 'طلبات كثيرة من هذا الاتصال. يرجى الانتظار دقيقة والمحاولة مجددًا.',
    tooManyCodes: 'تمت تجربة رموز حجز خاطئة كثيرة. يرجى الانتظار دقيقة والمحاولة مجددًا.', language: 'English', languageLabel: 'اللغة', free: '{n} متاح', qr: 'رمز QR لصفحة هذا الحجز',
    refusals: {
      SLOT_FULL: 'عذرًا، تم حجز هذا الوقت للتو. يرجى اختيار وقت آخر.',
      SLOT_UNAVAILABLE: 'لا يمكن حجز هذا الوقت. يرجى اختيار أحد الأوقات المتاحة.',
      RATE_LIMITED: 'حجوزات كثيرة من هذا الاتصال. يرجى المحاولة بعد ساعة.',
      ORIGIN_FORBIDDEN: 'يجب إرسال هذا النموذج من هذه الصفحة. يرجى إعادة تحميلها والمحاولة مجددًا.',
      VALIDATION_FAILED: 'يرجى مراجعة النموذج: الاسم مطلوب، ويجب أن يكون الهاتف أو البريد صحيحًا.',
      APPOINTMENT_NOT_BOOKED: 'لم يعد بالإمكان تغيير هذا الحجز.',
      CHECK_IN_TOO_EARLY: 'الوقت مبكر لتسجيل الحضور. يمكنك تسجيل الحضور ابتداءً من {when}.',
      CHECK_IN_TOO_LATE: 'انتهى وقت تسجيل الحضور. يرجى أخذ تذكرة عادية من الكشك.',
      QUEUE_UNIT_EDGE_MANAGED: 'تسجيل الحضور غير ممكن من هنا الآن. يرجى السؤال في المكتب.',
      QUEUE_UNIT_INACTIVE: 'هذا الفرع لا يستقبل المواعيد الآن.',
      PAYLOAD_TOO_LARGE: 'النموذج طويل جدًا. يرجى اختصار ما كتبته والمحاولة مجددًا.',
      SERVER_BUSY: 'الخادم مشغول. يرجى المحاولة بعد لحظة.',
      other: 'حدث خطأ ما. يرجى المحاولة مجددًا.',
    } as Record<string, string>,
  },
} as const

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Tahoma,sans-serif;color:#111;background:#f6f7f9}
main{max-width:34rem;margin:0 auto;padding:1rem}h1{font-size:1.5rem;margin:.5rem 0 1rem}h2{font-size:1.15rem;margin:1.25rem 0 .5rem}
.card{background:#fff;border:1px solid #d6d9de;border-radius:.5rem;padding:1rem;margin:0 0 1rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}input,select{font:inherit;width:100%;padding:.6rem;border:1px solid #8a909a;border-radius:.35rem;background:#fff}
button,.button{display:inline-block;font:inherit;font-weight:600;padding:.7rem 1rem;margin:.75rem 0 0;border:0;border-radius:.35rem;background:#0b57d0;color:#fff;text-decoration:none;min-height:44px;cursor:pointer}
button.secondary,.button.secondary{background:#e8eaed;color:#111}button.danger{background:#b3261e}
:focus-visible{outline:3px solid #f9ab00;outline-offset:2px}
fieldset{border:0;padding:0;margin:0}legend{font-weight:600;margin:.5rem 0}
.choice{display:flex;gap:.6rem;align-items:flex-start;font-weight:400;margin:.4rem 0}.choice input{flex:none;width:1.25rem;height:1.25rem;margin:.15rem 0 0;padding:0}
.field-error{color:#b3261e;font-weight:700;margin:.25rem 0 0}
.slots{display:grid;grid-template-columns:repeat(auto-fill,minmax(6.5rem,1fr));gap:.5rem}
.slot{position:relative}.slot input{position:absolute;opacity:0;width:1px;height:1px}
.slot span{display:block;text-align:center;padding:.6rem .25rem;border:1px solid #8a909a;border-radius:.35rem;background:#fff}
.slot small{display:block;color:#444;font-size:.8rem}
.slot input:checked+span{background:#0b57d0;color:#fff;border-color:#0b57d0}.slot input:checked+span small{color:#fff}
.slot input:focus-visible+span{outline:3px solid #f9ab00;outline-offset:2px}
.alert{border-inline-start:4px solid #b3261e;background:#fce8e6;padding:.75rem;margin:0 0 1rem}
.ok{border-inline-start:4px solid #188038;background:#e6f4ea;padding:.75rem;margin:0 0 1rem}
.code{font:700 2rem/1.2 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.15em;direction:ltr;unicode-bidi:isolate}[dir=rtl] .code{text-align:right}
.qr{width:12rem;max-width:100%;display:block;margin:.5rem 0}.qr svg{width:100%;height:auto}
dl{margin:0}dt{font-weight:600}dd{margin:0 0 .5rem}nav{display:flex;justify-content:flex-end}nav a{color:#0b57d0}
`
const STYLE_HASH = Buffer.from(new Bun.CryptoHasher('sha256').update(STYLE).digest()).toString('base64')

/** No script, one hashed inline style, forms to this origin only, never framed. */
const CSP = ["default-src 'none'", `style-src 'sha256-${STYLE_HASH}'`, "img-src 'self'", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'"].join('; ')

function langOf(url: URL): Lang {
  return (url.searchParams.get('lang') ?? '').toLowerCase().startsWith('ar') ? 'ar' : 'en'
}

/**
 * The locale a booking page writes its days and times in: the one its URL names (`?lang=en-US`),
 * else the reader's own of the page's language (`Accept-Language`: en-US reads 2:30 PM, en-GB
 * 14:30), else 24-hour English as in Britain; Arabic always with Latin digits, as the booking
 * code and the form's numbers are written, and in 24-hour time unless the reader's Arabic says
 * otherwise.
 */
function formatLocaleOf(request: Request, url: URL, lang: Lang): string {
  const asked = localeWithin(url.searchParams.get('lang'), lang) ?? acceptedLocale(request.headers.get('accept-language'), lang)
  if (lang === 'en') return asked ?? 'en-GB'
  return new Intl.Locale(asked ?? 'ar', asked === null ? { numberingSystem: 'latn', hourCycle: 'h23' } : { numberingSystem: 'latn' }).toString()
}

function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''))
}

function page(lang: Lang, title: string, body: string, status = 200, switchHref?: string): Response {
  const t = STRINGS[lang]
  const other = lang === 'en' ? 'ar' : 'en'
  const nav = switchHref === undefined ? '' : `<nav aria-label="${escapeHtml(t.languageLabel)}"><a href="${escapeHtml(switchHref)}" lang="${other}" hreflang="${other}">${escapeHtml(t.language)}</a></nav>`
  const html = `<!doctype html>
<html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<meta name="robots" content="noindex">
<title>Lobby · ${escapeHtml(title)}</title>
<link rel="icon" href="/favicon.ico">
<style>${STYLE}</style>
</head>
<body>
<main>
${nav}
${body}
</main>
</body>
</html>
`
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': CSP,
      // Days and times follow the reader's Accept-Language (formatLocaleOf).
      vary: 'Accept-Language',
      // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` with a form
      // post, and the Origin check would refuse every booking; other sites still get no referrer.
      'referrer-policy': 'same-origin', 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'cross-origin-opener-policy': 'same-origin',
    },
  })
}

function withLang(path: string, lang: Lang, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...extra, ...(lang === 'en' ? {} : { lang }) })
  const q = params.toString()
  return q === '' ? path : `${path}?${q}`
}

function refusal(lang: Lang, error: unknown): { text: string; status: number; headers: Record<string, string> } {
  if (error instanceof ApiError) {
    const t = STRINGS[lang].refusals
    return { text: t[error.code] ?? t.other!, status: error.status, headers: error.headers ?? {} }
  }
  throw error
}

/** Retry-After of a 429 or 503, and `Connection: close` of a post refused before its body was read, onto a page. */
function copyRefusalHeaders(refused: unknown, response: Response): void {
  const headers = (refused as { headers?: Record<string, string> } | null | undefined)?.headers ?? {}
  for (const [k, v] of Object.entries(headers)) if (k === 'retry-after' || k === 'connection') response.headers.set(k, v)
}

/** The location's unit language and names for a page. */
function nameIn(lang: Lang, row: { name: string; names: string | null }, defaultLanguage: string): string {
  return resolveName(storedName(row.name, row.names), lang, defaultLanguage)
}

const formOf = (raw: Uint8Array) => new URLSearchParams(new TextDecoder().decode(raw))

export function bookingPages(deps: AppointmentDeps, service: AppointmentService) {
  const formatters = new Map<string, Intl.DateTimeFormat>()
  /** An instant in the location's zone `tz`, in `locale` (formatLocaleOf). */
  function when(ms: number, tz: string, locale: string, style: 'full' | 'time' | 'day' | 'dayTime' = 'full'): string {
    const key = `${locale}|${tz}|${style}`
    let f = formatters.get(key)
    if (f === undefined) {
      const options: Intl.DateTimeFormatOptions = style === 'time'
        ? { timeZone: tz, hour: '2-digit', minute: '2-digit' }
        : style === 'day'
          ? { timeZone: tz, weekday: 'long', day: 'numeric', month: 'long' }
          : style === 'dayTime'
            ? { timeZone: tz, weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' }
            : { timeZone: tz, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' }
      f = new Intl.DateTimeFormat(withPageDigits(locale), options)
      // Bounded: the locale comes from a request header.
      if (formatters.size < 200) formatters.set(key, f)
    }
    return f.format(ms)
  }

  /** Contract §28: an instant a customer may do something from, in the location's clock: the time today ("09:45"), else the day and time. */
  function fromWhen(ms: number, tz: string, locale: string, now: number): string {
    return when(ms, tz, locale, localDate(ms, tz) === localDate(now, tz) ? 'time' : 'dayTime')
  }

  /** The slots of a day as radio buttons (free ones only); a day not offered (closed, contract §28) says so. */
  function slotChoices(target: BookingTarget, date: string, days: readonly string[], lang: Lang, locale: string, now: number): string {
    const t = STRINGS[lang]
    if (!days.includes(date)) return `<p role="status">${escapeHtml(days.length === 0 ? t.noDays : t.dayNotOffered)}</p>`
    const free = service.slots(target, date, now).filter((s) => s.free > 0)
    if (free.length === 0) return `<p role="status">${escapeHtml(t.noTimes)}</p>`
    return `<fieldset><legend>${escapeHtml(t.freeTimes)}</legend><div class="slots">${free.map((s, i) => `<label class="slot"><input type="radio" name="startAt" value="${s.startAt}" required${i === 0 ? ' autofocus' : ''}><span>${escapeHtml(when(Date.parse(s.startAt), target.location.timezone, locale, 'time'))}<small>${escapeHtml(fill(t.free, { n: s.free }))}</small></span></label>`).join('')}</div></fieldset>`
  }

  /** Contract §28: the days offered (`AppointmentService.bookableDays`: no closed day), as the day select's options. */
  function dayOptions(days: readonly string[], selected: string, locale: string): string {
    return days.map((date) => {
      // A calendar date's name does not depend on a zone: noon UTC of it, named in UTC.
      const label = when(Date.parse(`${date}T12:00:00Z`), 'UTC', locale, 'day')
      return `<option value="${date}"${date === selected ? ' selected' : ''}>${escapeHtml(label)}</option>`
    }).join('')
  }

  function bookPage(locationId: string, url: URL, locale: string, now: number, notice: { text: string; status: number; headers: Record<string, string>; field?: 'consent' } | null = null, form: URLSearchParams | null = null): Response {
    const lang = langOf(url)
    const t = STRINGS[lang]
    // Contract §25: a phone or e-mail given without the consent box ticked; said beside the box.
    const consentMissing = notice?.field === 'consent'
    return inReadTransaction(deps.db, () => {
      const location = service.location(locationId)
      const unit = location === null ? null : service.unit(location.queueUnitId)
      const offered = location === null || location.active !== 1 || unit === null || unit.active !== 1 ? [] : service.bookableServices(locationId)
      const switchHref = withLang(`/book/${locationId}`, lang === 'en' ? 'ar' : 'en', Object.fromEntries([...url.searchParams].filter(([k]) => k !== 'lang')))
      if (offered.length === 0) return page(lang, t.title, `<h1>${escapeHtml(t.title)}</h1><p class="alert" role="alert">${escapeHtml(t.noBooking)}</p>`, 404)
      const chosenId = form?.get('serviceId') ?? url.searchParams.get('service') ?? (offered.length === 1 ? offered[0]!.service.id : null)
      const chosen = offered.find((s) => s.service.id === chosenId) ?? null
      const target: BookingTarget | null = chosen === null ? null : { unit: unit!, location: location!, service: chosen.service, settings: chosen.settings }
      const shown = chosen ?? offered[0]!
      const days = service.bookableDays({ unit: unit!, location: location!, service: shown.service, settings: shown.settings }, now)
      // No day asked: the first day offered (today, unless it is closed or its slots are past).
      const date = form?.get('date') ?? url.searchParams.get('date') ?? days[0] ?? localDate(now, location!.timezone)
      const place = `${nameIn(lang, unit!, unit!.defaultLanguage)} · ${nameIn(lang, location!, unit!.defaultLanguage)}`
      let body = `<h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(place)}</p>`
      if (notice !== null) body += `<p class="alert" role="alert">${escapeHtml(notice.text)}</p>`
      // The services are radio choices, not a select: a closed select cuts a long name on a phone; a label wraps.
      body += `<form class="card" method="get" action="/book/${escapeHtml(locationId)}">${lang === 'ar' ? '<input type="hidden" name="lang" value="ar">' : ''}
<fieldset><legend>${escapeHtml(t.service)}</legend>${offered.map((s, i) => `<label class="choice"><input type="radio" name="service" value="${escapeHtml(s.service.id)}"${s.service.id === chosen?.service.id || (chosen === null && i === 0) ? ' checked' : ''}><span>${escapeHtml(nameIn(lang, s.service, unit!.defaultLanguage))}</span></label>`).join('')}</fieldset>
${days.length === 0 ? `<p role="status">${escapeHtml(t.noDays)}</p>` : `<label for="date">${escapeHtml(t.day)}</label><select id="date" name="date">${dayOptions(days, date, locale)}</select>`}
<button type="submit" class="secondary">${escapeHtml(t.showTimes)}</button></form>`
      if (target !== null && (url.searchParams.has('date') || form !== null || offered.length === 1)) {
        body += `<form class="card" method="post" action="${escapeHtml(withLang(`/book/${locationId}`, lang))}">
<input type="hidden" name="serviceId" value="${escapeHtml(target.service.id)}"><input type="hidden" name="date" value="${escapeHtml(date)}">
${slotChoices(target, date, days, lang, locale, now)}
<label for="name">${escapeHtml(t.name)}</label><input id="name" name="name" required maxlength="${NAME_MAX}" autocomplete="name" value="${escapeHtml(form?.get('name') ?? '')}">
<label for="phone">${escapeHtml(t.phone)}</label><input id="phone" name="phone" type="tel" autocomplete="tel" dir="ltr" maxlength="30" value="${escapeHtml(form?.get('phone') ?? '')}">
<label for="email">${escapeHtml(t.email)}</label><input id="email" name="email" type="email" autocomplete="email" dir="ltr" maxlength="254" value="${escapeHtml(form?.get('email') ?? '')}">
<label class="choice"><input type="checkbox" id="consent" name="consent" value="on"${form?.get('consent') === 'on' ? ' checked' : ''}${consentMissing ? ' aria-invalid="true" aria-describedby="consent-error"' : ''}><span>${escapeHtml(t.consent)}</span></label>
${consentMissing ? `<p class="field-error" id="consent-error">${escapeHtml(t.consentNeeded)}</p>` : ''}
<button type="submit">${escapeHtml(t.book)}</button></form>`
      }
      const response = page(lang, t.title, body, notice?.status ?? 200, switchHref)
      copyRefusalHeaders(notice, response)
      return response
    })
  }

  function bookingView(row: AppointmentRow, request: Request, url: URL, now: number, notice: { text: string; kind: 'ok' | 'alert'; status?: number } | null = null): Response {
    const lang = langOf(url)
    const locale = formatLocaleOf(request, url, lang)
    const t = STRINGS[lang]
    const unit = service.unit(row.queueUnitId)!
    const location = service.location(row.locationId)!
    const svc = service.bookableServices(row.locationId).find((s) => s.service.id === row.serviceId)
    const serviceName = svc === undefined ? row.serviceId : nameIn(lang, svc.service, unit.defaultLanguage)
    const tz = location.timezone
    const path = bookingPath(row.code)
    const switchHref = withLang(path, lang === 'en' ? 'ar' : 'en')
    let body = `<h1>${escapeHtml(t.booking)}</h1>`
    if (notice !== null) body += `<p class="${notice.kind}" role="${notice.kind === 'ok' ? 'status' : 'alert'}">${escapeHtml(notice.text)}</p>`
    body += `<div class="card"><dl>
<dt>${escapeHtml(t.code)}</dt><dd class="code">${escapeHtml(row.code)}</dd>
<dt>${escapeHtml(t.service)}</dt><dd>${escapeHtml(serviceName)}</dd>
<dt>${escapeHtml(t.when)}</dt><dd>${escapeHtml(when(row.startAt, tz, locale))}</dd>
<dt>${escapeHtml(t.where)}</dt><dd>${escapeHtml(`${nameIn(lang, unit, unit.defaultLanguage)} · ${nameIn(lang, location, unit.defaultLanguage)}`)}</dd>
<dt>${escapeHtml(t.status)}</dt><dd>${escapeHtml(t.statuses[row.status] ?? row.status)}</dd>
${row.name === null ? '' : `<dt>${escapeHtml(t.name)}</dt><dd>${escapeHtml(row.name)}</dd>`}
</dl></div>`
    if (row.status === 'CHECKED_IN') {
      const ticket = service.ticketOf(row)
      if (ticket !== null) {
        body += `<div class="card"><p class="ok" role="status">${escapeHtml(fill(t.ticket, { number: ticket.ticketNumber }))}</p>${ticket.trackingCode === null ? '' : `<a class="button" href="${escapeHtml(trackingPath(ticket.trackingCode))}">${escapeHtml(t.followTicket)}</a>`}</div>`
      }
    }
    if (row.status === 'BOOKED') {
      const { opensAt, closesAt } = service.checkInWindow(row)
      const action = (name: string) => escapeHtml(withLang(`${path}/${name}`, lang))
      body += `<div class="card"><p>${escapeHtml(t.keep)}</p><div class="qr">${qrSvg(serverOrigin(request, deps.publicOrigin) + path, { label: t.qr })}</div>
<a class="button secondary" href="${escapeHtml(`${path}/calendar.ics`)}" download="appointment-${escapeHtml(row.code)}.ics">${escapeHtml(t.calendar)}</a></div>`
      if (now >= opensAt && now <= closesAt) {
        body += `<form class="card" method="post" action="${action('check-in')}"><button type="submit">${escapeHtml(t.checkIn)}</button></form>`
      } else if (now < opensAt) {
        body += `<p>${escapeHtml(fill(t.checkInHint, { from: fromWhen(opensAt, tz, locale, now), to: when(closesAt, tz, locale, 'time') }))}</p>`
      }
      if (now < row.startAt && svc !== undefined) {
        const target: BookingTarget = { unit, location, service: svc.service, settings: svc.settings }
        const date = url.searchParams.get('date') ?? row.localDate
        const days = service.bookableDays(target, now)
        body += `<form class="card" method="get" action="${escapeHtml(path)}">${lang === 'ar' ? '<input type="hidden" name="lang" value="ar">' : ''}<h2>${escapeHtml(t.move)}</h2>
<label for="date">${escapeHtml(t.day)}</label><select id="date" name="date">${dayOptions(days, date, locale)}</select>
<button type="submit" class="secondary">${escapeHtml(t.showTimes)}</button></form>`
        if (url.searchParams.has('date')) {
          body += `<form class="card" method="post" action="${action('move')}">${slotChoices(target, date, days, lang, locale, now)}<button type="submit">${escapeHtml(t.moveTo)}</button></form>`
        }
      }
      body += `<form class="card" method="post" action="${action('cancel')}"><h2>${escapeHtml(t.cancel)}</h2><button type="submit" class="danger">${escapeHtml(t.cancelConfirm)}</button></form>`
    }
    return page(lang, t.booking, body, notice?.status ?? 200, switchHref)
  }

  function codeRow(code: string): AppointmentRow | null {
    return CODE.test(code) ? service.byCode(code) : null
  }
  /** Every `/b/{code}` route finds its booking here: wrong codes are limited (contract §27). */
  const codes = new BookingCodes(deps.limiter, codeRow)

  const missing = (url: URL) => page(langOf(url), STRINGS[langOf(url)].booking, `<h1>${escapeHtml(STRINGS[langOf(url)].booking)}</h1><p class="alert" role="alert">${escapeHtml(STRINGS[langOf(url)].notFound)}</p>`, 404)

  /**
   * A `/b/{code}` route refused before it found its booking, as a page in words: no such
   * booking (404), or too many wrong codes or changes (429), with Retry-After and Connection.
   */
  function unfound(url: URL, error: unknown): Response {
    const lang = langOf(url)
    const t = STRINGS[lang]
    let response: Response
    if (error instanceof ApiError && error.code === AppointmentCodes.APPOINTMENT_NOT_FOUND) response = missing(url)
    else {
      const { text, status } = refusal(lang, error)
      const words = isWrongCodeRefusal(error) ? t.tooManyCodes : status === 429 ? t.tooManyReads : text
      response = page(lang, t.booking, `<h1>${escapeHtml(t.booking)}</h1><p class="alert" role="alert">${escapeHtml(words)}</p>`, status)
    }
    copyRefusalHeaders(error, response)
    return response
  }

  /** A booking's page for a GET: found by `codes` (a wrong code counts), else refused in words. */
  function withBooking(request: Request, code: string, show: (row: AppointmentRow, url: URL, now: number) => Response): Response {
    const url = new URL(request.url)
    const now = deps.clock.now()
    let row: AppointmentRow
    try {
      row = codes.find(code, clientAddressOf(deps.clients, request, server), now)
    } catch (error) {
      return unfound(url, error)
    }
    return show(row, url, now)
  }

  /**
   * A change on `/b/{code}` (contract §27's order): Origin, the address's change window, the
   * code (a wrong one counts), and only then the form's body (4 KiB, the anonymous budget); then
   * the write, and the page again with the outcome in words.
   */
  async function bookingAction(request: Request, code: string, work: (row: AppointmentRow, form: URLSearchParams, now: number) => AppointmentRow): Promise<Response> {
    const url = new URL(request.url)
    const lang = langOf(url)
    const now = deps.clock.now()
    let found: AppointmentRow
    let raw: Uint8Array
    try {
      ({ raw, found } = await admitAnonymousForm(deps, request, server, {
        before: () => assertSameOrigin(request, deps.publicOrigin, 'this form must be sent from a page of this server'),
        rate: { bucket: CHANGE_BUCKET, limit: BOOKING_CHANGES_PER_ADDRESS, message: (retry) => `too many changes; retry after ${retry} s` },
        code: (address) => codes.find(code, address, now),
      }))
    } catch (error) {
      return unfound(url, error)
    }
    try {
      const form = formOf(raw)
      const row = await deps.writes.run(() => {
        const current = codeRow(code)
        return current === null ? null : work(current, form, now)
      })
      if (row === null) return missing(url)
      // Post/redirect/get: a reload of the result never sends the form again.
      return new Response(null, { status: 303, headers: { location: withLang(bookingPath(row.code), lang), 'cache-control': 'no-store' } })
    } catch (error) {
      const row = codeRow(code) ?? found
      const { text, status } = refusal(lang, error)
      // Contract §28: "too early" says from when check-in opens, in the location's clock.
      const words = error instanceof ApiError && error.code === AppointmentCodes.CHECK_IN_TOO_EARLY
        ? fill(text, { when: fromWhen(service.checkInWindow(row).opensAt, service.location(row.locationId)!.timezone, formatLocaleOf(request, url, lang), now) })
        : text
      const response = bookingView(row, request, url, now, { text: words, kind: 'alert', status })
      copyRefusalHeaders(error, response)
      return response
    }
  }

  // The server from when it starts (none when the app is handed requests directly). A hook
  // that asks its context for `server` makes Elysia define that property on every request's
  // context on every route of the app, not only here (bench/analysis.md "Hot reads").
  let server: PeerSource | null = null
  return new Elysia({ name: 'lobby.appointments.pages' })
    .onStart((app) => {
      server = (app.server as PeerSource | null) ?? null
    })
    .onBeforeHandle(({ request, route }) => {
      // Every page of the booking feature counts against the address's read window.
      if (request.method === 'GET' && (route.startsWith('/book/') || route.startsWith('/b/'))) {
        try {
          admitRate(deps.limiter, PAGE_BUCKET, clientAddressOf(deps.clients, request, server), PAGE_READS_PER_ADDRESS, deps.clock.now(), (retry) => `too many requests; retry after ${retry} s`)
        } catch (error) {
          const lang = langOf(new URL(request.url))
          const { status, headers } = refusal(lang, error)
          const response = page(lang, STRINGS[lang].title, `<p class="alert" role="alert">${escapeHtml(STRINGS[lang].tooManyReads)}</p>`, status)
          if (headers['retry-after'] !== undefined) response.headers.set('retry-after', headers['retry-after'])
          return response
        }
      }
    })
    .get('/book/:locationId', ({ request, params }) => {
      const url = new URL(request.url)
      return bookPage(params.locationId, url, formatLocaleOf(request, url, langOf(url)), deps.clock.now())
    }, { detail: { hide: true } })
    .post('/book/:locationId', async ({ request, params }) => {
      const url = new URL(request.url)
      const lang = langOf(url)
      const now = deps.clock.now()
      let form: URLSearchParams | null = null
      try {
        // Contract §27: Origin, then the address's 3 bookings an hour (every post that passes the
        // Origin check counts: it is counted before the body, when its worth is not yet known),
        // and only then the form (4 KiB, the anonymous budget).
        const { raw } = await admitAnonymousForm(deps, request, server, {
          before: () => assertSameOrigin(request, deps.publicOrigin, 'this form must be sent from a page of this server'),
          rate: { bucket: BOOK_BUCKET, limit: BOOKINGS_PER_ADDRESS_PER_HOUR, message: (retry) => `too many bookings; retry after ${retry} s` },
        })
        form = formOf(raw)
        const name = (form.get('name') ?? '').trim()
        const phone = (form.get('phone') ?? '').trim()
        const email = (form.get('email') ?? '').trim()
        const startAt = form.get('startAt') ?? ''
        if (name.length === 0 || [...name].length > NAME_MAX || (phone !== '' && !PHONE.test(phone)) || (email !== '' && (!EMAIL.test(email) || email.length > 254))) {
          throw new ApiError(422, AppointmentCodes.VALIDATION_FAILED, 'request validation failed')
        }
        // Contract §25: messages go to a phone or e-mail only with the customer's consent ticked.
        if ((phone !== '' || email !== '') && form.get('consent') !== 'on') throw new ApiError(422, AppointmentCodes.VALIDATION_FAILED, 'request validation failed', [{ path: '/consent', message: 'tick the consent box to get messages (or leave phone and email empty)' }])
        if (startAt === '' || startAt.length > 40) throw new ApiError(422, AppointmentCodes.SLOT_UNAVAILABLE, 'choose a time')
        const submitted = form
        const row = await deps.writes.run(() => {
          const target = service.target({ queueUnitIds: null, locations: null, services: null }, params.locationId, submitted.get('serviceId') ?? '')
          // The booking page's customer: one stable id per contact, never the contact itself.
          const customer = `customer:web-${sha256Hex(`${name}|${phone}|${email}`).slice(0, 12)}`
          return service.book(target, { locationId: params.locationId, serviceId: target.service.id, startAt, name, ...(phone === '' ? {} : { phone }), ...(email === '' ? {} : { email }) }, { actor: customer, credentialId: null }, now).row
        })
        return new Response(null, { status: 303, headers: { location: withLang(bookingPath(row.code), lang, { new: '1' }), 'cache-control': 'no-store' } })
      } catch (error) {
        if (error instanceof ApiError && error.details?.[0]?.path === '/consent') {
          return bookPage(params.locationId, url, formatLocaleOf(request, url, lang), now, { text: STRINGS[lang].consentFix, status: 422, headers: {}, field: 'consent' }, form)
        }
        return bookPage(params.locationId, url, formatLocaleOf(request, url, lang), now, refusal(lang, error), form)
      }
    }, { parse: 'none', detail: { hide: true } })
    .get('/b/:code', ({ request, params }) => inReadTransaction(deps.db, () => withBooking(request, params.code, (row, url, now) =>
      bookingView(row, request, url, now, url.searchParams.get('new') === '1' && row.status === 'BOOKED' ? { text: STRINGS[langOf(url)].booked, kind: 'ok' } : null))), { detail: { hide: true } })
    .get('/b/:code/calendar.ics', ({ request, params }) => withBooking(request, params.code, (row, url) => {
      if (row.status === 'CANCELLED') return missing(url)
      const unit = service.unit(row.queueUnitId)!
      const location = service.location(row.locationId)!
      const svc = service.bookableServices(row.locationId).find((s) => s.service.id === row.serviceId)
      const lang: Lang = unit.defaultLanguage === 'ar' ? 'ar' : 'en'
      const serviceName = svc === undefined ? row.serviceId : nameIn(lang, svc.service, unit.defaultLanguage)
      const link = serverOrigin(request, deps.publicOrigin) + bookingPath(row.code)
      const ics = calendarFile({
        uid: `${row.id}@lobby`,
        stamp: row.updatedAt,
        start: row.startAt,
        end: row.endAt,
        summary: `${serviceName} · ${nameIn(lang, unit, unit.defaultLanguage)}`,
        location: `${nameIn(lang, unit, unit.defaultLanguage)}, ${nameIn(lang, location, unit.defaultLanguage)}`,
        description: `Booking code ${row.code}. Check in at the kiosk with this code. ${link}`,
        ...(link.startsWith('http') ? { url: link } : {}),
      })
      return new Response(ics, {
        headers: { 'content-type': 'text/calendar; charset=utf-8', 'content-disposition': `attachment; filename="appointment-${row.code}.ics"`, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
      })
    }), { detail: { hide: true } })
    .post('/b/:code/cancel', ({ request, params }) => bookingAction(request, params.code, (row, _form, now) => service.cancel(row, `customer:${row.id}`, now)), { parse: 'none', detail: { hide: true } })
    .post('/b/:code/move', ({ request, params }) => bookingAction(request, params.code, (row, form, now) => {
      const svc = service.bookableServices(row.locationId).find((s) => s.service.id === row.serviceId)
      if (svc === undefined) throw new ApiError(422, AppointmentCodes.SLOT_UNAVAILABLE, 'this service takes no appointments now')
      const target = service.target({ queueUnitIds: null, locations: null, services: null }, row.locationId, row.serviceId)
      return service.move(row, target, form.get('startAt') ?? '', `customer:${row.id}`, now)
    }), { parse: 'none', detail: { hide: true } })
    .post('/b/:code/check-in', ({ request, params }) => bookingAction(request, params.code, (row, _form, now) => {
      const lang = langOf(new URL(request.url))
      const languages = JSON.parse(service.unit(row.queueUnitId)!.languages) as string[]
      return service.checkIn(row, { actor: `customer:${row.id}`, credentialId: null }, now, languages.includes(lang) ? lang : null).appointment
    }), { parse: 'none', detail: { hide: true } })
}

