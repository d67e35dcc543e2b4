import { describe, expect, test } from 'bun:test'
import { auditChange, fieldLabel, valueText } from '../../src/client/admin/audit-diff'
import { auditTypesFor, AUDIT_ADMIN_ONLY_TYPES } from '../../src/screens/shared/console-access'

/*
 * The audit log shows each change as its fields, before → after (contract §24): the rows the
 * Audit section draws, without a browser (src/client/admin/audit-diff.ts).
 */

const entry = (type: string, before: unknown, after: unknown) => ({ entity: { type, id: 'x' }, before, after })
const rows = (change: ReturnType<typeof auditChange>) => change.fields.map((f) => [f.label, f.before, f.after])

describe('an audit entry\'s change as its fields', () => {
  test('an update lists only the fields that differ, nested ones by their form\'s label and group', () => {
    const before = {
      queueUnitId: 'qu_main', id: 'loc_hall', name: { en: 'Main hall', ar: 'القاعة' }, timezone: 'Asia/Riyadh',
      openingHours: { mon: [['08:00', '12:00']], tue: [['08:00', '12:00']] }, closedDates: [], remoteJoin: { enabled: false },
    }
    const after = {
      ...before, name: { en: 'Main hall', ar: 'القاعة الرئيسية' },
      openingHours: { mon: [['08:00', '12:00'], ['13:00', '16:30']], tue: [['08:00', '12:00']] },
      closedDates: ['2026-12-25', '2026-12-26'], remoteJoin: { enabled: true, maxWaiting: 20 }, appointments: { slotMinutes: 15 },
    }
    const change = auditChange(entry('location', before, after), 'en')
    expect(change.kind).toBe('update')
    expect(rows(change)).toEqual([
      ['Name (Arabic)', 'القاعة', 'القاعة الرئيسية'],
      ['Opening hours, Monday', '08:00–12:00', '08:00–12:00, 13:00–16:30'],
      ['Closed dates', '—', '2026-12-25, 2026-12-26'],
      ['Customers may join from their phones', 'no', 'yes'],
      ['Customers may join from their phones, At most this many waiting per service for phone joins', null, '20'],
      // A field no form shows is named by its path.
      ['appointments.slotMinutes', null, '15'],
    ])
    const arabic = auditChange(entry('location', before, after), 'ar')
    expect(arabic.fields.map((f) => f.label).slice(0, 4)).toEqual(['الاسم (العربية)', 'ساعات العمل، الاثنين', expect.stringMatching(/^أيام الإغلاق/), 'يمكن للعملاء الانضمام من هواتفهم'])
    expect(arabic.fields[3]!.after).toBe('نعم')
  })

  test('a counter renamed: one row, Name; its unchanged fields are not listed', () => {
    const counter = { queueUnitId: 'qu_main', id: 'cnt_2', name: 'Counter 2', locationId: 'loc_hall', services: ['svc_a'], active: true }
    expect(rows(auditChange(entry('counter', counter, { ...counter, name: 'Window 2' }), 'en'))).toEqual([['Name', 'Counter 2', 'Window 2']])
    // A name that became one per language is one row too: its shape changed.
    expect(rows(auditChange(entry('counter', counter, { ...counter, name: { en: 'Counter Two', ar: 'الشباك 2' } }), 'en'))).toEqual([['Name', 'Counter 2', 'en: Counter Two, ar: الشباك 2']])
    expect(rows(auditChange(entry('counter', counter, { ...counter, services: ['svc_a', 'svc_b'], active: false }), 'en'))).toEqual([['Serves', 'svc_a', 'svc_a, svc_b'], ['Active', 'yes', 'no']])
  })

  test('a create lists the fields it set, a delete the fields it had; the same snapshots list nothing', () => {
    const service = { queueUnitId: 'qu_main', id: 'svc_x', name: 'Exchange', prefix: 'X', locations: ['loc_hall'], defaultServiceSeconds: 300 }
    const created = auditChange(entry('service', null, service), 'en')
    expect(created.kind).toBe('create')
    expect(created.fields.map((f) => [f.label, f.after])).toEqual([
      ['Queue unit', 'qu_main'], ['ID', 'svc_x'], ['Name', 'Exchange'], ['Ticket prefix', 'X'], ['Offered at', 'loc_hall'], ['Expected service time (seconds)', '300'],
    ])
    expect(created.fields.every((f) => f.before === null)).toBe(true)
    const deleted = auditChange(entry('service', service, null), 'en')
    expect(deleted.kind).toBe('delete')
    expect(deleted.fields.map((f) => f.before)).toEqual(['qu_main', 'svc_x', 'Exchange', 'X', 'loc_hall', '300'])
    expect(auditChange(entry('service', service, { ...service }), 'en').fields).toEqual([])
  })

  test('labels per entity type; values as text', () => {
    expect(fieldLabel('webhook', ['url'], 'en')).toBe('URL')
    expect(fieldLabel('webhook', ['active'], 'en')).toBe('Active (deliveries are sent)')
    expect(fieldLabel('queueUnit', ['priority', 'normalPerPriority'], 'en')).toBe('Normal tickets between two priority tickets')
    expect(fieldLabel('user', ['queueUnits'], 'ar')).toBe('وحدات الطابور')
    expect(valueText({ enabled: true, checkIn: { earlyMinutes: 15 } }, 'en')).toBe('enabled: yes, checkIn: (earlyMinutes: 15)')
    expect(valueText([{ a: 1 }, { a: 2 }], 'en')).toBe('(a: 1), (a: 2)')
    expect(valueText(null, 'en')).toBe('—')
  })

  test('the filter offers a manager no webhook or key type', () => {
    expect(auditTypesFor('admin')).toEqual(expect.arrayContaining([...AUDIT_ADMIN_ONLY_TYPES]))
    expect(auditTypesFor('manager').filter((t) => (AUDIT_ADMIN_ONLY_TYPES as readonly string[]).includes(t))).toEqual([])
    expect(auditTypesFor('manager')).toContain('counter')
  })
})
