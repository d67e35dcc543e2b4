import { describe, expect, test } from 'bun:test'
import { ApiError } from '../../src/platform/errors'
import { WidgetCodes, WidgetWarnings } from '../../src/widgets/errors'
import type { WidgetType } from '../../src/widgets/model'
import { validatePush, withItemDefaults } from '../../src/widgets/validate'
import { announcementsData, envelope, eventsData, scheduleData, transportData } from './support'

/** The 422 a body gets for a widget of `type`: its code and failing paths (with messages). */
function refusal(type: WidgetType, body: unknown) {
  try {
    validatePush(type, body)
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    expect(error.status).toBe(422)
    return { code: error.code, details: error.details ?? [], paths: (error.details ?? []).map((d) => d.path) }
  }
  throw new Error('expected the push to be refused')
}

function accepted(type: WidgetType, body: unknown) {
  return validatePush(type, body)
}

/** A copy of `data` with item 0 changed by `patch` (undefined values delete the field). */
function withItem<T extends { items: Record<string, unknown>[] }>(data: T, patch: Record<string, unknown>, index = 0): T {
  const copy = structuredClone(data)
  const item = copy.items[index]!
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete item[key]
    else item[key] = value
  }
  return copy
}

const schedule = (data: unknown = scheduleData(), source?: Record<string, unknown>) => envelope('TODAYS_SCHEDULE', data, source)

describe('envelope', () => {
  test('a valid push passes, and an absent source.sequence is a SEQUENCE_MISSING warning at its path', () => {
    const { warnings } = accepted('TODAYS_SCHEDULE', schedule())
    expect(warnings).toEqual([{ code: WidgetWarnings.SEQUENCE_MISSING, message: expect.any(String), path: '/source/sequence' }])
    expect(accepted('TODAYS_SCHEDULE', schedule(undefined, { sequence: 0 })).warnings).toEqual([])
  })

  test('every failing envelope path is listed at once', () => {
    const body = {
      pushVersion: 2,
      widgetType: 'TODAYS_SCHEDULE',
      writeMode: 'PATCH',
      source: { eventId: '', sequence: -1, generatedAt: '2026-11-25T09:30:00', extra: 1 },
      data: scheduleData(),
      note: 'unknown',
    }
    const { code, paths } = refusal('TODAYS_SCHEDULE', body)
    expect(code).toBe(WidgetCodes.SCHEMA_VALIDATION_FAILED)
    expect(paths.sort()).toEqual(
      ['/note', '/pushVersion', '/source/eventId', '/source/extra', '/source/generatedAt', '/source/sequence', '/writeMode'].sort(),
    )
  })

  test('missing required envelope fields are listed at their own paths', () => {
    expect(refusal('TODAYS_SCHEDULE', {}).paths.sort()).toEqual(['/data', '/pushVersion', '/widgetType', '/writeMode'])
  })

  test.each([[[]], ['text'], [null], [42]])('a body that is not an object (%p) is SCHEMA_VALIDATION_FAILED at /', (body) => {
    const { code, paths } = refusal('TODAYS_SCHEDULE', body)
    expect(code).toBe(WidgetCodes.SCHEMA_VALIDATION_FAILED)
    expect(paths).toContain('/')
  })

  test.each([
    [1.5, 'not an integer'],
    ['7', 'a numeric string (never coerced)'],
    [Number.MAX_SAFE_INTEGER + 1, 'above the safe integers'],
    [-1, 'negative'],
  ])('source.sequence %p is refused (%s)', (sequence) => {
    expect(refusal('TODAYS_SCHEDULE', schedule(undefined, { sequence })).paths).toEqual(['/source/sequence'])
  })

  test('source.sequence may be 0 or the largest safe integer', () => {
    expect(() => validatePush('TODAYS_SCHEDULE', schedule(undefined, { sequence: 0 }))).not.toThrow()
    expect(() => validatePush('TODAYS_SCHEDULE', schedule(undefined, { sequence: Number.MAX_SAFE_INTEGER }))).not.toThrow()
  })

  test('source.eventId is 1 to 200 characters without HTML', () => {
    expect(() => validatePush('TODAYS_SCHEDULE', schedule(undefined, { eventId: 'x'.repeat(200) }))).not.toThrow()
    expect(refusal('TODAYS_SCHEDULE', schedule(undefined, { eventId: 'x'.repeat(201) })).paths).toEqual(['/source/eventId'])
    expect(refusal('TODAYS_SCHEDULE', schedule(undefined, { eventId: '<img src=x>' })).paths).toEqual(['/source/eventId'])
  })

  test('widgetType none of the four is UNSUPPORTED_WIDGET_TYPE, whatever else is wrong', () => {
    const { code, details } = refusal('TODAYS_SCHEDULE', { ...schedule(), widgetType: 'CLOCK', pushVersion: 9 })
    expect(code).toBe(WidgetCodes.UNSUPPORTED_WIDGET_TYPE)
    expect(details).toEqual([{ path: '/widgetType', message: expect.stringContaining('TRANSPORT_BOARD') }])
  })

  test('widgetType another of the four than the widget is WIDGET_TYPE_MISMATCH naming the widget type', () => {
    const { code, details } = refusal('TODAYS_SCHEDULE', envelope('EVENTS', eventsData()))
    expect(code).toBe(WidgetCodes.WIDGET_TYPE_MISMATCH)
    expect(details).toEqual([{ path: '/widgetType', message: 'this widget is TODAYS_SCHEDULE' }])
  })

  test('a non-string widgetType is an ordinary schema failure, and the payload is still checked', () => {
    const { code, paths } = refusal('TODAYS_SCHEDULE', { ...schedule(withItem(scheduleData(), { title: undefined })), widgetType: 7 })
    expect(code).toBe(WidgetCodes.SCHEMA_VALIDATION_FAILED)
    expect(paths).toEqual(['/widgetType', '/data/items/0/title'])
  })

  test('data.schemaVersion must be 2', () => {
    expect(refusal('TODAYS_SCHEDULE', schedule({ ...scheduleData(), schemaVersion: 1 })).paths).toEqual(['/data/schemaVersion'])
  })
})

describe('HTML in any text field', () => {
  test.each([
    ['TODAYS_SCHEDULE', '/data/subtitle', schedule({ ...scheduleData(), subtitle: 'Welcome <b>all</b>' })],
    ['TODAYS_SCHEDULE', '/data/items/1/host', schedule(withItem(scheduleData(), { host: 'Dr. <i>Who</i>' }, 1))],
    ['ANNOUNCEMENTS', '/data/items/0/body', envelope('ANNOUNCEMENTS', withItem(announcementsData(), { body: 'Closed</p>' }))],
    ['ANNOUNCEMENTS', '/data/items/0/category', envelope('ANNOUNCEMENTS', withItem(announcementsData(), { category: '<!-- x -->' }))],
    ['EVENTS', '/data/items/0/description', envelope('EVENTS', withItem(eventsData(), { description: '<?php echo 1 ?>' }))],
    ['TRANSPORT_BOARD', '/data/items/1/line/shortName', envelope('TRANSPORT_BOARD', withItem(transportData(), { line: { shortName: '<span>S1' } }, 1))],
    ['TRANSPORT_BOARD', '/data/stop/name', envelope('TRANSPORT_BOARD', { ...transportData(), stop: { name: 'Main <br/> St' } })],
    ['TRANSPORT_BOARD', '/data/items/0/id', envelope('TRANSPORT_BOARD', withItem(transportData(), { id: '<a>' }))],
  ] as const)('%s: markup is refused at %s', (type, path, body) => {
    const { code, details } = refusal(type, body)
    expect(code).toBe(WidgetCodes.SCHEMA_VALIDATION_FAILED)
    expect(details).toEqual([{ path, message: 'must not contain HTML markup' }])
  })

  test('a lone < is text', () => {
    const body = schedule(withItem(scheduleData(), { title: 'Maths: 3 < 5 and 5 > 3', location: '<3 floor' }))
    expect(() => validatePush('TODAYS_SCHEDULE', body)).not.toThrow()
  })

  test('the 422 does not echo the markup', () => {
    const { details } = refusal('TODAYS_SCHEDULE', schedule({ ...scheduleData(), title: '<script>steal()</script>' }))
    expect(JSON.stringify(details)).not.toContain('steal')
  })
})

describe('TODAYS_SCHEDULE', () => {
  test('required fields: timezone, date, items; item id, title, startAt', () => {
    const data: Record<string, unknown> = withItem(scheduleData(), { id: undefined, title: undefined, startAt: undefined })
    delete data.timezone
    delete data.date
    expect(refusal('TODAYS_SCHEDULE', schedule(data)).paths.sort()).toEqual(
      ['/data/date', '/data/items/0/id', '/data/items/0/startAt', '/data/items/0/title', '/data/timezone'].sort(),
    )
    const noItems: Record<string, unknown> = scheduleData()
    delete noItems.items
    expect(refusal('TODAYS_SCHEDULE', schedule(noItems)).paths).toEqual(['/data/items'])
  })

  test('an empty item list is a valid snapshot (the widget shows nothing)', () => {
    expect(() => validatePush('TODAYS_SCHEDULE', schedule(scheduleData(0)))).not.toThrow()
  })

  test('closed objects: unknown fields at top level and in items are refused at their paths', () => {
    const data = withItem({ ...scheduleData(), colour: 'red' }, { speaker: 'x', updatedAt: '2026-11-25T09:00:00Z' })
    expect(refusal('TODAYS_SCHEDULE', schedule(data)).details).toEqual([
      { path: '/data/colour', message: 'unknown property' },
      { path: '/data/items/0/speaker', message: 'unknown property' },
      { path: '/data/items/0/updatedAt', message: 'unknown property' },
    ])
  })

  test('optional fields: title, subtitle (≤300), locale, updatedAt; item endAt, location, host, status', () => {
    const data = withItem(
      { ...scheduleData(), subtitle: 's'.repeat(300), locale: 'de-DE', updatedAt: '2026-11-25T08:00:00+01:00' },
      { host: 'Ms. Example', status: 'IN_PROGRESS' },
    )
    expect(() => validatePush('TODAYS_SCHEDULE', schedule(data))).not.toThrow()
  })

  test('string bounds count code points: title 200 emoji pass, 201 fail; subtitle 301 fails', () => {
    expect(() => validatePush('TODAYS_SCHEDULE', schedule({ ...scheduleData(), title: '😀'.repeat(200) }))).not.toThrow()
    const { details } = refusal('TODAYS_SCHEDULE', schedule({ ...scheduleData(), title: '😀'.repeat(201), subtitle: 's'.repeat(301) }))
    expect(details.map((d) => d.path)).toEqual(['/data/title', '/data/subtitle'])
  })

  test('a required string has at least one character', () => {
    expect(refusal('TODAYS_SCHEDULE', schedule(withItem(scheduleData(), { title: '' }))).paths).toEqual(['/data/items/0/title'])
  })

  test.each([
    ['date', '2026-02-30'],
    ['date', '25.11.2026'],
    ['timezone', '+02:00'],
    ['timezone', 'Mars/Olympus_Mons'],
    ['locale', 'en_US'],
    ['updatedAt', '2026-11-25T09:30:00'],
  ])('top-level %s %p is refused with a message naming the rule', (field, value) => {
    const { details } = refusal('TODAYS_SCHEDULE', schedule({ ...scheduleData(), [field]: value }))
    expect(details).toHaveLength(1)
    expect(details[0]!.path).toBe(`/data/${field}`)
    expect(details[0]!.message).toMatch(/^must be /)
    expect(details[0]!.message).not.toContain(String(value))
  })

  test('a leap day is a real date in a leap year', () => {
    const data = { ...scheduleData(0), date: '2028-02-29' }
    expect(() => validatePush('TODAYS_SCHEDULE', schedule(data))).not.toThrow()
  })

  test('endAt must be after startAt (equal or earlier is refused), compared as instants across offsets', () => {
    const equal = withItem(scheduleData(), { startAt: '2026-11-25T10:00:00+01:00', endAt: '2026-11-25T09:00:00Z' })
    expect(refusal('TODAYS_SCHEDULE', schedule(equal)).details).toEqual([{ path: '/data/items/0/endAt', message: 'must be after startAt' }])
    const earlier = withItem(scheduleData(), { endAt: '2026-11-25T09:59:59+01:00' }, 1)
    expect(refusal('TODAYS_SCHEDULE', schedule(earlier)).paths).toEqual(['/data/items/1/endAt'])
    const later = withItem(scheduleData(), { startAt: '2026-11-25T10:00:00+01:00', endAt: '2026-11-25T09:00:01Z' })
    expect(() => validatePush('TODAYS_SCHEDULE', schedule(later))).not.toThrow()
  })

  test('item ids are unique; each duplicate is listed', () => {
    const data = scheduleData(4)
    data.items[2]!.id = 'session-0'
    data.items[3]!.id = 'session-0'
    expect(refusal('TODAYS_SCHEDULE', schedule(data)).details).toEqual([
      { path: '/data/items/2/id', message: 'duplicate item id; first used at /data/items/0/id' },
      { path: '/data/items/3/id', message: 'duplicate item id; first used at /data/items/0/id' },
    ])
  })

  test('status is one of the six values', () => {
    const { details } = refusal('TODAYS_SCHEDULE', schedule(withItem(scheduleData(), { status: 'POSTPONED' })))
    expect(details).toEqual([
      { path: '/data/items/0/status', message: 'must be one of SCHEDULED, IN_PROGRESS, DELAYED, RESCHEDULED, CANCELLED, COMPLETED' },
    ])
  })

  test('an item starting on another local day is accepted with ITEM_OUTSIDE_DATE at its startAt', () => {
    // 23:30 UTC on the 25th is already the 26th in Berlin; 23:30 UTC on the 24th is the 25th.
    const data = withItem(withItem(scheduleData(3), { startAt: '2026-11-25T23:30:00Z', endAt: undefined }, 1), { startAt: '2026-11-24T23:30:00Z', endAt: undefined }, 2)
    const { warnings } = accepted('TODAYS_SCHEDULE', schedule(data, { sequence: 1 }))
    expect(warnings).toEqual([
      { code: WidgetWarnings.ITEM_OUTSIDE_DATE, message: expect.stringContaining('2026-11-26'), path: '/data/items/1/startAt' },
    ])
  })

  test('every failing path is listed in one answer, schema and cross-field rules together', () => {
    const data = scheduleData(3)
    data.items[0]!.title = '<b>x</b>'
    data.items[1]!.id = 'session-0'
    data.items[2]!.endAt = '2026-11-25T09:00:00+01:00'
    ;(data.items[2] as Record<string, unknown>).status = 'LATE'
    expect(refusal('TODAYS_SCHEDULE', schedule({ ...data, date: '2026-11-31' })).paths.sort()).toEqual(
      ['/data/date', '/data/items/0/title', '/data/items/1/id', '/data/items/2/endAt', '/data/items/2/status'].sort(),
    )
  })

  test('stored data gets the default status SCHEDULED where it was absent', () => {
    const data = withItem(scheduleData(), { status: 'DELAYED' }, 1)
    const { envelope: accepted } = validatePush('TODAYS_SCHEDULE', schedule(data))
    const stored = withItemDefaults('TODAYS_SCHEDULE', accepted.data)
    expect(stored.items.map((i) => i.status)).toEqual(['SCHEDULED', 'DELAYED'])
    expect(data.items[0]).not.toHaveProperty('status')
  })
})

describe('ANNOUNCEMENTS', () => {
  const announce = (data: unknown) => envelope('ANNOUNCEMENTS', data)

  test('all optional fields at their bounds are accepted; timezone is optional', () => {
    const data = withItem(
      { ...announcementsData(), locale: 'fr', timezone: 'Europe/Paris', updatedAt: '2026-11-25T09:00:00Z' },
      {
        body: 'b'.repeat(1000),
        priority: 'URGENT',
        category: 'Service',
        startsAt: '2026-11-25T09:00:00Z',
        endsAt: '2026-11-25T17:00:00Z',
        displaySeconds: 300,
        imageUrl: `https://cdn.example.org/${'a'.repeat(2048 - 'https://cdn.example.org/'.length)}`,
      },
    )
    expect(() => validatePush('ANNOUNCEMENTS', announce(withItem(data, { displaySeconds: 5 }, 1)))).not.toThrow()
  })

  test('required item fields: id, title, body', () => {
    const data = withItem(announcementsData(), { id: undefined, title: undefined, body: undefined })
    expect(refusal('ANNOUNCEMENTS', announce(data)).paths.sort()).toEqual(['/data/items/0/body', '/data/items/0/id', '/data/items/0/title'])
  })

  test.each([
    ['body', 'b'.repeat(1001)],
    ['priority', 'CRITICAL'],
    ['displaySeconds', 4],
    ['displaySeconds', 301],
    ['displaySeconds', 7.5],
    ['imageUrl', 'http://cdn.example.org/a.png'],
    ['imageUrl', `https://cdn.example.org/${'a'.repeat(2049 - 'https://cdn.example.org/'.length)}`],
    ['startsAt', '2026-11-25'],
    ['category', 'c'.repeat(201)],
  ])('item %s %p is refused', (field, value) => {
    expect(refusal('ANNOUNCEMENTS', announce(withItem(announcementsData(), { [field]: value }))).paths).toEqual([`/data/items/0/${field}`])
  })

  test('endsAt must be after startsAt', () => {
    const data = withItem(announcementsData(), { startsAt: '2026-11-25T10:00:00Z', endsAt: '2026-11-25T10:00:00Z' })
    expect(refusal('ANNOUNCEMENTS', announce(data)).details).toEqual([{ path: '/data/items/0/endsAt', message: 'must be after startsAt' }])
  })

  test('no timezone or date fields beyond the table: `date` is unknown here', () => {
    expect(refusal('ANNOUNCEMENTS', announce({ ...announcementsData(), date: '2026-11-25' })).paths).toEqual(['/data/date'])
  })

  test('stored data gets the default priority NORMAL', () => {
    const { envelope: ok } = validatePush('ANNOUNCEMENTS', announce(announcementsData(1)))
    expect(withItemDefaults('ANNOUNCEMENTS', ok.data).items[0]!.priority).toBe('NORMAL')
  })
})

describe('EVENTS', () => {
  const event = (data: unknown) => envelope('EVENTS', data)

  test('all optional fields are accepted', () => {
    const data = withItem(
      { ...eventsData(), title: 'What is on', subtitle: 'December', locale: 'en-GB', updatedAt: '2026-11-25T09:00:00Z' },
      {
        endAt: '2026-12-01T21:00:00+01:00',
        allDay: false,
        location: 'Hall',
        organizer: 'Friends of the library',
        description: 'd'.repeat(1000),
        imageUrl: 'https://cdn.example.org/e.jpg',
        status: 'MOVED_ONLINE',
      },
    )
    expect(() => validatePush('EVENTS', event(data))).not.toThrow()
  })

  test('timezone and items are required; item id, title and startAt', () => {
    const data: Record<string, unknown> = withItem(eventsData(), { startAt: undefined })
    delete data.timezone
    expect(refusal('EVENTS', event(data)).paths.sort()).toEqual(['/data/items/0/startAt', '/data/timezone'])
  })

  test.each([
    ['description', 'd'.repeat(1001)],
    ['allDay', 'yes'],
    ['status', 'DELAYED'],
    ['imageUrl', 'https://'],
    ['organizer', '<em>us</em>'],
  ])('item %s %p is refused', (field, value) => {
    expect(refusal('EVENTS', event(withItem(eventsData(), { [field]: value }))).paths).toEqual([`/data/items/0/${field}`])
  })

  test('endAt must be after startAt', () => {
    const data = withItem(eventsData(), { endAt: '2026-12-01T17:00:00+01:00' })
    expect(refusal('EVENTS', event(data)).paths).toEqual(['/data/items/0/endAt'])
  })

  test('item ids are unique', () => {
    const data = eventsData(2)
    data.items[1]!.id = 'event-0'
    expect(refusal('EVENTS', event(data)).paths).toEqual(['/data/items/1/id'])
  })
})

describe('TRANSPORT_BOARD', () => {
  const board = (data: unknown) => envelope('TRANSPORT_BOARD', data)

  test('an arrival with origin and a delayed departure with estimatedAt are accepted', () => {
    let data = withItem(transportData(), { direction: 'ARRIVAL', destination: undefined, origin: 'Airport', status: 'ARRIVED' })
    data = withItem(data, { status: 'DELAYED', estimatedAt: '2026-11-25T10:20:00+01:00', platform: '2', mode: 'TRAIN', remarks: 'r'.repeat(140) }, 1)
    expect(() => validatePush('TRANSPORT_BOARD', board({ ...data, title: 'Departures', locale: 'de', updatedAt: '2026-11-25T09:00:00Z' }))).not.toThrow()
  })

  test('required item fields: id, direction, line, scheduledAt, status', () => {
    const data = withItem(transportData(), { id: undefined, direction: undefined, line: undefined, scheduledAt: undefined, status: undefined })
    expect(refusal('TRANSPORT_BOARD', board(data)).paths.sort()).toEqual(
      ['/data/items/0/direction', '/data/items/0/id', '/data/items/0/line', '/data/items/0/scheduledAt', '/data/items/0/status'].sort(),
    )
  })

  test('destination is required for departures, origin for arrivals', () => {
    let data = withItem(transportData(), { destination: undefined })
    data = withItem(data, { direction: 'ARRIVAL', destination: undefined }, 1)
    expect(refusal('TRANSPORT_BOARD', board(data)).details).toEqual([
      { path: '/data/items/0/destination', message: 'required for DEPARTURE items' },
      { path: '/data/items/1/origin', message: 'required for ARRIVAL items' },
    ])
  })

  test('estimatedAt is required when the status is DELAYED or EARLY', () => {
    let data = withItem(transportData(), { status: 'DELAYED' })
    data = withItem(data, { status: 'EARLY' }, 1)
    expect(refusal('TRANSPORT_BOARD', board(data)).details).toEqual([
      { path: '/data/items/0/estimatedAt', message: 'required when status is DELAYED' },
      { path: '/data/items/1/estimatedAt', message: 'required when status is EARLY' },
    ])
  })

  test.each([
    ['/data/items/0/line/shortName', 'line', { color: '#DA291C' }],
    ['/data/items/0/line/color', 'line', { shortName: 'S1', color: '#fff' }],
    ['/data/items/0/line/textColor', 'line', { shortName: 'S1', textColor: 'white' }],
    ['/data/items/0/line/longName', 'line', { shortName: 'S1', longName: 'Airport line' }],
    ['/data/items/0/direction', 'direction', 'BOTH'],
    ['/data/items/0/status', 'status', 'LATE'],
    ['/data/items/0/remarks', 'remarks', 'r'.repeat(141)],
    ['/data/items/0/scheduledAt', 'scheduledAt', '10:15'],
    ['/data/items/0/estimatedAt', 'estimatedAt', '2026-11-25T10:15:00'],
  ])('refused at %s', (path, field, value) => {
    expect(refusal('TRANSPORT_BOARD', board(withItem(transportData(), { [field]: value }))).paths).toEqual([path])
  })

  test('stop needs a name and is closed; its id is optional', () => {
    expect(() => validatePush('TRANSPORT_BOARD', board({ ...transportData(), stop: { name: 'Zoo' } }))).not.toThrow()
    expect(refusal('TRANSPORT_BOARD', board({ ...transportData(), stop: { id: 'x' } })).paths).toEqual(['/data/stop/name'])
    expect(refusal('TRANSPORT_BOARD', board({ ...transportData(), stop: { name: 'Zoo', lat: 1 } })).paths).toEqual(['/data/stop/lat'])
  })

  test('colours accept either case of hex digits', () => {
    const data = withItem(transportData(), { line: { shortName: 'U2', color: '#a1B2c3', textColor: '#000000' } })
    expect(() => validatePush('TRANSPORT_BOARD', board(data))).not.toThrow()
  })
})
