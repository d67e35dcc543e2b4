import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { admin, adminContext, expectError, jsonOf, UNIT, type AdminTestContext } from './helpers'
import { applyProvisioning } from '../../src/provisioning/service'
import { exportProvisioning } from '../../src/provisioning/export'
import type { ProvisioningFile } from '../../src/provisioning/model'
import { applyMergePatch } from '../../src/platform/merge-patch'
import { mergeDiff } from '../../src/client/admin/merge-diff'

/*
 * Contract §24, "a save changes what it names, nothing else": the console saves a JSON Merge
 * Patch (PATCH). A write naming one field keeps every other field of the entity (appointment
 * settings, names in languages the form hides), for every entity type; after any sequence of
 * console edits, export → apply is still a no-op.
 */

/** The example document with what a form does not show: appointments, a French name in an en/ar unit, hours. */
function withHiddenFields(doc: ProvisioningFile): void {
  const unit = doc.workspaces[0]!.queueUnits![0]!
  unit.name = { en: 'Main branch', ar: 'الفرع الرئيسي', fr: 'Agence principale' }
  unit.languages = ['en', 'ar']
  unit.breakReasons = ['Prayer', 'Lunch']
  unit.noShowGraceMinutes = 20
  const hall = unit.locations![0]!
  Object.assign(hall, { name: { en: 'Main hall', fr: 'Grand hall' }, openingHours: { mon: [['08:00', '12:00']], tue: [['08:00', '16:00']] }, closedDates: ['2026-12-25'], remoteJoin: { enabled: true, maxWaiting: 40, allowedNetworks: ['10.0.0.0/8'] } })
  const accounts = unit.services![0]!
  Object.assign(accounts, {
    name: { en: 'Accounts', ar: 'الحسابات', fr: 'Comptes' }, waitTargetSeconds: 900, openingHours: { mon: [['09:00', '11:00']] },
    appointments: { enabled: true, slotMinutes: 20, capacityPerSlot: 2, bookAheadDays: 30, checkIn: { earlyMinutes: 10, lateMinutes: 5 } },
  })
  unit.counters![0]!.name = { en: 'Counter 1', ar: 'الشباك 1', fr: 'Guichet 1' }
}

const stripView = ({ revision: _r, names: _n, name: _name, ...rest }: Record<string, unknown>) => rest
/** A response as the entity it shows: its names as the name (a plain-string name stands for its object). */
const entityOf = ({ revision: _r, names, name: _name, ...rest }: Record<string, unknown>) => ({ ...rest, name: names })

describe('a console save changes what it names, nothing else (contract §24)', () => {
  let ctx: AdminTestContext

  const cases = [
    { kind: 'service', path: `${UNIT}/services/svc_accounts`, patch: { waitTargetSeconds: 1200 }, expect: (e: any) => expect(e.waitTargetSeconds).toBe(1200) },
    { kind: 'location', path: `${UNIT}/locations/loc_hall`, patch: { closedDates: ['2026-12-26'] }, expect: (e: any) => expect(e.closedDates).toEqual(['2026-12-26']) },
    { kind: 'counter', path: `${UNIT}/counters/cnt_1`, patch: { name: { ar: 'الشباك الأول' } }, expect: (e: any) => expect(e.names).toEqual({ en: 'Counter 1', ar: 'الشباك الأول', fr: 'Guichet 1' }) },
    { kind: 'queue unit', path: UNIT, patch: { kioskPriority: true }, expect: (e: any) => expect(e.kioskPriority).toBe(true) },
  ] as const

  for (const c of cases) {
    test(`${c.kind}: PATCH of one field keeps every other (hidden languages, appointments, hours)`, async () => {
      ctx ??= await adminContext(withHiddenFields)
      const before = await jsonOf(await admin(ctx, ctx.cookie.amira, 'GET', c.path))
      const saved = await admin(ctx, ctx.cookie.amira, 'PATCH', c.path, { ...c.patch, revision: before.revision })
      expect(saved.status).toBe(200)
      const after = await jsonOf(saved)
      c.expect(after)
      expect(after.revision).not.toBe(before.revision)
      const changedKeys = Object.keys(c.patch)
      const keep = (e: Record<string, unknown>) => Object.fromEntries(Object.entries(stripView(e)).filter(([k]) => !changedKeys.includes(k)))
      expect(keep(after)).toEqual(keep(before))
      // What is stored, not only what is answered: the export holds the same.
      expect(await jsonOf(await admin(ctx, ctx.cookie.amira, 'GET', c.path))).toEqual(after)
    })
  }

  test('the service keeps its appointment settings after a wait-target save, in the export too (the issue\'s data loss)', async () => {
    ctx ??= await adminContext(withHiddenFields)
    const service = exportProvisioning(ctx.db).workspaces[0]!.queueUnits![0]!.services!.find((s) => s.id === 'svc_accounts')!
    expect(service.appointments).toMatchObject({ enabled: true, slotMinutes: 20, capacityPerSlot: 2, bookAheadDays: 30, checkIn: { earlyMinutes: 10, lateMinutes: 5 } })
    expect(service.name).toEqual({ en: 'Accounts', ar: 'الحسابات', fr: 'Comptes' })
  })

  test('null removes an optional field, a name\'s language by itself; nested objects merge; a stale revision is 409 with the current entity', async () => {
    ctx ??= await adminContext(withHiddenFields)
    const path = `${UNIT}/services/svc_accounts`
    const loaded = await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', path))
    const saved = await jsonOf(await admin(ctx, ctx.cookie.root, 'PATCH', path, { name: { fr: null }, openingHours: null, appointments: { checkIn: { lateMinutes: 15 } }, revision: loaded.revision }))
    expect(saved.names).toEqual({ en: 'Accounts', ar: 'الحسابات' })
    expect(saved.openingHours).toBeUndefined()
    expect(saved.appointments).toEqual({ ...loaded.appointments, checkIn: { earlyMinutes: 10, lateMinutes: 15 } })
    const stale = await expectError(await admin(ctx, ctx.cookie.root, 'PATCH', path, { waitTargetSeconds: 60, revision: loaded.revision }), 409, 'EDIT_CONFLICT')
    expect(stale.error.current).toMatchObject({ id: 'svc_accounts', revision: saved.revision })
    // A refused patch changes nothing, and its pointer is the field's.
    const bad = await expectError(await admin(ctx, ctx.cookie.root, 'PATCH', path, { prefix: 'abc', revision: saved.revision }), 422, 'VALIDATION_FAILED')
    expect(bad.error.details[0].path).toBe('/prefix')
    expect((await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', path))).revision).toBe(saved.revision)
    // A patch without a revision is refused; an `id` in it is ignored (never a rename of the ID).
    await expectError(await admin(ctx, ctx.cookie.root, 'PATCH', path, { waitTargetSeconds: 60 }), 422, 'VALIDATION_FAILED')
    const same = await jsonOf(await admin(ctx, ctx.cookie.root, 'PATCH', path, { id: 'svc_other_id', revision: saved.revision }))
    expect(same).toMatchObject({ id: 'svc_accounts', revision: saved.revision })
  })

  test('a plain-string name patched with Arabic keeps its default-language text', async () => {
    ctx ??= await adminContext(withHiddenFields)
    const path = `${UNIT}/counters/cnt_2`
    const loaded = await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', path))
    expect(loaded.names).toEqual({ en: 'Counter 2' })
    const saved = await jsonOf(await admin(ctx, ctx.cookie.root, 'PATCH', path, { name: { ar: 'الشباك 2' }, revision: loaded.revision }))
    expect(saved.names).toEqual({ en: 'Counter 2', ar: 'الشباك 2' })
  })
})

describe('console edits and provisioning files stay one configuration (property)', () => {
  const field = fc.constantFrom(
    ['service', 'svc_accounts', fc.record({ waitTargetSeconds: fc.option(fc.integer({ min: 1, max: 86_400 }), { nil: null }) })],
    ['service', 'svc_loans', fc.record({ defaultServiceSeconds: fc.option(fc.integer({ min: 1, max: 86_400 }), { nil: null }) })],
    ['service', 'svc_accounts', fc.record({ name: fc.record({ ar: fc.option(fc.constantFrom('الحسابات', 'حسابات'), { nil: null }), fr: fc.option(fc.constantFrom('Comptes', 'Compte'), { nil: null }) }, { requiredKeys: [] }) })],
    ['service', 'svc_accounts', fc.record({ appointments: fc.record({ slotMinutes: fc.integer({ min: 5, max: 240 }) }) })],
    ['location', 'loc_hall', fc.record({ closedDates: fc.array(fc.constantFrom('2026-12-24', '2026-12-25', '2027-01-01'), { maxLength: 3 }).map((d) => [...new Set(d)].sort()) })],
    ['location', 'loc_hall', fc.record({ openingHours: fc.option(fc.record({ mon: fc.constantFrom([['08:00', '12:00']], [], [['09:00', '17:00']]) }), { nil: null }) })],
    ['location', 'loc_annex', fc.record({ lastTicketMinutesBeforeClose: fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }) })],
    ['counter', 'cnt_1', fc.record({ services: fc.constantFrom(['svc_accounts'], ['svc_loans'], ['svc_accounts', 'svc_loans']) })],
    ['counter', 'cnt_2', fc.record({ name: fc.record({ ar: fc.option(fc.constantFrom('الشباك 2', 'شباك'), { nil: null }) }) })],
    ['unit', 'qu_main', fc.record({ noShowGraceMinutes: fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }), kioskPriority: fc.boolean() }, { requiredKeys: [] })],
    ['unit', 'qu_main', fc.record({ breakReasons: fc.constantFrom(['Prayer'], ['Lunch', 'Prayer'], ['Training']) })],
  ).chain(([kind, id, patch]) => (patch as fc.Arbitrary<Record<string, unknown>>).map((p) => ({ kind: kind as string, id: id as string, patch: p })))

  test('random console edit sequences: each changes only what it names, and export → apply is a no-op after them', async () => {
    const paths: Record<string, string> = { service: `${UNIT}/services`, location: `${UNIT}/locations`, counter: `${UNIT}/counters` }
    await fc.assert(fc.asyncProperty(fc.array(field, { minLength: 1, maxLength: 8 }), async (edits) => {
      const ctx = await adminContext(withHiddenFields)
      for (const edit of edits) {
        const path = edit.kind === 'unit' ? UNIT : `${paths[edit.kind]}/${edit.id}`
        const before = await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', path))
        const answer = await admin(ctx, ctx.cookie.root, 'PATCH', path, { ...edit.patch, revision: before.revision })
        expect(answer.status).toBe(200)
        const after = entityOf(await jsonOf(answer))
        // Exactly the merge of the patch into what was there; a field set to null takes its
        // default, which the answer may show.
        const base = entityOf(before)
        const removed = Object.keys(edit.patch).filter((k) => edit.patch[k] === null)
        const without = (e: Record<string, unknown>) => Object.fromEntries(Object.entries(e).filter(([k]) => !removed.includes(k)))
        expect(without(after)).toEqual(without(applyMergePatch(base, edit.patch) as Record<string, unknown>))
      }
      const exported = exportProvisioning(ctx.db)
      const entries = ctx.db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM audit_log').get()!.n
      const again = applyProvisioning(ctx.db, JSON.parse(JSON.stringify(exported)) as ProvisioningFile, ctx.clock.now() + 1000)
      expect(Object.values(again.applied).every((c) => c.created + c.updated === 0)).toBe(true)
      expect(ctx.db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM audit_log').get()!.n).toBe(entries)
      expect(exportProvisioning(ctx.db)).toEqual(exported)
    }), { numRuns: 8, seed: 44 })
  }, 120_000)

  test('the page\'s diff applied as a merge patch gives what the form shows (property)', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.string({ maxLength: 4 }), fc.boolean(), fc.array(fc.integer(), { maxLength: 3 }), tie('object')),
      object: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'name', '__proto__'), tie('value'), { maxKeys: 4 }),
    }))
    fc.assert(fc.property(json.object as fc.Arbitrary<Record<string, unknown>>, json.object as fc.Arbitrary<Record<string, unknown>>, (before, after) => {
      expect(applyMergePatch(before, mergeDiff(before, after))).toEqual(after)
    }), { numRuns: 500, seed: 7 })
  })
})
