import { Elysia } from 'elysia'
import { assertSameOrigin, serverOrigin } from '../access'
import type { JoinDeps } from './deps'
import { RateBuckets } from '../platform/admission'
import { admitAnonymousForm } from '../platform/anonymous-forms'
import { DEFAULT_REMOTE_JOIN_PER_ADDRESS } from '../structure'
import { ApiError, CommonCodes, pointer } from '../platform/errors'
import { closingConnection, isJsonContentType } from '../platform/body'
import { json } from '../platform/http'
import { resolveName } from '../platform/names'
import { trackingPath } from '../tickets'
import { JoinCodes } from './errors'
import { JoinRequest } from './model'
import type { JoinService } from './service'
import { posterPage } from './page'
import { issueJoinTicketDocs } from './docs'
import type { NotificationService } from '../notifications'
import { ASSETS, JOIN_STYLES, MAX_JOIN_BODY, POSTER_JS, POSTER_STYLES, joinAnswers, pageHeaders, posterHeaders } from './answers'

/** Contract §20: tickets a client address may take from phones in `JOIN_WINDOW_MS` (the bucket's window), unless `remoteJoin.perAddressPer10Min` says otherwise. */
export const JOIN_TICKETS_PER_ADDRESS = DEFAULT_REMOTE_JOIN_PER_ADDRESS
export const JOIN_WINDOW_MS = RateBuckets.joinPerAddress.windowMs

export { JOIN_COOKIE } from './answers'

/**
 * Joining the queue from a phone (contract §20): the public page `/join/{locationId}`, its
 * ticket issue `POST /join/{locationId}` (a form, or JSON) and the printable poster
 * `/join/{locationId}/poster`. No pairing: each rule is checked per request (docs/journey.md).
 */
export function joinRoutes(deps: JoinDeps, { join, notifications }: { join: JoinService; notifications: NotificationService }) {
  const { pageLanguage, localeOf, contactForm, contactsOf, contactProblemPage, renderJoinPage, cookieCode, joinCookie, notOffered, problemPage, readJoinBody } = joinAnswers(deps, { join, notifications })

  return new Elysia({ name: 'lobby.join' })
    .get(`${ASSETS}/:file`, ({ params }) => {
      const asset = [JOIN_STYLES, POSTER_STYLES, POSTER_JS].find((a) => a.path === `${ASSETS}/${params.file}`)
      if (asset === undefined) throw new ApiError(404, CommonCodes.NOT_FOUND, 'no such asset')
      const type = asset.path.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8'
      return new Response(asset.body, { headers: { 'content-type': type, 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' } })
    }, { detail: { hide: true } })
    .get('/join/:locationId', ({ params, query, request }) => {
      const now = deps.clock.now()
      const place = join.place(params.locationId)
      if (place === null) return notOffered(request)
      const lang = pageLanguage(place, request, query.lang)
      const active = join.activeTicket(place, cookieCode(request), now)
      const html = renderJoinPage(place, request, lang, query.lang, now, active, active === null ? contactForm(place) : null)
      return new Response(html, { status: 200, headers: pageHeaders })
    }, { detail: { hide: true } })
    .post('/join/:locationId', async ({ params, request, server }) => {
      const now = deps.clock.now()
      const asJson = isJsonContentType(request)
      const place = join.place(params.locationId)
      if (place === null) {
        // Refused before its body is read: the connection closes (contract §23).
        const error = closingConnection(new ApiError(404, JoinCodes.JOIN_NOT_OFFERED, 'joining from a phone is not offered at this location'))
        if (asJson) throw error
        return notOffered(request, { connection: 'close' })
      }
      let lang = pageLanguage(place, request, undefined)
      let body: JoinRequest | null = null
      try {
        // Contract §23, §27: every check that needs only the headers, then the address's window;
        // the body is read only then, from the anonymous forms' budget.
        const { raw } = await admitAnonymousForm(deps, request, server, { limit: MAX_JOIN_BODY, before: () => {
          assertSameOrigin(request, deps.publicOrigin, 'a ticket is taken only from a page of this server (Origin does not match)')
          const address = deps.clients.of(request, server).address
          if (!join.networkAllows(place, address)) throw new ApiError(403, JoinCodes.NETWORK_FORBIDDEN, 'joining from a phone is open only on the branch\'s own network')
          const active = join.activeTicket(place, cookieCode(request), now)
          if (active !== null) {
            throw new ApiError(409, JoinCodes.ACTIVE_TICKET, 'this browser already has a ticket here', [{ path: 'Cookie', message: trackingPath(active.trackingCode ?? '') }])
          }
          const type = request.headers.get('content-type')?.toLowerCase() ?? ''
          if (!asJson && !type.includes('application/x-www-form-urlencoded')) {
            throw new ApiError(400, JoinCodes.INVALID_REQUEST, 'send the form (application/x-www-form-urlencoded) or JSON (application/json)')
          }
        }, rate: (address) => join.admitPerAddress(place, address, now) })
        body = readJoinBody(raw, asJson)
        const language = body.language === undefined ? null : join.languageOf(place, body.language)
        if (body.language !== undefined && language === null) {
          throw new ApiError(422, JoinCodes.VALIDATION_FAILED, 'request validation failed', [{ path: pointer('language'), message: `must be one of this branch's languages: ${place.languages.join(', ')}` }])
        }
        if (language !== null) lang = language
        const contacts = contactsOf(place, body)
        const serviceId = body.serviceId
        const key = body.key ?? null
        const outcome = await deps.writes.run(() => {
          const issued = join.issue(place, serviceId, language, key, now)
          // Contract §25: the number and address are the new ticket's, stored in its own write (a replay's ticket has them already).
          if (contacts.length > 0 && !issued.replayed) {
            const url = (JSON.parse(issued.body) as { data: { trackingUrl: string } }).data.trackingUrl
            const ticket = deps.tickets.byTrackingCode(url.slice(trackingPath('').length))
            if (ticket !== null) for (const contact of contacts) notifications.optIn(ticket, contact, now)
          }
          return issued
        })
        const ticket = (JSON.parse(outcome.body) as { data: { trackingUrl: string } }).data
        const code = ticket.trackingUrl.slice(trackingPath('').length)
        const headers: Record<string, string> = { 'set-cookie': joinCookie(place, code, request), 'cache-control': 'no-store' }
        if (outcome.replayed) headers['idempotent-replayed'] = 'true'
        if (asJson) return json(201, { data: { ticket, trackingUrl: ticket.trackingUrl } }, { ...headers, location: ticket.trackingUrl })
        // 303: the browser follows with a GET, so a reload of the phone page never posts again.
        return new Response(null, { status: 303, headers: { ...headers, location: ticket.trackingUrl } })
      } catch (error) {
        if (asJson || !(error instanceof ApiError)) throw error
        if (error.status === 422 && body !== null) {
          const again = contactProblemPage(place, request, lang, body, error, now)
          if (again !== null) return again
        }
        return problemPage(place, lang, localeOf(request, lang), error)
      }
    }, { parse: 'none', detail: issueJoinTicketDocs })
    .get('/join/:locationId/poster', ({ params, query, request }) => {
      const place = join.place(params.locationId)
      if (place === null) return notOffered(request)
      const lang = pageLanguage(place, request, query.lang)
      const others = place.languages.filter((l) => l !== lang)
      const joinUrl = `${serverOrigin(request, deps.publicOrigin)}/join/${encodeURIComponent(place.locationId)}`
      const html = posterPage({
        lang,
        branchName: resolveName(place.unitName, lang, place.defaultLanguage),
        locationName: resolveName(place.locationName, lang, place.defaultLanguage),
        // The unit's other languages beneath (a poster speaks to everyone who walks past), each once.
        otherNames: [...new Set(others.map((l) => `${resolveName(place.unitName, l, place.defaultLanguage)} · ${resolveName(place.locationName, l, place.defaultLanguage)}`))]
          .filter((n) => n !== `${resolveName(place.unitName, lang, place.defaultLanguage)} · ${resolveName(place.locationName, lang, place.defaultLanguage)}`),
        joinUrl,
        stylesheet: POSTER_STYLES.path,
        script: POSTER_JS.path,
      })
      return new Response(html, { status: 200, headers: posterHeaders })
    }, { detail: { hide: true } })
}
