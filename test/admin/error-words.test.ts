import { describe, expect, test } from 'bun:test'
import type { TSchema } from '@sinclair/typebox'
import { DETAIL_RULES, FORMATS, PATTERN_FORMATS, type DetailParams, type DetailRule } from '../../src/platform/detail-rules'
import { fieldName, recognised, shortLabel, wordsFor, type RuledDetail } from '../../src/client/admin/error-words'
import { STRINGS, type Lang } from '../../src/client/admin/strings'
import { ProvisioningFile } from '../../src/provisioning/model'
import { AddUserRequest, ChangeUserRequest } from '../../src/admin/staff-model'
import { PairDeviceRequest } from '../../src/admin/devices-model'
import { CreateKeyHead, CreateKeyRequest, RotateKeyRequest, RevokeKeyRequest } from '../../src/admin/keys-model'
import { ChangeWebhookRequest, CreateWebhookHead, CreateWebhookRequest } from '../../src/admin/webhooks-model'
import { Revision } from '../../src/admin/model'
import { admin, adminContext, expectError, UNIT, type AdminTestContext } from './helpers'
import { call, sectionContext, type SectionContext } from './section-helpers'

/*
 * Errors in words (contract §24): every rule a console form can meet is said in English and in
 * Arabic, naming the field by its label, with no JSON Pointer, pattern or schema type; and every
 * detail the admin API really answers for bad input names a rule the page knows (not the
 * fallback), so a rule added on the server without words fails here.
 */

const LANGS: Lang[] = ['en', 'ar']
const LABEL: Record<Lang, string> = { en: 'Opening hours, Monday', ar: 'ساعات العمل، الاثنين' }

/** What no words on a page may hold: a pointer's slash, a pattern's anchors, TypeBox's wording, a schema type. */
function expectClean(words: string, label: string): void {
  expect(words).toContain(label)
  for (const bad of ['/', '^', '$', 'Expected', 'undefined', 'NaN', '{', '}']) expect({ words, has: words.includes(bad) }).toEqual({ words, has: false })
  expect({ words, typeName: /\b(string|integer|number|boolean)\b/i.test(words) }).toEqual({ words, typeName: false })
}

/** Each rule with the params the server gives it (every branch of its words). */
const SAMPLES: Record<DetailRule, DetailParams[]> = {
  type: ['string', 'integer', 'number', 'boolean', 'object', 'array', 'null'].map((expected) => ({ expected })),
  format: FORMATS.map((format) => ({ format })),
  minLength: [{ min: 1 }, { min: 10 }],
  maxLength: [{ max: 200 }],
  range: [{ min: 1, max: 86400 }, { min: 0 }, { max: 50 }],
  minItems: [{ min: 1 }, { min: 2 }],
  maxItems: [{ max: 12 }],
  uniqueItems: [{}],
  oneOf: [{ allowed: ['optional', 'required'] }, { allowed: Array.from({ length: 25 }, (_, i) => `e${i}`) }],
  form: [{}],
  required: [{}],
  unknownField: [{}],
  unicode: [{}],
  invalid: [{}],
  nameEmpty: [{}],
  nameForm: [{}],
  nameNoLanguage: [{}],
  nameLanguages: [{ max: 20 }],
  languageTag: [{ tag: 'not a tag!' }],
  languageTwice: [{ tag: 'EN', other: 'en' }, { tag: 'EN' }],
  languageMissing: [{ tag: 'en' }],
  hoursForm: [{}],
  weekday: [{ day: 'funday' }],
  hoursList: [{}],
  interval: [{}],
  time: [{ value: '25:00', latest: '24:00' }, { value: '8am', latest: '23:59' }],
  emptyInterval: [{ from: '09:00', to: '09:00' }],
  overlap: [
    { day: 'mon', from: '11:00', to: '14:00', otherDay: 'mon', otherFrom: '08:00', otherTo: '12:00' },
    { day: 'mon', from: '00:00', to: '02:00', otherDay: 'sun', otherFrom: '22:00', otherTo: '03:00' },
  ],
  datesForm: [{}],
  date: [{ value: '2026-02-30' }],
  dateTwice: [{ value: '2026-12-25' }],
  duplicateId: [{ kind: 'location' }, { kind: 'queue unit' }],
  belongsElsewhere: [{ kind: 'service', owner: 'qu_other' }],
  timeZone: [{ value: 'Mars' }],
  cidr: [{ value: 'not-a-network' }],
  requiredWith: [{ mode: 'INTERLEAVE' }],
  onlyWith: [{ mode: 'INTERLEAVE' }],
  duplicateValue: [{ value: 'Lunch' }],
  unknownReference: [{ kind: 'location', value: 'loc_x' }, { kind: 'queueUnit' }, { kind: 'something new' }],
  typeFixed: [{ value: 'ANNOUNCEMENTS' }],
  notOfferedThere: [{ value: 'svc_loans' }, { value: 'svc_loans', counter: 'cnt_1' }],
  taken: [{ kind: 'user' }],
  ownAccount: [{}],
  disabled: [{}],
  adminNoUnits: [{}],
  retired: [{ kind: 'counter' }],
  plainText: [{ max: 120 }],
  clipName: [{}],
  audioType: [{ value: 'audio.wav' }],
  dateTime: [{}],
  template: [{ problem: 'variable', variable: 'name', allowed: ['ahead', 'counter'] }, { problem: 'brace' }, { problem: 'blank' }],
}

describe('errors in words: every rule, English and Arabic', () => {
  test('the samples cover every rule the server names', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...DETAIL_RULES].sort())
  })

  for (const rule of DETAIL_RULES) {
    test(`${rule}: the label, then what is allowed, in words`, () => {
      for (const params of SAMPLES[rule]) {
        const detail: RuledDetail = { path: '/openingHours/mon/1', message: 'Expected string to match \'^[A-Z]{1,3}$\' /openingHours/mon/0', rule, params }
        const said = LANGS.map((lang) => wordsFor(detail, LABEL[lang], lang))
        LANGS.forEach((lang, i) => expectClean(said[i]!, LABEL[lang]))
        expect(said[0]).not.toBe(said[1])
        if (rule !== 'invalid' && !(rule === 'format' && params.format === 'other')) expect(recognised(detail)).toBe(true)
      }
    })
  }

  test('the example of contract §24, in English and Arabic', () => {
    const overlap: RuledDetail = { path: '/openingHours/mon/1', message: 'overlaps /openingHours/mon/0', rule: 'overlap', params: { day: 'mon', from: '11:00', to: '14:00', otherDay: 'mon', otherFrom: '08:00', otherTo: '12:00' } }
    expect(wordsFor(overlap, fieldName(STRINGS.en.days.mon, STRINGS.en.hours, 'en'), 'en')).toBe('Opening hours, Monday: 08:00–12:00 overlaps 11:00–14:00')
    expect(wordsFor(overlap, fieldName(STRINGS.ar.days.mon, STRINGS.ar.hours, 'ar'), 'ar')).toBe('ساعات العمل، الاثنين: \u206608:00–12:00\u2069 تتداخل مع \u206611:00–14:00\u2069')
    expect(wordsFor({ path: '/prefix', message: 'Expected string to match \'^[A-Z]{1,3}$\'', rule: 'format', params: { format: 'prefix' } }, fieldName(STRINGS.en.prefix, null, 'en'), 'en'))
      .toBe('Ticket prefix: one to three capital letters, A–Z')
    expect(wordsFor({ path: '/name', message: 'Expected string to match \'^[A-Za-z0-9_.:-]{1,80}$\'', rule: 'format', params: { format: 'keyName' } }, 'ID', 'en'))
      .toBe('ID: letters, digits, _ . : - only, at most 80')
  })

  test('a detail without a rule, or with one the page does not know, still gets words, never its message', () => {
    for (const lang of LANGS) {
      for (const detail of [{ path: '/name/ar', message: 'overlaps /openingHours/mon/0' }, { path: '/x', message: 'Expected integer', rule: 'fromTheFuture' as DetailRule }]) {
        const words = wordsFor(detail, fieldName(STRINGS[lang].nameIn.replace('{language}', lang === 'en' ? 'Arabic' : 'العربية'), null, lang), lang)
        expectClean(words, lang === 'en' ? 'Name (Arabic)' : 'الاسم (العربية)')
        expect(words).toContain(lang === 'en' ? 'this value is not allowed' : 'غير مسموح بها')
        expect(recognised(detail)).toBe(false)
      }
    }
  })

  test('a label loses its hint in brackets (which may hold a slash), not the brackets of its name', () => {
    expect(shortLabel(STRINGS.en.timezone)).toBe('Time zone')
    expect(shortLabel(STRINGS.ar.timezone)).toBe('المنطقة الزمنية')
    expect(shortLabel(STRINGS.en.prefix)).toBe('Ticket prefix')
    expect(shortLabel('Name (Arabic)')).toBe('Name (Arabic)')
    for (const lang of LANGS) {
      const t = STRINGS[lang]
      for (const label of [t.timezone, t.closedDates, t.allowedNetworks, t.prefix, t.languages, t.defaultLanguage, t.breakReasons, t.lastTicketMinutes, t.maxWaiting,
        t.defaultServiceMinutes, t.waitTargetMinutes, t.slotMinutes, t.capacityPerSlot, t.bookAheadDays, t.checkInEarly, t.checkInLate, t.retainDays, t.addLanguage, t.normalPerPriority, t.noShowGraceMinutes, t.approachingAhead, t.username, t.displayName, t.userRole, t.userUnits,
        t.keyKind, t.keyOwner, t.keyName, t.graceSeconds, t.webhookId, t.url, t.events, t.deviceRole, t.deviceName, t.clipName, t.clipFile]) {
        expect({ label, slash: fieldName(label, null, lang).includes('/') }).toEqual({ label, slash: false })
      }
    }
    expect(fieldName('Monday', 'Opening hours', 'en')).toBe('Opening hours, Monday')
    expect(fieldName('Remote join', 'Remote join', 'en')).toBe('Remote join')
  })

  test('every pattern of the console\'s schemas has its form in words (PATTERN_FORMATS)', () => {
    const patterns = new Set<string>()
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk)
      if (node === null || typeof node !== 'object') return
      const schema = node as Record<string, unknown>
      if (typeof schema.pattern === 'string') patterns.add(schema.pattern)
      Object.values(schema).forEach(walk)
    }
    const schemas: TSchema[] = [ProvisioningFile, AddUserRequest, ChangeUserRequest, PairDeviceRequest, CreateKeyHead, CreateKeyRequest, RotateKeyRequest, RevokeKeyRequest,
      ChangeWebhookRequest, CreateWebhookHead, CreateWebhookRequest, Revision]
    schemas.forEach(walk)
    expect([...patterns].filter((p) => PATTERN_FORMATS[p] === undefined)).toEqual([])
  })
})

/** Every detail of a refusal: a rule the page knows, and clean words in both languages. */
async function wordsOf(response: Response, status = 422): Promise<RuledDetail[]> {
  const body = await response.json() as { error: { details?: RuledDetail[] } }
  expect(response.status).toBe(status)
  const details = body.error.details ?? []
  expect(details.length).toBeGreaterThan(0)
  for (const detail of details) {
    expect({ detail, recognised: recognised(detail) }).toEqual({ detail, recognised: true })
    for (const lang of LANGS) expectClean(wordsFor(detail, LABEL[lang], lang), LABEL[lang])
  }
  return details
}

const seen = new Set<DetailRule>()
const rulesOf = (details: RuledDetail[]) => {
  for (const d of details) seen.add(d.rule!)
  return details.map((d) => d.rule)
}

describe('errors in words: the admin API\'s real refusals are all recognised', () => {
  let ctx: AdminTestContext
  const post = async (kind: 'locations' | 'services' | 'counters', body: unknown) => rulesOf(await wordsOf(await admin(ctx, ctx.cookie.root, 'POST', `${UNIT}/${kind}`, body)))
  const putUnit = async (change: Record<string, unknown>) => {
    const unit = await (await admin(ctx, ctx.cookie.root, 'GET', UNIT)).json() as Record<string, unknown>
    const { name: _name, names, workspaceId: _ws, revision, ...rest } = unit
    return rulesOf(await wordsOf(await admin(ctx, ctx.cookie.root, 'PUT', UNIT, { ...rest, name: names, ...change, revision })))
  }
  const hall = (extra: Record<string, unknown>) => ({ id: 'loc_w', name: 'Hall', timezone: 'Europe/Berlin', ...extra })
  const service = (extra: Record<string, unknown>) => ({ id: 'svc_w', name: 'Remittances', prefix: 'R', locations: ['loc_hall'], ...extra })

  test('Branch: hours, dates, networks, time zones, names, prefixes, numbers, references, missing fields', async () => {
    ctx = await adminContext()
    const overlap = await wordsOf(await admin(ctx, ctx.cookie.root, 'POST', `${UNIT}/locations`, hall({ openingHours: { mon: [['08:00', '12:00'], ['11:00', '14:00']] } })))
    expect(overlap.map((d) => wordsFor(d, 'Opening hours, Monday', 'en'))).toEqual(['Opening hours, Monday: 08:00–12:00 overlaps 11:00–14:00'])
    rulesOf(overlap)
    expect(await post('locations', hall({ openingHours: { sun: [['22:00', '03:00']], mon: [['01:00', '05:00']] } }))).toEqual(['overlap'])
    expect(await post('services', service({ openingHours: { mon: [['08:00', '25:00']], tue: [['8am', '12:00']], wed: [['09:00', '09:00']], funday: [] } })))
      .toEqual(expect.arrayContaining(['time', 'time', 'emptyInterval', 'weekday']))
    expect(await post('services', service({ openingHours: { mon: [['08:00']] } }))).toEqual(['minItems'])
    expect(await post('locations', hall({ timezone: 'Mars' }))).toEqual(['timeZone'])
    expect(await post('locations', hall({ closedDates: ['2026-02-30', '2026-12-25', '2026-12-25'] }))).toEqual(['date', 'dateTwice'])
    expect(await post('locations', hall({ remoteJoin: { enabled: true, allowedNetworks: ['10.0.0.0/8', 'not-a-network'] } }))).toEqual(['cidr'])
    expect(await post('locations', hall({ remoteJoin: { enabled: true, maxWaiting: 0 } }))).toEqual(['range'])
    expect(await post('locations', hall({ remoteJoin: { enabled: true, guestNetworks: ['192.168.50.0/24', 'guest-wifi'] } }))).toEqual(['cidr'])
    expect(await post('locations', hall({ remoteJoin: { enabled: true, perAddressPer10Min: 1001 } }))).toEqual(['range'])
    expect(await post('locations', hall({ lastTicketMinutesBeforeClose: 'ten' }))).toEqual(['type'])
    expect(await post('locations', hall({ colour: 'blue' }))).toEqual(['unknownField'])
    expect(await post('locations', hall({ id: 'loc_hall' }))).toEqual(['taken'])
    expect(await post('services', service({ prefix: 'ab' }))).toEqual(['format'])
    expect(await post('services', service({ prefix: 'A' }))).toEqual(['taken'])
    expect(await post('services', service({ defaultServiceSeconds: 0, waitTargetSeconds: 999_999 }))).toEqual(['range', 'range'])
    expect(await post('services', service({ name: { en: '', ar: 'الحوالات' } }))).toEqual(['nameEmpty'])
    expect(await post('services', service({ name: {} }))).toEqual(['nameNoLanguage'])
    expect(await post('services', service({ name: 5 }))).toEqual(['nameForm'])
    expect(await post('services', service({ name: 'x'.repeat(201) }))).toEqual(['maxLength'])
    expect(await post('services', service({ name: { en: 'Loans', EN: 'Loans' } }))).toEqual(['languageTwice'])
    expect(await post('counters', { id: 'cnt_w', name: { en: 'Counter', 'not a tag!': 'x' }, locationId: 'loc_hall', services: ['svc_accounts'] })).toEqual(['languageTag'])
    expect(await post('services', service({ locations: ['loc_hall', 'loc_hall'] }))).toEqual(['uniqueItems'])
    expect(await post('counters', { id: 'cnt_w', name: 'Counter', locationId: 'loc_nowhere', services: ['svc_nowhere'] })).toEqual(['unknownReference', 'unknownReference'])
    expect(await post('counters', { id: 'cnt_w', name: 'Counter', locationId: 'loc_hall', services: [] })).toEqual(['minItems'])
    // Contract §27: Loans is offered in the hall only.
    expect(await post('counters', { id: 'cnt_w', name: 'Counter', locationId: 'loc_annex', services: ['svc_loans'] })).toEqual(['notOfferedThere'])
    const { prefix: _prefix, ...noPrefix } = service({})
    expect(await post('services', noPrefix)).toEqual(['required'])
  })

  test('Branch: the unit\'s languages, break reasons, priority, numbers and choices', async () => {
    ctx ??= await adminContext()
    expect(await putUnit({ languages: ['en', 'xx yy'] })).toEqual(['languageTag'])
    expect(await putUnit({ languages: ['ar'], defaultLanguage: 'en' })).toEqual(['languageMissing'])
    expect(await putUnit({ languages: ['en', 'EN'] })).toEqual(['uniqueItems'])
    expect(await putUnit({ breakReasons: ['Lunch', 'Prayer', 'Lunch'] })).toEqual(['duplicateValue'])
    expect(await putUnit({ breakReasons: ['  '] })).toEqual(['format'])
    expect(await putUnit({ priority: { mode: 'INTERLEAVE' } })).toEqual(['requiredWith'])
    expect(await putUnit({ priority: { mode: 'FIRST', normalPerPriority: 2 } })).toEqual(['onlyWith'])
    expect(await putUnit({ noShowGraceMinutes: 5000, approachingAhead: 0 })).toEqual(['range', 'range'])
    expect(await putUnit({ deskSignIn: 'sometimes' })).toEqual(['oneOf'])
    expect(await putUnit({ kioskPriority: 'yes' })).toEqual(['type'])
  })

  test('Staff, keys, webhooks and devices: their own checks and their schemas', async () => {
    const s: SectionContext = await sectionContext()
    const refusal = async (method: string, path: string, body: unknown, status = 422) => rulesOf(await wordsOf(await call(s, s.admin, method, path, { body }), status))
    expect(await refusal('POST', '/users', { username: 'Bad Name!', role: 'manager' })).toEqual(['format'])
    expect(await refusal('POST', '/users', { username: 'newbie', role: 'admin', queueUnits: ['qu_main'] })).toEqual(['adminNoUnits'])
    expect(await refusal('POST', '/users', { username: 'newbie', role: 'manager', queueUnits: ['qu_nowhere'] })).toEqual(['unknownReference'])
    expect(await refusal('POST', '/users', { username: 'newbie', role: 'manager', queueUnits: ['qu_main'], displayName: 'a\u0001b' })).toEqual(['plainText'])
    expect(await refusal('POST', '/users', { username: 'newbie', role: 'boss' })).toEqual(['oneOf'])
    expect(await refusal('POST', '/users', { username: 'newbie', role: 'clerk', queueUnits: [] })).toEqual(['minItems'])
    expect(await refusal('POST', '/users', { username: 'ada', role: 'admin' }, 409)).toEqual(['taken'])
    expect(await refusal('PATCH', '/users/ada', { role: 'manager' })).toEqual(['ownAccount'])
    expect(await refusal('POST', '/keys', { kind: 'queue', owner: 'qu_main', name: 'bad name!' })).toEqual(['format'])
    expect(await refusal('POST', '/keys', { kind: 'queue', owner: 'qu_main', name: 'cms2', services: ['svc_accounts', 'svc_east'] })).toEqual(['unknownReference'])
    expect(await refusal('POST', '/keys', { kind: 'queue', owner: 'qu_main', name: 'all' }, 409)).toEqual(['taken'])
    expect(await refusal('POST', '/keys', { kind: 'queue', owner: 'qu_main', name: 'cms3', scopes: ['tickets:fly'] })).toEqual(['oneOf'])
    expect(await refusal('POST', '/webhooks', { queueUnitId: 'qu_main', id: 'wh_x', url: 'ftp:nowhere', events: ['ticket.created'] })).toEqual(['format'])
    expect(await refusal('POST', '/webhooks', { queueUnitId: 'qu_main', id: 'wh_x', url: 'https://crm.example', events: ['ticket.flew'] })).toEqual(['oneOf'])
    expect(await refusal('POST', '/webhooks', { queueUnitId: 'qu_nowhere', id: 'wh_x', url: 'https://crm.example', events: ['ticket.created'] })).toEqual(['unknownReference'])
    expect(await refusal('POST', '/webhooks', { queueUnitId: 'qu_main', id: 'whk_crm', url: 'https://crm.example', events: ['ticket.created'] }, 409)).toEqual(['taken'])
    expect(await refusal('POST', '/devices/pairings', { role: 'desk', counterId: 'cnt_9' })).toEqual(['unknownReference'])
    expect(await refusal('POST', '/devices/pairings', { role: 'kiosk', queueUnitId: 'qu_main' })).toEqual(['required'])
    expect(await refusal('POST', '/devices/pairings', { role: 'desk', counterId: 'cnt_1', name: 'bad name!' })).toEqual(['format'])
  })

  test('every custom rule of the provisioning validator and the sections was met above', () => {
    const custom: DetailRule[] = ['overlap', 'time', 'emptyInterval', 'weekday', 'timeZone', 'date', 'dateTwice', 'cidr', 'format', 'range', 'nameEmpty', 'nameNoLanguage', 'nameForm',
      'languageTag', 'languageTwice', 'languageMissing', 'duplicateValue', 'requiredWith', 'onlyWith', 'unknownReference', 'notOfferedThere', 'required', 'taken', 'adminNoUnits', 'plainText', 'ownAccount',
      'oneOf', 'type', 'unknownField', 'uniqueItems', 'minItems', 'maxLength']
    expect(custom.filter((rule) => !seen.has(rule))).toEqual([])
  })
})
