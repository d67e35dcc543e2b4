/*
 * The appointments feature's door (contract §21): what the root, the retention job and the
 * desk use of it.
 */
export { AppointmentService, missedAppointmentsTask, eraseAppointmentContacts, appointmentJson, settingsOf, newBookingCode, bookingPath, type AppointmentRow, type AppointmentScope } from './service'
export { AppointmentCodes, type AppointmentCode } from './errors'
export { BOOKING_CODE_ALPHABET, BOOKING_CODE_LENGTH, Appointment } from './model'
export { calendarFile } from './ics'
