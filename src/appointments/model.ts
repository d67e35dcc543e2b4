import { Type, type Static } from '@sinclair/typebox'
import { APPOINTMENT_STATUSES } from './tables'
import { ActorJson } from '../tickets'

/*
 * Contract §21's wire shapes: a booking, a slot with its free seats, the booking request, the
 * check-in's answer and the report row.
 */

/** 8 characters of an alphabet without 0/O, 1/I/L and U (read aloud and typed on a kiosk without doubt). */
export const BOOKING_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ'
export const BOOKING_CODE_LENGTH = 8
export const BOOKING_CODE_PATTERN = `^[${BOOKING_CODE_ALPHABET}]{${BOOKING_CODE_LENGTH}}$`

export const NAME_MAX = 100
export const PHONE_PATTERN = '^\\+?[0-9 ()./-]{5,30}$'
export const EMAIL_PATTERN = '^[^\\s@]{1,64}@[^\\s@]{1,190}\\.[^\\s@]{2,63}$'

const Iso = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' })
const Id = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z][a-z0-9_]{0,63}$' })
const LocalDateString = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'the location\'s local date, YYYY-MM-DD' })

export const Appointment = Type.Object({
  id: Type.String({ description: 'apt_…' }),
  code: Type.String({ pattern: BOOKING_CODE_PATTERN, description: 'the 8-character booking code, the capability of /b/{code}' }),
  status: Type.Union(APPOINTMENT_STATUSES.map((s) => Type.Literal(s))),
  queueUnitId: Type.String(),
  locationId: Type.String(),
  serviceId: Type.String(),
  startAt: Iso,
  endAt: Iso,
  localDate: LocalDateString,
  name: Type.Union([Type.String(), Type.Null()], { description: 'null once erased (retainDays after the appointment)' }),
  phone: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  ticketId: Type.Union([Type.String(), Type.Null()], { description: 'the ticket issued at check-in (source APPOINTMENT)' }),
  bookingUrl: Type.String({ description: 'path of the booking page, /b/{code}' }),
  createdBy: ActorJson,
  createdAt: Iso,
  checkedInAt: Type.Union([Iso, Type.Null()]),
  cancelledAt: Type.Union([Iso, Type.Null()]),
  missedAt: Type.Union([Iso, Type.Null()]),
  erasedAt: Type.Union([Iso, Type.Null()]),
}, { description: 'An appointment (contract §21)' })
export type AppointmentJson = Static<typeof Appointment>

export const AppointmentResponse = Type.Object({ data: Appointment })
export const AppointmentListResponse = Type.Object({ data: Type.Array(Appointment) })

export const Slot = Type.Object({
  startAt: Iso,
  endAt: Iso,
  /** Local wall-clock start `HH:mm` in the location's zone. */
  localTime: Type.String({ pattern: '^\\d{2}:\\d{2}$' }),
  capacity: Type.Integer({ minimum: 0 }),
  booked: Type.Integer({ minimum: 0 }),
  free: Type.Integer({ minimum: 0 }),
})
export type SlotJson = Static<typeof Slot>
export const SlotsResponse = Type.Object({
  data: Type.Object({
    locationId: Type.String(),
    serviceId: Type.String(),
    date: LocalDateString,
    timezone: Type.String(),
    slotMinutes: Type.Integer(),
    slots: Type.Array(Slot),
  }),
})

export const BookAppointmentRequest = Type.Object({
  locationId: Id,
  serviceId: Id,
  startAt: Type.String({ minLength: 1, maxLength: 40, description: 'the slot start, ISO 8601 with offset (as GET …/slots lists it)' }),
  name: Type.String({ minLength: 1, maxLength: NAME_MAX }),
  phone: Type.Optional(Type.String({ pattern: PHONE_PATTERN })),
  email: Type.Optional(Type.String({ pattern: EMAIL_PATTERN, maxLength: 254 })),
}, { additionalProperties: false })
export type BookAppointmentRequest = Static<typeof BookAppointmentRequest>

export const NoBody = Type.Object({}, { additionalProperties: false })

export const CheckInResponse = Type.Object({
  data: Type.Object({
    appointment: Appointment,
    ticket: Type.Object({
      id: Type.String(), ticketNumber: Type.String(), status: Type.String(), source: Type.Literal('APPOINTMENT'),
      serviceId: Type.String(), locationId: Type.String(), trackingUrl: Type.Union([Type.String(), Type.Null()]),
    }, { additionalProperties: true }),
  }),
})

export const AppointmentReportRow = Type.Object({
  date: LocalDateString,
  locationId: Type.String(),
  serviceId: Type.String(),
  /** Bookings for that day that were not cancelled. */
  booked: Type.Integer(),
  cancelled: Type.Integer(),
  /** Checked in. */
  kept: Type.Integer(),
  missed: Type.Integer(),
  /** Checked in after the slot start. */
  late: Type.Integer(),
  /** Seconds from check-in to the ticket's first call, over kept appointments whose ticket was called. */
  waitAfterCheckInSeconds: Type.Object({ count: Type.Integer(), avg: Type.Union([Type.Integer(), Type.Null()]), max: Type.Union([Type.Integer(), Type.Null()]) }),
})
export type AppointmentReportRowJson = Static<typeof AppointmentReportRow>
export const AppointmentReportResponse = Type.Object({ data: Type.Array(AppointmentReportRow) })
