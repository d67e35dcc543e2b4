import { escapeHtml } from '../screens/page'
import { directionOf } from '../screens'
import { formatNumber, formatOpening, formatSaidMinutes } from '../screens'
import { waitVerdict } from '../screens'
import { countWords, kioskWordsFor } from '../screens'
import { languageName } from '../screens'
import { qrSvg } from '../platform/qr'
import type { JoinServiceView } from './service'
import { fill, joinWordsFor, type JoinWords } from './words'

/**
 * The join page's stylesheet (contract §20): a phone page in the phone page's spirit (§10: a
 * 360 px wide screen, a few KB, no script at all), system fonts, logical properties so the
 * Arabic page mirrors by itself.
 */
export const JOIN_CSS = `*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Arabic",sans-serif;background:#f3f4f6;color:#111827;line-height:1.4}
main{max-width:32rem;margin:0 auto;padding:1rem}
header{margin-block-end:1rem}
.branch{font-size:1.05rem;font-weight:600;margin:0;color:#374151}
.location{margin:0;color:#4b5563}
h1{font-size:1.6rem;margin:.25rem 0 .25rem}
.lead{margin:0 0 1rem}
.langs{display:flex;flex-wrap:wrap;gap:.5rem;margin:0 0 1rem;padding:0;list-style:none}
.langs a{display:inline-block;padding:.4rem .8rem;border:1px solid #9ca3af;border-radius:999px;color:#111827;text-decoration:none;background:#fff;min-height:44px;line-height:1.9}
.langs a[aria-current]{background:#111827;color:#fff;border-color:#111827}
.services{list-style:none;margin:0;padding:0;display:grid;gap:.75rem}
.service{background:#fff;border-radius:.75rem;padding:1rem;box-shadow:0 1px 2px rgb(0 0 0/.08)}
.service h2{font-size:1.25rem;margin:0 0 .25rem}
.facts{margin:0 0 .75rem;color:#374151;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.facts span{white-space:nowrap}
.no-counter,.closed-note,.full{color:#92400e}
.service.is-closed{background:#e5e7eb;color:#4b5563}
form{margin:0}
button,.button{display:block;width:100%;font:inherit;font-size:1.1rem;font-weight:600;padding:.8rem 1rem;min-height:48px;border:0;border-radius:.6rem;background:#1d4ed8;color:#fff;text-align:center;text-decoration:none;cursor:pointer}
button:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.notice{background:#fff;border-inline-start:.35rem solid #1d4ed8;border-radius:.5rem;padding:1rem;margin:0 0 1rem}
.notice.problem{border-color:#b91c1c}
.notice h2{font-size:1.2rem;margin:0 0 .4rem}
.notice p{margin:0 0 .75rem}
.number{font-size:2.5rem;font-weight:800;letter-spacing:.03em;margin:.25rem 0 .5rem}
.back{display:inline-block;margin-block-start:.5rem;color:#1d4ed8}
.contact{background:#fff;border:0;border-radius:.75rem;padding:1rem;margin:0 0 1rem;box-shadow:0 1px 2px rgb(0 0 0/.08)}
.contact legend{font-weight:700;font-size:1.1rem;padding:0;float:left;width:100%;margin-block-end:.25rem}
.contact legend+*{clear:both}
.contact .hint{margin:0 0 .5rem;color:#374151}
.contact label{display:block;font-weight:600;margin:.6rem 0 .2rem}
.contact input[type=tel],.contact input[type=email]{font:inherit;width:100%;min-height:48px;padding:.5rem .6rem;border:2px solid #6b7280;border-radius:.5rem}
.contact input[aria-invalid=true]{border-color:#b91c1c}
.contact .consent{display:flex;gap:.6rem;align-items:flex-start;font-weight:400}
.contact .consent input{flex:none;width:1.4rem;height:1.4rem;margin:.1rem 0 0}
.field-error{color:#b91c1c;font-weight:700;margin:.25rem 0 0}
input:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
`

/** The poster's stylesheet: one A4 sheet, black on white, a QR code large enough to scan from a few steps away. */
export const POSTER_CSS = `@page{size:A4 portrait;margin:15mm}
*{box-sizing:border-box}
html,body{margin:0;background:#fff;color:#000}
body{font-family:"DejaVu Sans","Noto Sans","Noto Sans Arabic",Arial,sans-serif}
.poster{width:180mm;min-height:267mm;margin:0 auto;display:flex;flex-direction:column;align-items:center;text-align:center;gap:6mm;padding-block:4mm}
.branch{font-size:30pt;font-weight:800;margin:0}
.location{font-size:18pt;margin:0}
.others{font-size:14pt;margin:0;color:#222}
h1{font-size:26pt;margin:4mm 0 0}
.qr{width:120mm;height:120mm}
.qr svg{width:100%;height:100%;display:block}
ol{font-size:15pt;text-align:start;margin:0;padding-inline-start:9mm;max-width:150mm}
ol li{margin-block-end:2mm}
.url{font-size:13pt;word-break:break-all;margin:0}
.screen-only{text-align:center;margin:6mm 0}
.screen-only button{font:inherit;font-size:14pt;padding:3mm 8mm;border:.4mm solid #000;background:#fff;color:#000;border-radius:2mm;cursor:pointer}
@media screen{html,body{background:#e5e7eb}body{padding:8mm 0}.poster{background:#fff;width:210mm;min-height:297mm;padding:15mm;box-shadow:0 0 3mm rgb(0 0 0/.25)}}
@media print{.screen-only{display:none}}
`

/** The poster's script: the button prints (the CSP allows no inline script). */
export const POSTER_SCRIPT = `(function(){var b=document.getElementById('print-now');if(b)b.addEventListener('click',function(){window.print()})})();\n`

export interface JoinAssets {
  stylesheet: string
}

/** What every join page shows at its top: branch, location, the language switch. */
export interface JoinFrame {
  lang: string
  /** The locale its times and numbers are written in (the reader's of `lang`: en-GB, en-US). */
  locale: string
  languages: string[]
  branchName: string
  locationName: string
  /** The page's own path, for the language switch's links. */
  path: string
  stylesheet: string
}

function document(frame: { lang: string; stylesheet: string; title: string }, body: string): string {
  return `<!doctype html>
<html lang="${escapeHtml(frame.lang)}" dir="${directionOf(frame.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(frame.title)}</title>
<link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="${frame.stylesheet}">
</head>
<body>
${body}
</body>
</html>
`
}

function header(frame: JoinFrame, words: JoinWords, heading: string): string {
  const langs = frame.languages.length < 2 ? '' : `<nav aria-label="${escapeHtml(words.language)}"><ul class="langs">${frame.languages.map((l) =>
    `<li><a href="${escapeHtml(`${frame.path}?lang=${encodeURIComponent(l)}`)}" lang="${escapeHtml(l)}" hreflang="${escapeHtml(l)}"${l === frame.lang ? ' aria-current="true"' : ''}>${escapeHtml(languageName(l))}</a></li>`).join('')}</ul></nav>`
  return `<header><p class="branch" dir="auto">${escapeHtml(frame.branchName)}</p><p class="location" dir="auto">${escapeHtml(frame.locationName)}</p><h1>${escapeHtml(heading)}</h1></header>${langs}`
}

/**
 * The wait of a new ticket in the kiosk's words, from contract §28's verdict: "3 waiting · about
 * 10 min", "Nobody waiting · You're next" (only with a counter free for it), "Nobody waiting ·
 * about 5 min · No counter is open right now". The people waiting are those the ticket would
 * have ahead (the line's call order), the number its phone page then shows.
 */
function facts(service: JoinServiceView, lang: string, locale: string): string {
  const k = kioskWordsFor(lang)
  const verdict = waitVerdict(service)
  const waiting = service.peopleAhead === 0 ? k.nobodyWaiting : countWords(k.waiting, service.peopleAhead, lang, formatNumber(locale, service.peopleAhead))
  const wait = verdict.kind === 'next' ? k.youreNext : verdict.kind === 'closed' ? k.closedNow : fill(k.approxWait, { time: formatSaidMinutes(locale, verdict.minutes) })
  return `<span class="waiting">${escapeHtml(waiting)}</span><span class="wait">${escapeHtml(wait)}</span>${verdict.kind === 'noCounter' ? `<span class="no-counter">${escapeHtml(k.noCounterOpen)}</span>` : ''}`
}

export interface JoinPageInput {
  frame: JoinFrame
  timezone: string
  now: number
  services: JoinServiceView[]
  /** The browser's active ticket here (its cookie): the page links to it instead of offering tickets. */
  active: { ticketNumber: string; trackingPath: string } | null
  /** The form's action and a fresh key per page (a double tap on one page gives one ticket). */
  action: string
  key: string
  /**
   * Contract §25: the optional number and address with their consent box, when the branch sends
   * SMS or e-mail (null: the page offers none); what was typed and the words for each field
   * that cannot be used, after a refused POST.
   */
  contact: JoinContactForm | null
}

export interface JoinContactForm {
  channels: ('sms' | 'email')[]
  values: { phone: string; email: string; consent: boolean }
  errors: { phone?: string; email?: string; consent?: string }
}

/** One field of the contact part: label, input, its error in words beside it (aria-describedby, aria-invalid). */
function contactField(id: 'phone' | 'email', label: string, value: string, error: string | undefined): string {
  const type = id === 'phone' ? 'tel' : 'email'
  const described = error === undefined ? '' : ` aria-invalid="true" aria-describedby="${id}-error"`
  return `<label for="${id}">${escapeHtml(label)}</label><input id="${id}" name="${id}" type="${type}" autocomplete="${type === 'tel' ? 'tel' : 'email'}" dir="ltr" maxlength="${id === 'phone' ? 40 : 254}" value="${escapeHtml(value)}"${described}>` +
    (error === undefined ? '' : `<p class="field-error" id="${id}-error">${escapeHtml(error)}</p>`)
}

function contactPart(contact: JoinContactForm, words: JoinWords): string {
  const { values, errors } = contact
  const consentError = errors.consent === undefined ? '' : ` aria-invalid="true" aria-describedby="consent-error"`
  return `<fieldset class="contact"><legend>${escapeHtml(words.contactLegend)}</legend><p class="hint">${escapeHtml(words.contactHint)}</p>` +
    (contact.channels.includes('sms') ? contactField('phone', words.phoneLabel, values.phone, errors.phone) : '') +
    (contact.channels.includes('email') ? contactField('email', words.emailLabel, values.email, errors.email) : '') +
    `<label class="consent"><input type="checkbox" id="consent" name="consent" value="on"${values.consent ? ' checked' : ''}${consentError}><span>${escapeHtml(words.consent)}</span></label>` +
    (errors.consent === undefined ? '' : `<p class="field-error" id="consent-error">${escapeHtml(errors.consent)}</p>`) +
    `</fieldset>`
}

/**
 * The join page (contract §20): each service of the location with its wait and a button (a
 * form POST: the page works without script), closed ones with their next opening, full ones
 * saying so; or, when the browser already holds a ticket here, a link to it.
 */
export function joinPage(input: JoinPageInput): string {
  const { frame, services, active } = input
  const lang = frame.lang
  const words = joinWordsFor(lang)
  const k = kioskWordsFor(lang)
  let main: string
  // With a contact part, one form holds it and every service's button (the button says which service).
  const contact = active === null && services.some((s) => s.open && !s.full) ? input.contact : null
  const problems = contact === null ? 0 : Object.keys(contact.errors).length
  if (active !== null) {
    main = `<section class="notice" data-state="active"><h2>${escapeHtml(words.haveTicket)}</h2><p class="number" dir="ltr">${escapeHtml(active.ticketNumber)}</p><p>${escapeHtml(words.haveTicketHint)}</p><a class="button" href="${escapeHtml(active.trackingPath)}">${escapeHtml(words.openTicket)}</a></section>`
  } else if (!services.some((s) => s.open)) {
    main = `<section class="notice" data-state="none-open"><h2>${escapeHtml(words.noServices)}</h2><p>${escapeHtml(words.noServicesHint)}</p></section>`
  } else {
    main = `<p class="lead">${escapeHtml(words.choose)}</p>`
  }
  if (problems > 0) main = `<section class="notice problem" role="alert" data-code="VALIDATION_FAILED"><h2>${escapeHtml(words.fixBelow)}</h2></section>${main}`
  const items = services.map((s) => {
    const name = `<h2 dir="auto">${escapeHtml(s.name)}</h2>`
    if (!s.open) {
      const when = s.opensAt === null ? k.noOpening : fill(k.opens, { when: formatOpening(frame.locale, input.timezone, s.opensAt, input.now) })
      return `<li class="service is-closed" data-service-id="${escapeHtml(s.id)}" data-open="false">${name}<p class="facts"><span class="closed-note">${escapeHtml(k.closedNow)}</span><span class="opens">${escapeHtml(when)}</span></p></li>`
    }
    let action = ''
    if (s.full) action = `<p class="full">${escapeHtml(words.full)}</p>`
    else if (contact !== null) {
      action = `<button type="submit" name="serviceId" value="${escapeHtml(s.id)}" aria-label="${escapeHtml(fill(words.takeFor, { service: s.name }))}">${escapeHtml(words.take)}</button>`
    } else if (active === null) {
      action = `<form method="post" action="${escapeHtml(input.action)}"><input type="hidden" name="serviceId" value="${escapeHtml(s.id)}"><input type="hidden" name="language" value="${escapeHtml(lang)}"><input type="hidden" name="key" value="${escapeHtml(input.key)}">` +
        `<button type="submit" aria-label="${escapeHtml(fill(words.takeFor, { service: s.name }))}">${escapeHtml(words.take)}</button></form>`
    }
    return `<li class="service" data-service-id="${escapeHtml(s.id)}" data-open="true">${name}<p class="facts">${facts(s, lang, frame.locale)}</p>${action}</li>`
  }).join('')
  let list = services.length === 0 ? '' : `<ul class="services">${items}</ul>`
  if (contact !== null) {
    list = `<form method="post" action="${escapeHtml(input.action)}" novalidate><input type="hidden" name="language" value="${escapeHtml(lang)}"><input type="hidden" name="key" value="${escapeHtml(input.key)}">${contactPart(contact, words)}${list}</form>`
  }
  return document({ lang, stylesheet: frame.stylesheet, title: `${words.title} · ${frame.locationName}` }, `<main id="join">${header(frame, words, words.title)}${main}${list}</main>`)
}

/** A refusal in words: heading, hint, and where to go next (the services, or the customer's own ticket). */
export function joinProblemPage(frame: JoinFrame, problem: { heading: string; hint: string; code: string; link?: { href: string; label: string } }): string {
  const words = joinWordsFor(frame.lang)
  const link = problem.link === undefined ? '' : `<a class="button" href="${escapeHtml(problem.link.href)}">${escapeHtml(problem.link.label)}</a>`
  return document({ lang: frame.lang, stylesheet: frame.stylesheet, title: problem.heading },
    `<main id="join">${header(frame, words, words.title)}<section class="notice problem" role="alert" data-code="${escapeHtml(problem.code)}"><h2>${escapeHtml(problem.heading)}</h2><p>${escapeHtml(problem.hint)}</p>${link}</section></main>`)
}

/** The page of a location that offers no joining (or does not exist): in words, no names. */
export function notOfferedPage(lang: string, stylesheet: string): string {
  const words = joinWordsFor(lang)
  return document({ lang, stylesheet, title: words.notOffered },
    `<main id="join"><section class="notice problem" role="alert" data-code="JOIN_NOT_OFFERED"><h2>${escapeHtml(words.notOffered)}</h2><p>${escapeHtml(words.notOfferedHint)}</p></section></main>`)
}

export interface PosterInput {
  lang: string
  /** The branch's and location's names in the page's language, then in the unit's other languages. */
  branchName: string
  locationName: string
  otherNames: string[]
  joinUrl: string
  stylesheet: string
  script: string
}

/**
 * The join poster (contract §20): an A4 page with the branch's name, the QR code of the join
 * page's absolute URL, and three short steps, in the page's language with the names in the
 * unit's other languages beneath.
 */
export function posterPage(input: PosterInput): string {
  const words = joinWordsFor(input.lang)
  const others = input.otherNames.map((n) => `<p class="others" dir="auto">${escapeHtml(n)}</p>`).join('')
  return `<!doctype html>
<html lang="${escapeHtml(input.lang)}" dir="${directionOf(input.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${words.posterTitle} · ${input.branchName}`)}</title>
<link rel="stylesheet" href="${input.stylesheet}">
<script defer src="${input.script}"></script>
</head>
<body>
<main class="poster">
<p class="branch" dir="auto">${escapeHtml(input.branchName)}</p>
<p class="location" dir="auto">${escapeHtml(input.locationName)}</p>
${others}<h1>${escapeHtml(words.posterTitle)}</h1>
<div class="qr">${qrSvg(input.joinUrl, { label: words.posterTitle })}</div>
<ol><li>${escapeHtml(words.posterStep1)}</li><li>${escapeHtml(words.posterStep2)}</li><li>${escapeHtml(words.posterStep3)}</li></ol>
<p class="url">${escapeHtml(words.posterOr)} <span dir="ltr">${escapeHtml(input.joinUrl)}</span></p>
</main>
<p class="screen-only"><button type="button" id="print-now">${escapeHtml(words.print)}</button></p>
</body>
</html>
`
}
