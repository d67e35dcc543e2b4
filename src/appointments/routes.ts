import { Elysia } from 'elysia'
import { Type } from '@sinclair/typebox'
import canonicalize from 'canonicalize'
import type { AppointmentDeps } from './deps'
import { ApiError } from '../platform/errors'
import { KiB, assertJsonContentType, parseJsonBytes, readBodyLimited } from '../platform/body'
import { json } from '../platform/http'
import { sha256Hex } from '../platform/idempotency'
import { assertSchema } from '../platform/validation'
import { inReadTransaction } from '../platform/transactions'
import type { KioskService } from '../kiosk'
import { toCsv } from '../reports'
import type { AdmissionPlugin, AppointmentCaller, ReportReader } from '../access'
import { AppointmentCodes } from './errors'
import { appointmentJson, REPORT_MAX_DAYS, type AppointmentService } from './service'
import { bookingPages } from './pages'
import {
  bookAppointmentDocs, cancelAppointmentDocs, checkInAppointmentDocs, kioskCheckInDocs, listAppointmentsDocs, listSlotsDocs, appointmentReportDocs, appointmentReportCsvDocs,
} from './docs'
import { ACTION_KEY, BOOK_KEY, CODE, MAX_BODY, checkBook, checkInJson, checkKiosk, checkNoBody, dateParam, notFound, query, readHeaders, requiredParam } from './requests'

export { checkInJson, dateParam } from './requests'

const BASE = '/api/operator/v1/appointments'
/** The CSV's columns (contract §12's rule: the JSON fields, nested ones joined in lowerCamelCase). */
export const APPOINTMENT_CSV_HEADER = ['date', 'locationId', 'serviceId', 'booked', 'cancelled', 'kept', 'missed', 'late', 'waitAfterCheckInSecondsCount', 'waitAfterCheckInSecondsAvg', 'waitAfterCheckInSecondsMax']


/**
 * Contract §21's routes: the operator API at /api/operator/v1/appointments (a Queue key with
 * `appointments:write`, a paired desk, or a manager's or admin's session), the kiosk's check-in
 * by code, the report, and the customer's pages (`/book/{locationId}`, `/b/{code}`, pages.ts).
 */
export function appointmentRoutes(
  deps: AppointmentDeps,
  { appointments: service, kiosk, access }: { appointments: AppointmentService; kiosk: KioskService; access: AdmissionPlugin },
) {
  /** Credential (before the body, `admitAppointments`) → body (4 KB) → headers. */
  const admit = (bucket: 'read' | 'issue') => ({ bucket, body: MAX_BODY })

  /**
   * The write of a POST in one transaction with its Idempotency-Key: the same key and body
   * replays the stored answer (`Idempotent-Replayed: true`), another body is 409
   * IDEMPOTENCY_KEY_REUSED; only a 2xx is kept.
   */
  function idempotent(caller: AppointmentCaller, route: string, key: string | null, payload: unknown, work: () => { status: number; body: unknown }): Promise<Response> {
    const scope = `appointment:${route}:${caller.keyScope}`
    const requestHash = sha256Hex(canonicalize(payload ?? {})!)
    return deps.writes.run(() => {
      const stored = key === null ? null : deps.idempotency.find(scope, key, deps.clock.now())
      if (stored !== null) {
        if (stored.requestHash !== requestHash) throw new ApiError(409, AppointmentCodes.IDEMPOTENCY_KEY_REUSED, 'this Idempotency-Key was used with a different payload; use a new key')
        return json(stored.status, JSON.parse(stored.body), { ...stored.headers, 'idempotent-replayed': 'true' })
      }
      const { status, body } = work()
      const text = JSON.stringify(body)
      if (key !== null) deps.idempotency.save(scope, key, { requestHash, status, body: text, headers: {} }, deps.clock.now())
      return json(status, body)
    })
  }

  /** The report's rows for the caller (its reach) and `from`..`to` (422 naming the bad one). */
  function reportRows(request: Request, { queueUnitIds, locations, services }: ReportReader) {
    const scope = { queueUnitIds: queueUnitIds === null ? null : [...queueUnitIds], locations, services }
    const url = new URL(request.url)
    const from = dateParam(url, 'from')!
    const to = dateParam(url, 'to')!
    const days = (Date.parse(to) - Date.parse(from)) / 86_400_000
    if (days < 0 || days >= REPORT_MAX_DAYS) throw new ApiError(422, AppointmentCodes.VALIDATION_FAILED, 'request validation failed', [{ path: '/to', message: `must be on or after from, at most ${REPORT_MAX_DAYS} days` }])
    return service.report(scope, from, to)
  }

  return new Elysia({ name: 'lobby.appointments' })
    .use(access)
    .get(BASE, ({ request, principal: caller }) => {
      const url = new URL(request.url)
      const date = dateParam(url, 'date')!
      const locationId = requiredParam(url, 'locationId')
      const serviceId = query(url, 'serviceId')
      return inReadTransaction(deps.db, () => {
        const location = service.location(locationId)
        if (location === null || (caller.scope.queueUnitIds !== null && !caller.scope.queueUnitIds.includes(location.queueUnitId))) {
          throw new ApiError(422, AppointmentCodes.VALIDATION_FAILED, 'request validation failed', [{ path: '/locationId', message: 'no such location' }])
        }
        if (caller.scope.locations !== null && !caller.scope.locations.includes(locationId)) throw new ApiError(403, AppointmentCodes.LOCATION_FORBIDDEN, 'this caller may not use this location')
        if (serviceId !== undefined && caller.scope.services !== null && !caller.scope.services.includes(serviceId)) throw new ApiError(403, AppointmentCodes.SERVICE_FORBIDDEN, 'this caller may not use this service')
        const rows = service.list(locationId, date, serviceId).filter((r) => caller.scope.services === null || caller.scope.services.includes(r.serviceId))
        return json(200, { data: rows.map(appointmentJson) })
      })
    }, { parse: 'none', admitAppointments: admit('read'), detail: listAppointmentsDocs })
    .get(`${BASE}/slots`, ({ request, principal: caller, now }) => {
      const url = new URL(request.url)
      const date = dateParam(url, 'date')!
      const target = service.target(caller.scope, requiredParam(url, 'locationId'), requiredParam(url, 'serviceId'))
      return inReadTransaction(deps.db, () => json(200, {
        data: {
          locationId: target.location.id, serviceId: target.service.id, date, timezone: target.location.timezone,
          slotMinutes: target.settings.slotMinutes, slots: service.slots(target, date, now),
        },
      }))
    }, { parse: 'none', admitAppointments: admit('read'), detail: listSlotsDocs })
    .post(BASE, async ({ request, principal: caller, now }) => {
      const raw = await readBodyLimited(request, MAX_BODY)
      const key = readHeaders(request, raw, BOOK_KEY, true)
      const body = parseJsonBytes(raw)
      assertSchema(checkBook, body, AppointmentCodes.VALIDATION_FAILED)
      return idempotent(caller, 'book', key, body, () => {
        const target = service.target(caller.scope, body.locationId, body.serviceId)
        const { row, created } = service.book(target, body, caller.who, now)
        return { status: created ? 201 : 200, body: { data: appointmentJson(row) } }
      })
    }, { parse: 'none', admitAppointments: admit('issue'), detail: bookAppointmentDocs })
    .post(`${BASE}/:id/cancel`, async ({ request, params, principal: caller, now }) => {
      const raw = await readBodyLimited(request, MAX_BODY)
      const key = readHeaders(request, raw, ACTION_KEY, false)
      if (raw.byteLength > 0) assertSchema(checkNoBody, parseJsonBytes(raw), AppointmentCodes.VALIDATION_FAILED)
      return idempotent(caller, `cancel:${params.id}`, key, {}, () => {
        const row = service.visible(caller.scope, params.id)
        if (row === null) throw notFound()
        return { status: 200, body: { data: appointmentJson(service.cancel(row, caller.who.actor, now)) } }
      })
    }, { parse: 'none', params: Type.Object({ id: Type.String() }), admitAppointments: admit('issue'), detail: cancelAppointmentDocs })
    .post(`${BASE}/:id/check-in`, async ({ request, params, principal: caller, now }) => {
      const raw = await readBodyLimited(request, MAX_BODY)
      const key = readHeaders(request, raw, ACTION_KEY, false)
      if (raw.byteLength > 0) assertSchema(checkNoBody, parseJsonBytes(raw), AppointmentCodes.VALIDATION_FAILED)
      return idempotent(caller, `check-in:${params.id}`, key, {}, () => {
        const row = service.visible(caller.scope, params.id)
        if (row === null) throw notFound()
        return { status: 201, body: { data: checkInJson(service.checkIn(row, caller.who, now)) } }
      })
    }, { parse: 'none', params: Type.Object({ id: Type.String() }), admitAppointments: admit('issue'), detail: checkInAppointmentDocs })
    .post('/api/devices/v1/kiosk/appointments/check-in', async ({ request, principal: device }) => {
      const now = deps.clock.now()
      const raw = await readBodyLimited(request, 1 * KiB)
      assertJsonContentType(request)
      const body = parseJsonBytes(raw)
      assertSchema(checkKiosk, body, AppointmentCodes.VALIDATION_FAILED)
      const code = body.code.trim().toUpperCase()
      return deps.writes.run(() => {
        const row = CODE.test(code) ? service.byCode(code) : null
        // A kiosk checks in only its own location's appointments.
        if (row === null || row.locationId !== device.locationId) throw new ApiError(404, AppointmentCodes.APPOINTMENT_NOT_FOUND, 'no appointment with this code at this location')
        const language = body.language !== undefined && (JSON.parse(service.unit(row.queueUnitId)!.languages) as string[]).includes(body.language) ? body.language : null
        const { ticket } = service.checkIn(row, { actor: `device:${device.name}`, credentialId: device.credentialId }, now, language)
        // The kiosk's own ticket screen shows it (number, people ahead, wait, QR, print).
        return json(201, { data: kiosk.ticketView(device, ticket) })
      })
    }, { parse: 'none', admitDevice: { roles: ['kiosk'], body: 1 * KiB }, detail: kioskCheckInDocs })
    .get('/api/operator/v1/reports/appointments', ({ request, principal }) => json(200, { data: reportRows(request, principal) }), { parse: 'none', admitReportReader: 'read', detail: appointmentReportDocs })
    .get('/api/operator/v1/reports/appointments/csv', ({ request, principal }) => {
      const url = new URL(request.url)
      const rows = reportRows(request, principal)
      return new Response(toCsv(rows, APPOINTMENT_CSV_HEADER), {
        headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="appointments-${query(url, 'from')}-${query(url, 'to')}.csv"` },
      })
    }, { parse: 'none', admitReportReader: 'read', detail: appointmentReportCsvDocs })
    .use(bookingPages(deps, service))
}
