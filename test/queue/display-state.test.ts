import { describe, expect, test } from 'bun:test'
import { queueDisplayState, RECENT_CALLS } from '../../src/tickets/display-state'
import { counterContext, issued, ok, act, callNext, op, mainUnit, revision } from '../counters/helpers'
import type { ProvisioningFile } from '../../src/provisioning/model'

const T0 = '2026-11-25T09:30:00.000Z'

describe('queueDisplayState (docs/display.md queue state)', () => {
  test('the documented body: unit, revision, active locations and services with live counts, recent calls', async () => {
    const ctx = counterContext()
    const a = await issued(ctx)
    await issued(ctx)
    await issued(ctx, { locationId: 'loc_annex', serviceId: 'svc_accounts' })
    await ok(callNext(ctx, 'cnt_1'))
    ctx.clock.advance(5_000)
    await ok(act(ctx, a.id, 'start'))
    const state = queueDisplayState(ctx.deps, 'qu_main', 'ws_demo')
    expect(state).toEqual({
      queueUnitId: 'qu_main',
      name: 'Main branch',
      names: { en: 'Main branch' },
      defaultLanguage: 'en',
      languages: ['en'],
      stateRevision: revision(ctx),
      generatedAt: '2026-11-25T09:30:05.000Z',
      locations: [
        { id: 'loc_annex', name: 'Annex', names: { en: 'Annex' }, timezone: 'Europe/Berlin', open: true, opensAt: null },
        { id: 'loc_hall', name: 'Main hall', names: { en: 'Main hall' }, timezone: 'Europe/Berlin', open: true, opensAt: null },
      ],
      // Contract §19: the annex has no counter (one assumed, flagged); the hall's ticket waits for
      // the rest of cnt_1's ticket (300 s counted from its call 5 s ago: 295) plus its own turn;
      // loans waits for cnt_1's current ticket and the older accounts ticket.
      services: [
        { id: 'svc_accounts', name: 'Accounts', names: { en: 'Accounts' }, prefix: 'A', locationId: 'loc_annex', waiting: 1, estimatedWaitSeconds: 600, noCounterOpen: true, peopleAhead: 1, counterFree: false, nowServing: null, open: true, opensAt: null },
        {
          id: 'svc_accounts', name: 'Accounts', names: { en: 'Accounts' }, prefix: 'A', locationId: 'loc_hall', waiting: 1, estimatedWaitSeconds: 595, noCounterOpen: false, peopleAhead: 1, counterFree: false,
          nowServing: { number: 'A001', counterName: 'Counter 1', counterNames: { en: 'Counter 1' }, status: 'SERVING', calledAt: T0, priority: false },
          open: true, opensAt: null,
        },
        { id: 'svc_loans', name: 'Loans', names: { en: 'Loans' }, prefix: 'L', locationId: 'loc_hall', waiting: 0, estimatedWaitSeconds: 595, noCounterOpen: false, peopleAhead: 0, counterFree: false, nowServing: null, open: true, opensAt: null },
      ],
      recentCalls: [
        { number: 'A001', serviceId: 'svc_accounts', locationId: 'loc_hall', counterName: 'Counter 1', counterNames: { en: 'Counter 1' }, calledAt: T0, status: 'SERVING', priority: false },
      ],
    })
    // Exactly the documented keys, in the documented order.
    expect(Object.keys(state!)).toEqual(['queueUnitId', 'name', 'names', 'defaultLanguage', 'languages', 'stateRevision', 'generatedAt', 'locations', 'services', 'recentCalls'])
    expect(Object.keys(state!.locations[0]!)).toEqual(['id', 'name', 'names', 'timezone', 'open', 'opensAt'])
    expect(Object.keys(state!.services[0]!)).toEqual(['id', 'name', 'names', 'prefix', 'locationId', 'waiting', 'estimatedWaitSeconds', 'noCounterOpen', 'peopleAhead', 'counterFree', 'nowServing', 'open', 'opensAt'])
    expect(Object.keys(state!.recentCalls[0]!)).toEqual(['number', 'serviceId', 'locationId', 'counterName', 'counterNames', 'calledAt', 'status', 'priority'])
  })

  test('recent calls: the last 10, newest first, recalls included with their own time', async () => {
    const ctx = counterContext()
    const tickets = [] as { id: string }[]
    for (let i = 0; i < 7; i++) tickets.push(await issued(ctx))
    for (const ticket of tickets.slice(0, 6)) {
      ctx.clock.advance(1000)
      await ok(act(ctx, ticket.id, 'call', { counterId: 'cnt_2' }))
      ctx.clock.advance(1000)
      await ok(act(ctx, ticket.id, 'recall'))
      if (ticket !== tickets[5]) await ok(act(ctx, ticket.id, 'no-show'))
    }
    const calls = queueDisplayState(ctx.deps, 'qu_main', 'ws_demo')!.recentCalls
    expect(calls).toHaveLength(RECENT_CALLS)
    expect(calls[0]).toEqual({ number: 'A006', serviceId: 'svc_accounts', locationId: 'loc_hall', counterName: 'Counter 2', counterNames: { en: 'Counter 2' }, calledAt: '2026-11-25T09:30:12.000Z', status: 'CALLED', priority: false })
    expect(calls[1]).toMatchObject({ number: 'A006', calledAt: '2026-11-25T09:30:11.000Z' })
    expect(calls[2]).toMatchObject({ number: 'A005', calledAt: '2026-11-25T09:30:10.000Z', status: 'NO_SHOW' })
    expect(calls.at(-1)).toMatchObject({ number: 'A002', calledAt: '2026-11-25T09:30:03.000Z' })
    const times = calls.map((c) => Date.parse(c.calledAt))
    expect([...times].sort((x, y) => y - x)).toEqual(times)
  })

  test('all active services at active locations, whatever a key could see; an inactive location and its calls are left out', async () => {
    const ctx = counterContext((doc) => {
      mainUnit(doc).counters!.push({ id: 'cnt_annex', name: 'Annex desk', locationId: 'loc_annex', services: ['svc_accounts'] })
    })
    await issued(ctx, { locationId: 'loc_annex', serviceId: 'svc_accounts' })
    await ok(callNext(ctx, 'cnt_annex'))
    expect(queueDisplayState(ctx.deps, 'qu_main', 'ws_demo')!.recentCalls).toHaveLength(1)
    ctx.db.$client.exec("UPDATE locations SET active = 0 WHERE id = 'loc_annex'")
    const state = queueDisplayState(ctx.deps, 'qu_main', 'ws_demo')!
    expect(state.locations.map((l) => l.id)).toEqual(['loc_hall'])
    expect(state.services.map((s) => `${s.id}@${s.locationId}`)).toEqual(['svc_accounts@loc_hall', 'svc_loans@loc_hall'])
    expect(state.recentCalls).toEqual([])
  })

  test('one location: only its entries; null for an unknown unit, another workspace\'s, or a location not active in the unit', async () => {
    const ctx = counterContext()
    await issued(ctx)
    await ok(callNext(ctx, 'cnt_1'))
    const annex = queueDisplayState(ctx.deps, 'qu_main', 'ws_demo', 'loc_annex')!
    expect(annex.locations.map((l) => l.id)).toEqual(['loc_annex'])
    expect(annex.services.map((s) => s.locationId)).toEqual(['loc_annex'])
    expect(annex.recentCalls).toEqual([])
    expect(queueDisplayState(ctx.deps, 'qu_main', 'ws_demo', 'loc_hall')!.recentCalls).toHaveLength(1)
    expect(queueDisplayState(ctx.deps, 'qu_nope', 'ws_demo')).toBeNull()
    expect(queueDisplayState(ctx.deps, 'qu_main', 'ws_other')).toBeNull()
    expect(queueDisplayState(ctx.deps, 'qu_main', 'ws_demo', 'loc_nope')).toBeNull()
  })

  test('the revision in the body moves with every change and the body follows at once', async () => {
    const ctx = counterContext()
    const r0 = queueDisplayState(ctx.deps, 'qu_main', 'ws_demo')!.stateRevision
    await ok(op(ctx, 'POST', '/counters/cnt_1/open'))
    const opened = queueDisplayState(ctx.deps, 'qu_main', 'ws_demo')!
    expect(opened.stateRevision).toBe(r0 + 1)
    // Contract §19: nobody waits and the open counter is free, so a new ticket is next (Part one said 300).
    expect(opened.services.find((s) => s.locationId === 'loc_hall' && s.id === 'svc_accounts')!.estimatedWaitSeconds).toBe(0)
    const t = await issued(ctx)
    await ok(act(ctx, t.id, 'cancel'))
    expect(queueDisplayState(ctx.deps, 'qu_main', 'ws_demo')!.stateRevision).toBe(r0 + 3)
  })
})

/** Arabic first (default), English second; the hall open weekdays 08:30–16:30 (Berlin), last ticket 15 minutes before; Loans only Monday 10:00–12:00. */
function bilingualWithHours(doc: ProvisioningFile) {
  const unit = mainUnit(doc) as any
  unit.name = { ar: 'الفرع الرئيسي', en: 'Main branch' }
  unit.defaultLanguage = 'ar'
  unit.languages = ['ar', 'en']
  unit.services[0].name = { en: 'Accounts', ar: 'الحسابات' }
  unit.services[1].openingHours = { mon: [['10:00', '12:00']] }
  unit.counters[0].name = { en: 'Counter 1', ar: 'الشباك 1' }
  const hall = unit.locations[0]
  hall.name = { ar: 'القاعة الرئيسية', en: 'Main hall' }
  hall.openingHours = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['08:30', '16:30']]]))
  hall.lastTicketMinutesBeforeClose = 15
}

describe('names and opening hours in the display state (contract §18)', () => {
  test('names beside name (an object always), the unit\'s languages, counter names in now serving and recent calls', async () => {
    const ctx = counterContext(bilingualWithHours)
    ctx.clock.set('2026-11-30T09:30:00Z') // Monday 10:30 in Berlin
    await issued(ctx)
    await ok(callNext(ctx, 'cnt_1'))
    const state = queueDisplayState(ctx.deps, 'qu_main', 'ws_demo')!
    expect(state).toMatchObject({ name: 'الفرع الرئيسي', names: { ar: 'الفرع الرئيسي', en: 'Main branch' }, defaultLanguage: 'ar', languages: ['ar', 'en'] })
    const hall = state.locations.find((l) => l.id === 'loc_hall')!
    expect(hall).toMatchObject({ name: 'القاعة الرئيسية', names: { ar: 'القاعة الرئيسية', en: 'Main hall' } })
    // A plain name is one entry, in the default language.
    expect(state.locations.find((l) => l.id === 'loc_annex')!.names).toEqual({ ar: 'Annex' })
    const accounts = state.services.find((s) => s.id === 'svc_accounts' && s.locationId === 'loc_hall')!
    expect(accounts.names).toEqual({ en: 'Accounts', ar: 'الحسابات' })
    expect(accounts.nowServing!.counterNames).toEqual({ en: 'Counter 1', ar: 'الشباك 1' })
    expect(state.recentCalls[0]!.counterNames).toEqual({ en: 'Counter 1', ar: 'الشباك 1' })
  })

  test('open and opensAt per service and per location follow the injected clock across a closing and an opening', async () => {
    const ctx = counterContext(bilingualWithHours)
    const at = (iso: string) => {
      ctx.clock.set(iso)
      const state = queueDisplayState(ctx.deps, 'qu_main', 'ws_demo')!
      const line = (id: string) => state.services.find((s) => s.id === id && s.locationId === 'loc_hall')!
      return { hall: state.locations.find((l) => l.id === 'loc_hall')!, annex: state.locations.find((l) => l.id === 'loc_annex')!, accounts: line('svc_accounts'), loans: line('svc_loans') }
    }
    // Monday 10:30: both open.
    let s = at('2026-11-30T09:30:00Z')
    expect([s.hall.open, s.hall.opensAt, s.accounts.open, s.loans.open]).toEqual([true, null, true, true])
    // 12:00: Loans closed until next Monday 10:00; the hall stays open with Accounts.
    s = at('2026-11-30T11:00:00Z')
    expect(s.loans).toMatchObject({ open: false, opensAt: '2026-12-07T09:00:00.000Z' })
    expect(s.hall).toMatchObject({ open: true, opensAt: null })
    // 16:14 open, 16:15 (15 minutes before 16:30) the last ticket is past: the hall is closed until Tuesday 08:30.
    s = at('2026-11-30T15:14:59Z')
    expect(s.accounts.open).toBe(true)
    s = at('2026-11-30T15:15:00Z')
    expect(s.accounts).toMatchObject({ open: false, opensAt: '2026-12-01T07:30:00.000Z' })
    expect(s.hall).toMatchObject({ open: false, opensAt: '2026-12-01T07:30:00.000Z' })
    // Contract §19: closed, the integer stays: the time until it opens (16 h 15 min) plus the
    // estimate (no counter open, nobody waiting: one counter assumed, busy for one average, 300 s).
    expect(s.accounts).toMatchObject({ estimatedWaitSeconds: (16 * 60 + 15) * 60 + 300, noCounterOpen: true })
    // The annex has no hours: always open.
    expect(s.annex).toMatchObject({ open: true, opensAt: null })
    // Tuesday 08:30: open again; the clock going back reads the earlier state again (nothing stale from the cache).
    expect(at('2026-12-01T07:30:00Z').hall).toMatchObject({ open: true, opensAt: null })
    expect(at('2026-11-30T15:20:00Z').hall).toMatchObject({ open: false, opensAt: '2026-12-01T07:30:00.000Z' })
  })
})
