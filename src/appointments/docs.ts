import { routeDetail } from '../platform/openapi'
import { IDEMPOTENCY_KEY_MAX } from '../queue'
import { TrackedQueueTicket } from '../tickets'
import { KioskTicketResponse } from '../kiosk'
import { AppointmentCodes as C, AppointmentErrorExamples } from './errors'
import { Appointment, AppointmentListResponse, AppointmentReportResponse, AppointmentReportRow, AppointmentResponse, BookAppointmentRequest, CheckInResponse, Slot, SlotsResponse } from './model'

/*
 * The OpenAPI details of contract §21's routes (src/appointments/routes.ts).
 */

const APPOINTMENT_EXAMPLE = {
  id: 'apt_01JD6ZB2P1F0S9E8D7C6B5A4Z3', code: 'K7MX3QPA', status: 'BOOKED', queueUnitId: 'qu_main', locationId: 'loc_hall', serviceId: 'svc_accounts',
  startAt: '2026-11-26T09:00:00.000Z', endAt: '2026-11-26T09:15:00.000Z', localDate: '2026-11-26', name: 'Amal Haddad', phone: '+44 20 7946 0000', email: null,
  ticketId: null, bookingUrl: '/b/K7MX3QPA', createdBy: { type: 'key', id: 'cred_01JD6Z' }, createdAt: '2026-11-25T09:30:00.000Z',
  checkedInAt: null, cancelledAt: null, missedAt: null, erasedAt: null,
}

const idempotencyHeader = (required: boolean) => ({
  'Idempotency-Key': {
    description: required ? 'one per booking attempt, reused on a retry: the same key and body return the same booking' : 'optional: a retry with the same key returns the first answer',
    example: '6f1c2e9a-4b7d-4c1e-9a53-2f0d8b7c6e11',
    required,
    schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX },
  },
})

const access = 'A Queue key with `appointments:write` (limited to its locations and services), a paired desk (its location and counter\'s services), or the session of a manager (its units) or an admin; a clerk\'s session is 403 ROLE_FORBIDDEN.'
const readErrors = { 401: [C.AUTHENTICATION_FAILED], 403: [C.SCOPE_FORBIDDEN, C.ROLE_FORBIDDEN, C.LOCATION_FORBIDDEN, C.SERVICE_FORBIDDEN, C.QUEUE_UNIT_INACTIVE], 422: [C.VALIDATION_FAILED, C.SLOT_UNAVAILABLE], 429: [C.RATE_LIMITED] }
const writeErrors = {
  400: [C.INVALID_REQUEST, C.INVALID_JSON],
  401: [C.AUTHENTICATION_FAILED],
  403: [C.SCOPE_FORBIDDEN, C.ROLE_FORBIDDEN, C.ORIGIN_FORBIDDEN, C.CLERK_SIGN_IN_REQUIRED, C.LOCATION_FORBIDDEN, C.SERVICE_FORBIDDEN, C.QUEUE_UNIT_INACTIVE],
  404: [C.APPOINTMENT_NOT_FOUND],
  409: [C.IDEMPOTENCY_KEY_REUSED, C.APPOINTMENT_NOT_BOOKED],
  413: [C.PAYLOAD_TOO_LARGE],
  422: [C.VALIDATION_FAILED],
  429: [C.RATE_LIMITED],
}

const { 404: _noneMissing, ...bookErrors } = writeErrors

export const listAppointmentsDocs = routeDetail({
  operationId: 'listAppointments',
  summary: 'A location\'s appointments of a day',
  description: `Every appointment of the location's local date (all statuses), by start time; \`serviceId\` narrows to one service. ${access}`,
  tags: ['Appointments'],
  security: 'operatorOrSession',
  query: {
    date: { description: 'the location\'s local date', required: true, example: '2026-11-26', schema: { type: 'string', format: 'date' } },
    locationId: { description: 'the location', required: true, example: 'loc_hall', schema: { type: 'string' } },
    serviceId: { description: 'one service only', example: 'svc_accounts', schema: { type: 'string' } },
  },
  responses: { 200: { description: 'the appointments', name: 'AppointmentListResponse', schema: AppointmentListResponse, example: { data: [APPOINTMENT_EXAMPLE] } } },
  errors: { ...readErrors, 422: [C.VALIDATION_FAILED] },
  errorExamples: AppointmentErrorExamples,
  schemas: { Appointment },
})

export const listSlotsDocs = routeDetail({
  operationId: 'listAppointmentSlots',
  summary: 'Free seats per slot of a service on a day',
  description:
    `Slots of \`slotMinutes\` from the start of each of the service's open windows that day (location hours narrowed by the service's, in the location's time zone; ` +
    `a daylight-saving day has the slots its wall clock has), each wholly inside its window. Past slots and days outside the booking window (today and the next ` +
    `bookAheadDays − 1 days) list none. \`capacity\` is \`capacityPerSlot\`, else the service's active counters at the location. ${access}`,
  tags: ['Appointments'],
  security: 'operatorOrSession',
  query: {
    date: { description: 'the location\'s local date', required: true, example: '2026-11-26', schema: { type: 'string', format: 'date' } },
    locationId: { description: 'the location', required: true, example: 'loc_hall', schema: { type: 'string' } },
    serviceId: { description: 'the service', required: true, example: 'svc_accounts', schema: { type: 'string' } },
  },
  responses: {
    200: {
      description: 'the slots', name: 'SlotsResponse', schema: SlotsResponse,
      example: { data: { locationId: 'loc_hall', serviceId: 'svc_accounts', date: '2026-11-26', timezone: 'Europe/Berlin', slotMinutes: 15, slots: [{ startAt: '2026-11-26T08:00:00.000Z', endAt: '2026-11-26T08:15:00.000Z', localTime: '09:00', capacity: 2, booked: 1, free: 1 }] } },
    },
  },
  errors: readErrors,
  errorExamples: AppointmentErrorExamples,
  schemas: { Slot },
})

export const bookAppointmentDocs = routeDetail({
  operationId: 'bookAppointment',
  summary: 'Book a slot',
  description:
    'Takes one seat of the slot starting at `startAt`. The last free seat goes to exactly one of racing bookings (counted in the booking\'s own transaction): ' +
    'the others get 409 SLOT_FULL. A time that is not a slot is 422 SLOT_UNAVAILABLE whose detail names the reason: `OUTSIDE_HOURS`, `IN_THE_PAST`, ' +
    '`BEYOND_BOOKING_WINDOW`, `APPOINTMENTS_DISABLED`. The same name, phone, e-mail and slot is one booking: 200 with the existing one, no second seat. ' +
    `Webhook \`appointment.booked\`. Checks: credential → body (4 KB) → headers → JSON → schema → idempotency lookup → location and service → slot → seat → write. ${access}`,
  tags: ['Appointments'],
  security: 'operatorOrSession',
  headers: idempotencyHeader(true),
  body: {
    name: 'BookAppointmentRequest',
    schema: BookAppointmentRequest,
    examples: {
      phone: { summary: 'with a phone number', value: { locationId: 'loc_hall', serviceId: 'svc_accounts', startAt: '2026-11-26T09:00:00.000Z', name: 'Amal Haddad', phone: '+44 20 7946 0000' } },
      bare: { summary: 'a name only', value: { locationId: 'loc_hall', serviceId: 'svc_accounts', startAt: '2026-11-26T10:00:00+01:00', name: 'Jonas Weber' } },
    },
  },
  responses: {
    201: { description: 'booked', name: 'AppointmentResponse', schema: AppointmentResponse, example: { data: APPOINTMENT_EXAMPLE }, headers: { 'Idempotent-Replayed': { description: '`true` on a replay', schema: { type: 'string', enum: ['true'] } } } },
    200: { description: 'the same name, contact and slot were booked already: that booking', name: 'AppointmentResponse', schema: AppointmentResponse, example: { data: APPOINTMENT_EXAMPLE } },
  },
  errors: { ...bookErrors, 409: [C.IDEMPOTENCY_KEY_REUSED, C.SLOT_FULL], 422: [C.VALIDATION_FAILED, C.SLOT_UNAVAILABLE] },
  errorExamples: AppointmentErrorExamples,
  schemas: { Appointment },
})

export const cancelAppointmentDocs = routeDetail({
  operationId: 'cancelAppointment',
  summary: 'Cancel a booking',
  description: `BOOKED → CANCELLED; the seat is free again. Anything else is 409 APPOINTMENT_NOT_BOOKED. Webhook \`appointment.cancelled\`. ${access}`,
  tags: ['Appointments'],
  security: 'operatorOrSession',
  params: { id: { description: 'the appointment (apt_…)', required: true, example: 'apt_01JD6ZB2P1F0S9E8D7C6B5A4Z3', schema: { type: 'string' } } },
  headers: idempotencyHeader(false),
  responses: { 200: { description: 'cancelled', name: 'AppointmentResponse', schema: AppointmentResponse, example: { data: { ...APPOINTMENT_EXAMPLE, status: 'CANCELLED', cancelledAt: '2026-11-25T10:00:00.000Z' } } } },
  errors: writeErrors,
  errorExamples: AppointmentErrorExamples,
})

const CHECK_IN_EXAMPLE = {
  data: {
    appointment: { ...APPOINTMENT_EXAMPLE, status: 'CHECKED_IN', ticketId: 'tkt_01JD6ZC', checkedInAt: '2026-11-26T08:55:00.000Z' },
    ticket: {
      id: 'tkt_01JD6ZC', ticketId: 'tkt_01JD6ZC', ticketNumber: 'A012', status: 'WAITING', source: 'APPOINTMENT', queueUnitId: 'qu_main', locationId: 'loc_hall',
      serviceId: 'svc_accounts', externalReference: null, createdAt: '2026-11-26T08:55:00.000Z', calledAt: null, servingAt: null, completedAt: null, priority: false, transfer: null, trackingUrl: '/t/k3v9q2m7x4c8h6b5n2r7t3w4',
    },
  },
}

export const checkInAppointmentDocs = routeDetail({
  operationId: 'checkInAppointment',
  summary: 'Check in (a desk or the API)',
  description:
    'Inside the check-in window (`checkIn.earlyMinutes` before the slot start to `checkIn.lateMinutes` after it) issues a ticket, source APPOINTMENT, ' +
    'called among the counter\'s services before the walk-ins created after the slot start (its rank goes just before the first of them). Early: 409 ' +
    `CHECK_IN_TOO_EARLY; late: 409 CHECK_IN_TOO_LATE (take a normal ticket). Webhooks \`appointment.checked_in\` and \`ticket.created\`. ${access}`,
  tags: ['Appointments'],
  security: 'operatorOrSession',
  params: { id: { description: 'the appointment (apt_…)', required: true, example: 'apt_01JD6ZB2P1F0S9E8D7C6B5A4Z3', schema: { type: 'string' } } },
  headers: idempotencyHeader(false),
  responses: { 201: { description: 'checked in: the booking and its ticket', name: 'CheckInResponse', schema: CheckInResponse, example: CHECK_IN_EXAMPLE } },
  errors: { ...writeErrors, 409: [C.IDEMPOTENCY_KEY_REUSED, C.APPOINTMENT_NOT_BOOKED, C.CHECK_IN_TOO_EARLY, C.CHECK_IN_TOO_LATE, C.QUEUE_UNIT_EDGE_MANAGED] },
  errorExamples: AppointmentErrorExamples,
  schemas: { TrackedQueueTicket },
})

export const kioskCheckInDocs = routeDetail({
  operationId: 'checkInAppointmentAtKiosk',
  summary: '"I have an appointment" at a kiosk',
  description:
    'For a paired kiosk: the typed booking code (case does not matter) of an appointment at the kiosk\'s location, checked in by the rules of ' +
    '`checkInAppointment`. CHECK_IN_TOO_LATE tells the kiosk to offer a normal ticket. Checks: credential → Origin → body (1 KB) → JSON → schema → code.',
  tags: ['Kiosk'],
  security: 'deviceCookie',
  body: { name: 'KioskCheckInRequest', schema: { type: 'object', required: ['code'], properties: { code: { type: 'string', maxLength: 16 }, language: { type: 'string' } }, additionalProperties: false }, examples: { code: { summary: 'a typed code', value: { code: 'k7mx3qpa', language: 'en' } } } },
  responses: {
    201: {
      description: 'checked in: the ticket as the kiosk\'s ticket screen shows it', name: 'KioskTicketResponse', schema: KioskTicketResponse,
      example: { data: { ticket: CHECK_IN_EXAMPLE.data.ticket, language: 'en', branchName: 'Main branch', serviceName: 'Accounts', locationName: 'Main hall', timezone: 'Europe/Berlin', peopleAhead: 1, estimatedWaitSeconds: 300, noCounterOpen: false, counterFree: false, printPath: '/kiosk/tickets/tkt_01JD6ZC/print', appointmentAt: '2026-11-25T09:30:00.000Z' } },
    },
  },
  errors: { 400: [C.INVALID_REQUEST, C.INVALID_JSON], 401: [C.AUTHENTICATION_FAILED], 403: [C.ORIGIN_FORBIDDEN, C.QUEUE_UNIT_INACTIVE], 404: [C.APPOINTMENT_NOT_FOUND], 409: [C.APPOINTMENT_NOT_BOOKED, C.CHECK_IN_TOO_EARLY, C.CHECK_IN_TOO_LATE, C.QUEUE_UNIT_EDGE_MANAGED], 413: [C.PAYLOAD_TOO_LARGE], 422: [C.VALIDATION_FAILED] },
  errorExamples: AppointmentErrorExamples,
})

const reportQuery = {
  from: { description: 'first local date', required: true, example: '2026-11-01', schema: { type: 'string', format: 'date' } },
  to: { description: 'last local date (at most 92 days after from)', required: true, example: '2026-11-30', schema: { type: 'string', format: 'date' } },
}
const reportErrors = { 401: [C.AUTHENTICATION_FAILED], 403: [C.SCOPE_FORBIDDEN, C.ROLE_FORBIDDEN], 422: [C.VALIDATION_FAILED], 429: [C.RATE_LIMITED] }
const reportAccess = 'As the other reports: a Queue key with `reports:read` (its locations and services), a paired reports device (its unit), or the session of a manager (its units) or an admin; a clerk\'s session is 403 ROLE_FORBIDDEN. Counts as one read of the reader\'s read window.'

export const appointmentReportDocs = routeDetail({
  operationId: 'readAppointmentReport',
  summary: 'Appointments per day and service',
  description:
    'Per local date, location and service (dates `from`..`to`, at most 92 days): booked (not cancelled), cancelled, kept (checked in), missed, late ' +
    `(checked in after the slot start) and the wait from check-in to the ticket's first call. The same as CSV: readAppointmentReportCsv. ${reportAccess}`,
  tags: ['Reports'],
  security: 'operatorOrSession',
  query: reportQuery,
  responses: {
    200: {
      description: 'the rows', name: 'AppointmentReportResponse', schema: AppointmentReportResponse,
      example: { data: [{ date: '2026-11-26', locationId: 'loc_hall', serviceId: 'svc_accounts', booked: 12, cancelled: 2, kept: 10, missed: 2, late: 3, waitAfterCheckInSeconds: { count: 10, avg: 240, max: 600 } }] },
    },
  },
  errors: reportErrors,
  errorExamples: AppointmentErrorExamples,
  schemas: { AppointmentReportRow },
})

export const appointmentReportCsvDocs = routeDetail({
  operationId: 'readAppointmentReportCsv',
  summary: 'Appointments per day and service, as CSV',
  description: `readAppointmentReport's rows as RFC 4180 CSV (CRLF), one column per field, nested ones joined in lowerCamelCase; an empty cell for null. ${reportAccess}`,
  tags: ['Reports'],
  security: 'operatorOrSession',
  query: reportQuery,
  responses: {
    200: {
      description: 'the CSV file', name: 'AppointmentReportCsv', mediaType: 'text/csv', schema: { type: 'string', description: 'RFC 4180 CSV, CRLF line ends, a header row' },
      example: 'date,locationId,serviceId,booked,cancelled,kept,missed,late,waitAfterCheckInSecondsCount,waitAfterCheckInSecondsAvg,waitAfterCheckInSecondsMax\r\n2026-11-26,loc_hall,svc_accounts,12,2,10,2,3,10,240,600\r\n',
    },
  },
  errors: reportErrors,
  errorExamples: AppointmentErrorExamples,
})
