import { acceptedLocale } from '../platform/names'
import { canonicalLang, directionOf } from '../screens'
import { escapeHtml } from '../screens/page'
import { qrSvg } from '../platform/qr'
import type { KioskTicket } from './model'
import { waitVerdict, withPageDigits } from '../screens'

/** Contract §9: 80 mm thermal roll paper, 58 mm as a kiosk setting (`?paper=58`). */
export const PAPER_WIDTHS_MM = [80, 58] as const
export type PaperWidth = (typeof PAPER_WIDTHS_MM)[number]

export function paperWidthOf(value: string | undefined | null): PaperWidth {
  return value === '58' ? 58 : 80
}

/**
 * The print stylesheet of a paper width, black on white, laid out in millimetres and points so
 * it prints the same on any printer. `@page` sets the margins and no `size`: a roll has no page
 * height, and Chromium centres a CSS page box on a sheet of another size, which would feed
 * blank paper before the ticket. The sheet is the printer's default paper (the roll, set on the
 * printer: README "Kiosk"); the ticket takes the roll's width less the margins, at most
 * `width` mm, from the top of the sheet.
 */
export function printStylesheet(width: PaperWidth): string {
  const narrow = width === 58
  return `@page { margin: 3mm ${narrow ? 2 : 4}mm; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; background: #fff; color: #000; }
body { font-family: "DejaVu Sans", "Noto Sans", "Noto Sans Arabic", Arial, sans-serif; font-size: ${narrow ? 9 : 10.5}pt; }
.ticket { width: 100%; max-width: ${width - (narrow ? 4 : 8)}mm; margin: 0 auto; text-align: center; }
.branch { font-size: ${narrow ? 11 : 13}pt; font-weight: 700; margin: 0 0 1mm; }
.location { margin: 0 0 2mm; }
.label { font-size: ${narrow ? 8 : 9}pt; margin: 2mm 0 0; }
.number { font-size: ${narrow ? 34 : 46}pt; font-weight: 800; line-height: 1; margin: 1mm 0 2mm; letter-spacing: .02em; }
.service { font-size: ${narrow ? 12 : 14}pt; font-weight: 700; margin: 0 0 2mm; }
.appointment { display: inline-block; font-weight: 800; border: .4mm solid #000; border-radius: 1mm; padding: .5mm 2mm; margin: 0 0 2mm; }
.facts { display: grid; grid-template-columns: 1fr 1fr; gap: 1mm 2mm; margin: 2mm 0; border-block: .4mm solid #000; padding: 2mm 0; }
.facts dt { font-size: ${narrow ? 7.5 : 8.5}pt; margin: 0; }
.facts dd { font-size: ${narrow ? 11 : 13}pt; font-weight: 700; margin: 0; }
.next { font-size: ${narrow ? 13 : 16}pt; font-weight: 800; text-align: center; margin: 2mm 0; border-block: .4mm solid #000; padding: 2mm 0; }
.when { margin: 1mm 0; }
.qr { width: ${narrow ? 30 : 36}mm; height: ${narrow ? 30 : 36}mm; margin: 2mm auto 1mm; }
.qr svg { width: 100%; height: 100%; display: block; }
.scan { font-size: ${narrow ? 7.5 : 8.5}pt; margin: 0; }
.url { font-size: 6.5pt; word-break: break-all; margin: 1mm 0 0; }
.screen-only { font-family: system-ui, sans-serif; margin: 6mm auto; text-align: center; }
.screen-only button { font: inherit; font-size: 14pt; padding: 3mm 8mm; border: .4mm solid #000; background: #fff; color: #000; border-radius: 2mm; }
@media screen { html, body { background: #e9eaec; } body { padding: 6mm 0; } .ticket { background: #fff; width: ${width}mm; max-width: none; padding: 3mm ${narrow ? 2 : 4}mm; box-shadow: 0 0 2mm rgb(0 0 0 / .25); } }
@media print { .screen-only { display: none; } }
`
}

/** The print page's script: the button prints, and `?auto=1` (the kiosk's hidden frame) prints once loaded. */
export const PRINT_SCRIPT = `(function(){var b=document.getElementById('print-now');if(b)b.addEventListener('click',function(){window.print()});` +
  `if(new URLSearchParams(location.search).get('auto')==='1'){addEventListener('load',function(){window.print()})}})();\n`

const WORDS = {
  en: {
    title: 'Ticket {number}',
    yourNumber: 'Your number',
    ahead: 'People ahead',
    wait: 'Approx. wait',
    scan: 'Scan to follow your place on your phone',
    print: 'Print',
    youreNext: "You're next",
    noCounterOpen: 'No counter is open right now',
    appointment: 'Appointment {time}',
    minutes: (n: number, lang: string) => new Intl.NumberFormat(withPageDigits(lang), { style: 'unit', unit: 'minute', unitDisplay: 'short' }).format(n),
  },
  ar: {
    title: 'التذكرة {number}',
    yourNumber: 'رقمك',
    ahead: 'عدد المنتظرين قبلك',
    wait: 'الانتظار التقريبي',
    scan: 'امسح الرمز لمتابعة دورك على هاتفك',
    print: 'طباعة',
    youreNext: 'أنت التالي',
    noCounterOpen: 'لا يوجد شباك مفتوح الآن',
    appointment: 'موعد {time}',
    minutes: (n: number, lang: string) => new Intl.NumberFormat(withPageDigits(lang), { style: 'unit', unit: 'minute', unitDisplay: 'short' }).format(n),
  },
}


export interface PrintAssets {
  stylesheet: string
  script: string
}

/**
 * The print page of a kiosk ticket (contract §9): branch name, number, service, location, date
 * and time (the location's zone), people ahead, approximate wait and a QR code of the ticket's
 * phone page, as HTML with no script of its own inline (the CSP allows only this server's
 * files). Contract §18: all of it in the ticket's language (`view.language`, the one it was
 * taken in), the names resolved in it by `ticketView`; the URL's `lang` is not read, so words
 * and names never disagree. The words are English and Arabic; another language prints its
 * names with the English words. The date, time and numbers are written in the printing
 * browser's locale of that language (its `acceptLanguage` header: `en-GB` for an English
 * ticket reads "27 Nov 2026, 14:30"), else the language's own.
 */
export function printPage(view: KioskTicket, phoneUrl: string, assets: PrintAssets, acceptLanguage: string | null = null): string {
  const lang = canonicalLang(view.language) ?? 'en'
  const words = lang.toLowerCase().startsWith('ar') ? WORDS.ar : WORDS.en
  const dir = directionOf(lang)
  // Contract §28: every formatter takes the page's digits (withPageDigits), whatever the printing browser's locale prefers.
  const writtenIn = acceptedLocale(acceptLanguage, lang) ?? lang
  let when: string
  try {
    when = new Intl.DateTimeFormat(withPageDigits(writtenIn), { dateStyle: 'medium', timeStyle: 'short', timeZone: view.timezone }).format(new Date(view.ticket.createdAt))
  } catch {
    when = new Intl.DateTimeFormat(withPageDigits(writtenIn), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(view.ticket.createdAt))
  }
  // Contract §28: an appointment's ticket says so, with its slot's time (the location's clock).
  let appointment = ''
  if (view.appointmentAt !== null) {
    let time: string
    try {
      time = new Intl.DateTimeFormat(withPageDigits(writtenIn), { timeStyle: 'short', timeZone: view.timezone }).format(new Date(view.appointmentAt))
    } catch {
      time = new Intl.DateTimeFormat(withPageDigits(writtenIn), { timeStyle: 'short' }).format(new Date(view.appointmentAt))
    }
    appointment = `<p class="appointment">${escapeHtml(words.appointment.replace('{time}', time))}</p>\n`
  }
  const number = escapeHtml(view.ticket.ticketNumber)
  const count = new Intl.NumberFormat(withPageDigits(writtenIn)).format(view.peopleAhead)
  // Contract §28: "You're next" alone, only with nobody ahead and a counter free for it; else the people ahead and the minutes.
  const verdict = waitVerdict(view)
  return `<!doctype html>
<html lang="${escapeHtml(lang)}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(words.title.replace('{number}', view.ticket.ticketNumber))}</title>
<link rel="stylesheet" href="${assets.stylesheet}">
<script defer src="${assets.script}"></script>
</head>
<body>
<main class="ticket" data-ticket-id="${escapeHtml(view.ticket.id)}">
<p class="branch" dir="auto">${escapeHtml(view.branchName)}</p>
<p class="location" dir="auto">${escapeHtml(view.locationName)}</p>
<p class="label">${escapeHtml(words.yourNumber)}</p>
<h1 class="number" dir="ltr">${number}</h1>
<p class="service" dir="auto">${escapeHtml(view.serviceName)}</p>
${appointment}${verdict.kind === 'next' ? `<p class="next">${escapeHtml(words.youreNext)}</p>` : `<dl class="facts">
<div><dt>${escapeHtml(words.ahead)}</dt><dd class="ahead">${escapeHtml(count)}</dd></div>
<div><dt>${escapeHtml(words.wait)}</dt><dd class="wait">${verdict.kind === 'closed' ? '' : `≈ ${escapeHtml(words.minutes(verdict.minutes, lang))}`}</dd></div>
</dl>`}
${verdict.kind === 'noCounter' ? `<p class="no-counter">${escapeHtml(words.noCounterOpen)}</p>
` : ''}<p class="when">${escapeHtml(when)}</p>
<div class="qr">${qrSvg(phoneUrl, { label: words.scan })}</div>
<p class="scan">${escapeHtml(words.scan)}</p>
<p class="url" dir="ltr">${escapeHtml(phoneUrl)}</p>
</main>
<p class="screen-only"><button type="button" id="print-now">${escapeHtml(words.print)}</button></p>
</body>
</html>
`
}
