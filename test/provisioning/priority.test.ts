import { describe, expect, test } from 'bun:test'
import { testContext } from '../support/app'
import { exampleDocument } from '../support/fixtures'
import { applyProvisioning } from '../../src/provisioning/service'
import { refusal, unitOf, UNIT } from './helpers'




const settings = (ctx: ReturnType<typeof testContext>) =>
  ctx.db.$client.query("SELECT priority_mode AS mode, normal_per_priority AS n, kiosk_priority AS kiosk FROM queue_units WHERE id = 'qu_main'").get()

describe('provisioning: the queue unit\'s priority and kioskPriority', () => {
  test('absent: FIRST and no kiosk choice', () => {
    const ctx = testContext()
    applyProvisioning(ctx.db, exampleDocument(), ctx.clock.now())
    expect(settings(ctx)).toEqual({ mode: 'FIRST', n: null, kiosk: 0 })
  })

  test('INTERLEAVE with normalPerPriority and kioskPriority are stored; applying again changes nothing; removing them restores the defaults', () => {
    const ctx = testContext()
    const doc = exampleDocument()
    unitOf(doc).priority = { mode: 'INTERLEAVE', normalPerPriority: 3 }
    unitOf(doc).kioskPriority = true
    applyProvisioning(ctx.db, doc, ctx.clock.now())
    expect(settings(ctx)).toEqual({ mode: 'INTERLEAVE', n: 3, kiosk: 1 })
    expect(applyProvisioning(ctx.db, doc, ctx.clock.now()).applied.queueUnits).toEqual({ created: 0, updated: 0, unchanged: 1 })
    expect(ctx.deps.tickets.priorityPolicy('qu_main')).toEqual({ mode: 'INTERLEAVE', normalPerPriority: 3 })
    unitOf(doc).priority = { mode: 'FIRST' }
    delete unitOf(doc).kioskPriority
    expect(applyProvisioning(ctx.db, doc, ctx.clock.now()).applied.queueUnits).toEqual({ created: 0, updated: 1, unchanged: 0 })
    expect(settings(ctx)).toEqual({ mode: 'FIRST', n: null, kiosk: 0 })
    expect(ctx.deps.tickets.priorityPolicy('qu_main')).toEqual({ mode: 'FIRST' })
  })

  test('INTERLEAVE without normalPerPriority, and FIRST with one, are refused at the field', () => {
    expect(refusal((u) => { u.priority = { mode: 'INTERLEAVE' } })).toEqual([
      { path: `${UNIT}/priority/normalPerPriority`, message: 'required when mode is INTERLEAVE' },
    ])
    expect(refusal((u) => { u.priority = { mode: 'FIRST', normalPerPriority: 2 } })).toEqual([
      { path: `${UNIT}/priority/normalPerPriority`, message: 'only with mode INTERLEAVE' },
    ])
  })

  test('schema errors name their path: an unknown mode, N out of 1..100 or not an integer, an unknown field, a non-boolean kioskPriority', () => {
    const paths = (edit: (u: any) => void) => refusal(edit).map((d) => d.path)
    expect(paths((u) => { u.priority = { mode: 'RANDOM' } })).toContain(`${UNIT}/priority/mode`)
    expect(paths((u) => { u.priority = { mode: 'INTERLEAVE', normalPerPriority: 0 } })).toEqual([`${UNIT}/priority/normalPerPriority`])
    expect(paths((u) => { u.priority = { mode: 'INTERLEAVE', normalPerPriority: 101 } })).toEqual([`${UNIT}/priority/normalPerPriority`])
    expect(paths((u) => { u.priority = { mode: 'INTERLEAVE', normalPerPriority: 1.5 } })).toEqual([`${UNIT}/priority/normalPerPriority`])
    expect(paths((u) => { u.priority = { mode: 'FIRST', ratio: 2 } })).toEqual([`${UNIT}/priority/ratio`])
    expect(paths((u) => { u.priority = 'FIRST' })).toEqual([`${UNIT}/priority`])
    expect(paths((u) => { u.kioskPriority = 'yes' })).toEqual([`${UNIT}/kioskPriority`])
  })
})
