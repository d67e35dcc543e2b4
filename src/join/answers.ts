import type { JoinDeps } from './deps'
import { isSecureRequest } from '../access'
import { ApiError, pointer } from '../platform/errors'
import { parseJsonBytes } from '../platform/body'
import { cookieValue } from '../platform/http'
import { acceptedLanguage, acceptedLocale, localeWithin, resolveName } from '../platform/names'
import { assertSchema, compile } from '../platform/validation'
import { trackingPath, TRACKING_CODE_PATTERN } from '../tickets'
import { formatOpening } from '../screens'
import { JoinCodes } from './errors'
import { JoinRequest } from './model'
import type { JoinPlace, JoinService } from './service'
import { JOIN_CSS, POSTER_CSS, POSTER_SCRIPT, joinPage, joinProblemPage, notOfferedPage, type JoinContactForm, type JoinFrame } from './page'
import { fill, joinWordsFor } from './words'
import type { NotificationService, PreparedContact } from '../notifications'


/*
 * What the join routes (./routes.ts) answer with, apart from the routes: the page's language
 * and locale, the page and its refusals in words, the number-and-address part (contract §25),
 * the browser's cookie and the request body's reading.
 */

/** The cookie holding the browser's ticket at one location (its path is that location's join page). */
export const JOIN_COOKIE = 'lobby_join'

/** A join request is a service ID, a language, a key and perhaps a number and an address (form-encoded, even every sign escaped): 1.5 KB. */
export const MAX_JOIN_BODY = 1536
const checkJoin = compile(JoinRequest)

export const ASSETS = '/join-assets'
function hashed(name: string, extension: string, body: string) {
  return { path: `${ASSETS}/${name}.${Bun.hash(body).toString(16).padStart(16, '0').slice(0, 12)}.${extension}`, body }
}
export const JOIN_STYLES = hashed('join', 'css', JOIN_CSS)
export const POSTER_STYLES = hashed('poster', 'css', POSTER_CSS)
export const POSTER_JS = hashed('poster', 'js', POSTER_SCRIPT)

/**
 * The join page's headers: its own CSP (no script; forms post to this server only), never
 * framed (its buttons take tickets), not cached (the waits are live). The referrer policy is
 * `same-origin`, not the other pages' `no-referrer`: under `no-referrer` a browser sends
 * `Origin: null` with a form POST, and the Origin check below needs the real one.
 */
export const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  // The page's language and the way its times are written follow Accept-Language.
  vary: 'Accept-Language',
}

export const posterHeaders = {
  ...pageHeaders,
  'content-security-policy': "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'self'",
  'x-frame-options': 'SAMEORIGIN',
}

/** The join routes' answers, over the join and notifications services. */
export function joinAnswers(deps: JoinDeps, { join, notifications }: { join: JoinService; notifications: NotificationService }) {
  /** The page's language: `?lang=` (the switch), else Accept-Language, else the unit's default. */
  function pageLanguage(place: JoinPlace, request: Request, asked: string | undefined): string {
    return join.languageOf(place, asked) ?? acceptedLanguage(request.headers.get('accept-language'), place.languages) ?? place.defaultLanguage
  }

  /**
   * The locale the page writes times and numbers in: the URL's (`?lang=en-US`) or the browser's
   * locale of the page's language (en-GB: "Opens Monday 08:30"), else the language itself.
   */
  function localeOf(request: Request, lang: string, asked?: string): string {
    return localeWithin(asked, lang) ?? acceptedLocale(request.headers.get('accept-language'), lang) ?? lang
  }

  function frameOf(place: JoinPlace, lang: string, locale: string): JoinFrame {
    return {
      lang,
      locale,
      languages: place.languages,
      branchName: resolveName(place.unitName, lang, place.defaultLanguage),
      locationName: resolveName(place.locationName, lang, place.defaultLanguage),
      path: `/join/${encodeURIComponent(place.locationId)}`,
      stylesheet: JOIN_STYLES.path,
    }
  }

  /** Contract §25: the page's number and address part, when the branch sends SMS or e-mail. */
  function contactForm(place: JoinPlace, values: JoinContactForm['values'] = { phone: '', email: '', consent: false }, errors: JoinContactForm['errors'] = {}): JoinContactForm | null {
    const channels = notifications.channelsOfUnit(place.queueUnitId).filter((c): c is 'sms' | 'email' => c === 'sms' || c === 'email')
    return channels.length === 0 ? null : { channels, values, errors }
  }

  /**
   * The number and address of a join request (contract §25): none, or those the notifications
   * feature can use, with the consent box ticked; else one 422 naming each field.
   */
  function contactsOf(place: JoinPlace, body: JoinRequest): PreparedContact[] {
    const given = (body.phone ?? '').trim() !== '' || (body.email ?? '').trim() !== ''
    if (!given) return []
    const consent = body.consent === true || body.consent === 'on' || body.consent === 'true'
    let contacts: PreparedContact[] = []
    const details: { path: string; message: string }[] = []
    try {
      contacts = notifications.contactsFromForm(place.queueUnitId, { phone: body.phone, email: body.email })
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      details.push(...(error.details ?? []))
    }
    if (!consent) details.push({ path: pointer('consent'), message: 'tick the consent box to get messages (or leave phone and email empty)' })
    if (details.length > 0) throw new ApiError(422, JoinCodes.VALIDATION_FAILED, 'request validation failed', details)
    return contacts
  }

  /** The join page again, with what was typed and each field's problem in words beside it (422). */
  function contactProblemPage(place: JoinPlace, request: Request, lang: string, body: JoinRequest, error: ApiError, now: number): Response | null {
    const words = joinWordsFor(lang)
    const errors: JoinContactForm['errors'] = {}
    for (const detail of error.details ?? []) {
      if (detail.path === '/phone') errors.phone = /does not send/.test(detail.message) ? words.phoneNotSent : words.phoneBad
      else if (detail.path === '/email') errors.email = /does not send/.test(detail.message) ? words.emailNotSent : words.emailBad
      else if (detail.path === '/consent') errors.consent = words.consentNeeded
      else return null
    }
    const contact = contactForm(place, { phone: body.phone ?? '', email: body.email ?? '', consent: body.consent === 'on' || body.consent === true || body.consent === 'true' }, errors)
    if (contact === null || Object.keys(errors).length === 0) return null
    return new Response(renderJoinPage(place, request, lang, undefined, now, null, contact), { status: 422, headers: pageHeaders })
  }

  function renderJoinPage(place: JoinPlace, request: Request, lang: string, askedLang: string | undefined, now: number, active: { ticketNumber: string; trackingCode: string | null } | null, contact: JoinContactForm | null): string {
    return joinPage({
      frame: frameOf(place, lang, localeOf(request, lang, askedLang)),
      timezone: place.timezone,
      now,
      services: join.services(place, lang, now),
      active: active === null ? null : { ticketNumber: active.ticketNumber, trackingPath: trackingPath(active.trackingCode ?? '') },
      action: `/join/${encodeURIComponent(place.locationId)}`,
      key: deps.ids.next('join'),
      contact,
    })
  }

  function cookieCode(request: Request): string | null {
    return cookieValue(request, JOIN_COOKIE, TRACKING_CODE_PATTERN)
  }

  /** Until the end of the ticket's day at most: the ticket is over by then anyway (the daily close). */
  function joinCookie(place: JoinPlace, code: string, request: Request): string {
    return `${JOIN_COOKIE}=${code}; HttpOnly; SameSite=Lax; Path=/join/${encodeURIComponent(place.locationId)}; Max-Age=86400${isSecureRequest(request, deps.publicOrigin) ? '; Secure' : ''}`
  }

  function notOffered(request: Request, extraHeaders: Record<string, string> = {}): Response {
    const lang = acceptedLanguage(request.headers.get('accept-language'), ['en', 'ar']) ?? 'en'
    return new Response(notOfferedPage(lang, JOIN_STYLES.path), { status: 404, headers: { ...pageHeaders, ...extraHeaders } })
  }

  /** A refusal of the form POST as a page in words, with the error's status and headers (Retry-After, Connection). */
  function problemPage(place: JoinPlace, lang: string, locale: string, error: ApiError): Response {
    const words = joinWordsFor(lang)
    const back = { href: `/join/${encodeURIComponent(place.locationId)}?lang=${encodeURIComponent(lang)}`, label: words.back }
    let heading = words.failed
    let hint = words.failedHint
    let link: { href: string; label: string } | undefined = back
    switch (error.code) {
      case JoinCodes.ORIGIN_FORBIDDEN: heading = words.origin; hint = words.originHint; break
      case JoinCodes.NETWORK_FORBIDDEN: heading = words.network; hint = words.networkHint; link = undefined; break
      case JoinCodes.RATE_LIMITED: heading = words.tooMany; hint = fill(words.tooManyHint, { minutes: String(Math.max(1, Math.ceil(Number(error.headers?.['retry-after'] ?? 60) / 60))) }); break
      case JoinCodes.QUEUE_FULL: heading = words.queueFull; hint = words.queueFullHint; break
      case JoinCodes.SERVICE_CLOSED: {
        heading = words.closed
        const opensAt = /^opens at (.+)$/.exec(error.details?.[0]?.message ?? '')?.[1]
        hint = opensAt === undefined ? words.closedNoOpening : fill(words.closedHint, { when: formatOpening(locale, place.timezone, opensAt, deps.clock.now()) })
        break
      }
      case JoinCodes.ACTIVE_TICKET: heading = words.haveTicket; hint = words.haveTicketHint; link = { href: error.details?.[0]?.message ?? back.href, label: words.openTicket }; break
      case JoinCodes.QUEUE_UNIT_INACTIVE:
      case JoinCodes.QUEUE_UNIT_EDGE_MANAGED: heading = words.unavailable; hint = words.unavailableHint; break
      case JoinCodes.VALIDATION_FAILED:
      case JoinCodes.INVALID_REQUEST:
      case JoinCodes.PAYLOAD_TOO_LARGE:
      case JoinCodes.IDEMPOTENCY_KEY_REUSED: heading = words.invalid; hint = words.invalidHint; break
    }
    const headers: Record<string, string> = { ...pageHeaders, ...error.headers }
    return new Response(joinProblemPage(frameOf(place, lang, locale), { heading, hint, code: error.code, ...(link === undefined ? {} : { link }) }), { status: error.status, headers })
  }

  /** The request body's fields, from the form or from JSON, checked against `JoinRequest` (422 listing each bad field). */
  function readJoinBody(raw: Uint8Array, asJson: boolean): JoinRequest {
    const body = asJson ? parseJsonBytes(raw) : Object.fromEntries(new URLSearchParams(new TextDecoder().decode(raw)))
    assertSchema(checkJoin, body, JoinCodes.VALIDATION_FAILED)
    return body
  }

  return { pageLanguage, localeOf, contactForm, contactsOf, contactProblemPage, renderJoinPage, cookieCode, joinCookie, notOffered, problemPage, readJoinBody }
}
