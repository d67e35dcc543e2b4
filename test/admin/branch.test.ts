import { describe, expect, test } from 'bun:test'
import { admin, adminContext, expectError, jsonOf, UNIT, type AdminTestContext } from './helpers'
import { issue, HALL_ACCOUNTS } from '../queue/helpers'
import { relativeDetails } from '../../src/admin'

/*
 * The Branch section (contract §17): create, read, update and delete of services, counters and
 * locations; `revision` and EDIT_CONFLICT with the current entity; retire instead of delete
 * for an entity with tickets; 409 ENTITY_IN_USE for one other configuration refers to.
 */

const HOURS = { sun: [['08:00', '16:00']], mon: [['08:30', '12:00'], ['13:00', '16:30']], tue: [], wed: [], thu: [], fri: [], sat: [] }

describe('branch entities through the console', () => {
  let ctx: AdminTestContext

  test('an admin adds a service with an Arabic name and opening hours, then a counter serving it', async () => {
    ctx = await adminContext()
    const created = await admin(ctx, ctx.cookie.root, 'POST', `${UNIT}/services`, { name: { en: 'Remittances', ar: 'الحوالات' }, prefix: 'R', locations: ['loc_hall'], openingHours: HOURS })
    expect(created.status).toBe(201)
    const service = await jsonOf(created)
    expect(service).toMatchObject({ name: 'Remittances', names: { en: 'Remittances', ar: 'الحوالات' }, prefix: 'R', active: true, openingHours: HOURS })
    expect(service.id).toMatch(/^svc_/)
    expect(service.revision).toMatch(/^[A-Za-z0-9_-]{16}$/)
    const counter = await jsonOf(await admin(ctx, ctx.cookie.root, 'POST', `${UNIT}/counters`, { id: 'cnt_9', name: { en: 'Counter 9', ar: 'الشباك 9' }, locationId: 'loc_hall', services: [service.id] }))
    expect(counter).toMatchObject({ id: 'cnt_9', name: 'Counter 9', services: [service.id], active: true })
    // The same ID twice is refused at /id, not turned into an update.
    const again = await expectError(await admin(ctx, ctx.cookie.root, 'POST', `${UNIT}/counters`, { id: 'cnt_9', name: 'X', locationId: 'loc_hall', services: [service.id] }), 422, 'VALIDATION_FAILED')
    expect(again.error.details[0].path).toBe('/id')
    const list = await jsonOf(await admin(ctx, ctx.cookie.amira, 'GET', `${UNIT}/counters`))
    expect(list.data.map((c: { id: string }) => c.id)).toEqual(['cnt_1', 'cnt_2', 'cnt_9'])
  })

  test('a rename with the current revision saves and moves the revision; the old revision is then 409 EDIT_CONFLICT with the current counter', async () => {
    const loaded = await jsonOf(await admin(ctx, ctx.cookie.amira, 'GET', `${UNIT}/counters/cnt_1`))
    const { revision, names: _n, name: _name, id: _id, ...rest } = loaded
    const saved = await jsonOf(await admin(ctx, ctx.cookie.amira, 'PUT', `${UNIT}/counters/cnt_1`, { ...rest, name: { en: 'Window 1', ar: 'النافذة 1' }, revision }))
    expect(saved.name).toBe('Window 1')
    expect(saved.revision).not.toBe(revision)
    const stale = await expectError(await admin(ctx, ctx.cookie.root, 'PUT', `${UNIT}/counters/cnt_1`, { ...rest, name: 'Counter One', revision }), 409, 'EDIT_CONFLICT')
    expect(stale.error.current).toMatchObject({ id: 'cnt_1', name: 'Window 1', revision: saved.revision })
    expect((await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', `${UNIT}/counters/cnt_1`))).name).toBe('Window 1')
    await expectError(await admin(ctx, ctx.cookie.root, 'DELETE', `${UNIT}/counters/cnt_1?revision=${revision}`), 409, 'EDIT_CONFLICT')
  })

  test('unit settings: languages, kiosk priority, break reasons saved; absent optional fields take their defaults', async () => {
    const unit = await jsonOf(await admin(ctx, ctx.cookie.amira, 'GET', UNIT))
    const saved = await jsonOf(await admin(ctx, ctx.cookie.amira, 'PUT', UNIT, {
      name: { en: 'Main branch', ar: 'الفرع الرئيسي' }, languages: ['en', 'ar'], kioskPriority: true, breakReasons: ['Prayer', 'Lunch'], revision: unit.revision,
    }))
    expect(saved).toMatchObject({ id: 'qu_main', names: { en: 'Main branch', ar: 'الفرع الرئيسي' }, languages: ['en', 'ar'], kioskPriority: true, breakReasons: ['Prayer', 'Lunch'], deskSignIn: 'optional', noShowGraceMinutes: 30 })
    const bad = await expectError(await admin(ctx, ctx.cookie.amira, 'PUT', UNIT, { name: 'Main', breakReasons: ['Lunch', 'Lunch'], revision: saved.revision }), 422, 'VALIDATION_FAILED')
    expect(bad.error.details[0].path).toBe('/breakReasons/1')
  })

  test('delete: a counter without history goes; one with tickets is retired; a service a counter serves is 409 ENTITY_IN_USE', async () => {
    const nine = await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', `${UNIT}/counters/cnt_9`))
    const service = nine.services[0]
    const inUse = await expectError(await admin(ctx, ctx.cookie.root, 'DELETE', `${UNIT}/services/${service}?revision=${(await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', `${UNIT}/services/${service}`))).revision}`), 409, 'ENTITY_IN_USE')
    expect(inUse.error.details).toEqual([{ path: '/counters/cnt_9', message: 'serves this service' }])

    const gone = await jsonOf(await admin(ctx, ctx.cookie.root, 'DELETE', `${UNIT}/counters/cnt_9?revision=${nine.revision}`))
    expect(gone.outcome).toBe('deleted')
    await expectError(await admin(ctx, ctx.cookie.root, 'GET', `${UNIT}/counters/cnt_9`), 404, 'NOT_FOUND')
    const svc = await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', `${UNIT}/services/${service}`))
    expect((await jsonOf(await admin(ctx, ctx.cookie.root, 'DELETE', `${UNIT}/services/${service}?revision=${svc.revision}`))).outcome).toBe('deleted')

    // Accounts has a ticket now: deleting it retires it.
    const key = ctx.provisioned.secret('queue', 'qu_main', 'all')
    expect((await issue({ ...ctx, key: () => key }, key, HALL_ACCOUNTS)).status).toBe(201)
    const accounts = await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', `${UNIT}/services/svc_accounts`))
    // …but counters still serve it, and retiring is not deleting: no ENTITY_IN_USE.
    const retired = await jsonOf(await admin(ctx, ctx.cookie.root, 'DELETE', `${UNIT}/services/svc_accounts?revision=${accounts.revision}`))
    expect(retired).toMatchObject({ outcome: 'retired', entity: { id: 'svc_accounts', active: false } })
    expect((await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', `${UNIT}/services/svc_accounts`))).active).toBe(false)
    // A delete needs the revision.
    await expectError(await admin(ctx, ctx.cookie.root, 'DELETE', `${UNIT}/counters/cnt_2`), 422, 'VALIDATION_FAILED')
  })

  test('pointers outside the entity keep their whole pointer into the unit document', () => {
    expect(relativeDetails([
      { path: '/workspaces/0/queueUnits/0/counters/2/name/ar', message: 'a' },
      { path: '/workspaces/0/queueUnits/0/counters/2', message: 'b' },
      { path: '/workspaces/0/queueUnits/0/counters/20/name', message: 'c' },
    ], '/workspaces/0/queueUnits/0/counters/2')).toEqual([
      { path: '/name/ar', message: 'a' }, { path: '/', message: 'b' }, { path: '/workspaces/0/queueUnits/0/counters/20/name', message: 'c' },
    ])
  })
})

describe('a service prefix is unique within its unit (contract §24)', () => {
  test('a console create or update with a prefix another service of the unit has is 422 at /prefix; nothing changes', async () => {
    const ctx = await adminContext()
    const taken = '"A" is already the prefix of service svc_accounts in this queue unit'
    const created = await expectError(await admin(ctx, ctx.cookie.amira, 'POST', `${UNIT}/services`, { id: 'svc_audit', name: 'Audit', prefix: 'A', locations: ['loc_hall'] }), 422, 'VALIDATION_FAILED')
    expect(created.error.details).toEqual([{ path: '/prefix', message: taken, rule: 'taken', params: { value: 'A' } }])
    await expectError(await admin(ctx, ctx.cookie.root, 'GET', `${UNIT}/services/svc_audit`), 404, 'NOT_FOUND')

    const loans = await jsonOf(await admin(ctx, ctx.cookie.amira, 'GET', `${UNIT}/services/svc_loans`))
    const { revision, names: _n, name: _name, id: _id, ...rest } = loans
    const updated = await expectError(await admin(ctx, ctx.cookie.amira, 'PUT', `${UNIT}/services/svc_loans`, { ...rest, name: 'Loans', prefix: 'A', revision }), 422, 'VALIDATION_FAILED')
    expect(updated.error.details).toEqual([{ path: '/prefix', message: taken, rule: 'taken', params: { value: 'A' } }])
    expect((await jsonOf(await admin(ctx, ctx.cookie.amira, 'GET', `${UNIT}/services/svc_loans`))).prefix).toBe('L')

    // A retired service keeps its prefix (its tickets carry it).
    const retired = await expectError(await admin(ctx, ctx.cookie.amira, 'POST', `${UNIT}/services`, { name: 'Cash', prefix: 'C', locations: ['loc_hall'] }), 422, 'VALIDATION_FAILED')
    expect(retired.error.details).toEqual([{ path: '/prefix', message: '"C" is already the prefix of service svc_closed in this queue unit', rule: 'taken', params: { value: 'C' } }])

    // Its own prefix is no conflict; another unit's prefix is free here.
    expect((await admin(ctx, ctx.cookie.amira, 'PUT', `${UNIT}/services/svc_loans`, { ...rest, name: 'Loans and mortgages', revision })).status).toBe(200)
    expect((await admin(ctx, ctx.cookie.amira, 'POST', `${UNIT}/services`, { name: 'Other', prefix: 'O', locations: ['loc_hall'] })).status).toBe(201)
  })
})

describe('a counter serves only services offered at its location (contract §27)', () => {
  test('a counter in the annex serving Loans (offered in the hall only) is 422 at its service; a service leaving a location a counter serves it at is 422 at its locations', async () => {
    const ctx = await adminContext()
    const created = await expectError(await admin(ctx, ctx.cookie.root, 'POST', `${UNIT}/counters`, { name: 'Annex 1', locationId: 'loc_annex', services: ['svc_accounts', 'svc_loans'] }), 422, 'VALIDATION_FAILED')
    expect(created.error.details).toEqual([{ path: '/services/1', message: "service svc_loans is not offered at this counter's location loc_annex", rule: 'notOfferedThere', params: { value: 'svc_loans' } }])
    // Accounts is offered in the hall and the annex: fine.
    expect((await admin(ctx, ctx.cookie.root, 'POST', `${UNIT}/counters`, { name: 'Annex 1', locationId: 'loc_annex', services: ['svc_accounts'] })).status).toBe(201)
    // Counters 1 and 2 (hall) serve Accounts: Accounts may not leave the hall.
    const accounts = await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', `${UNIT}/services/svc_accounts`))
    const moved = await expectError(await admin(ctx, ctx.cookie.root, 'PATCH', `${UNIT}/services/svc_accounts`, { locations: ['loc_annex'], revision: accounts.revision }), 422, 'VALIDATION_FAILED')
    expect(moved.error.details.map((d: { path: string; params: { counter: string } }) => [d.path, d.params.counter])).toEqual([['/locations', 'cnt_1'], ['/locations', 'cnt_2']])
    expect((await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', `${UNIT}/services/svc_accounts`))).locations).toEqual(accounts.locations)
    // A counter moved to the annex while serving Loans: refused too.
    const one = await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', `${UNIT}/counters/cnt_1`))
    const away = await expectError(await admin(ctx, ctx.cookie.root, 'PATCH', `${UNIT}/counters/cnt_1`, { locationId: 'loc_annex', revision: one.revision }), 422, 'VALIDATION_FAILED')
    expect(away.error.details.map((d: { path: string }) => d.path)).toEqual(['/services/1'])
  })
})
