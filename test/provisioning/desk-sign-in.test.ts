import { describe, expect, test } from 'bun:test'
import { testContext } from '../support/app'
import { exampleDocument } from '../support/fixtures'
import { applyProvisioning } from '../../src/provisioning/service'
import { refusal, unitOf, UNIT } from './helpers'




const settings = (ctx: ReturnType<typeof testContext>) => {
  const row = ctx.db.$client.query("SELECT desk_sign_in AS deskSignIn, break_reasons AS breakReasons FROM queue_units WHERE id = 'qu_main'").get() as { deskSignIn: string; breakReasons: string }
  return { deskSignIn: row.deskSignIn, breakReasons: JSON.parse(row.breakReasons) as string[] }
}

describe('provisioning: the queue unit\'s deskSignIn and breakReasons (contract §16)', () => {
  test('absent: optional, and the default reasons', () => {
    const ctx = testContext()
    applyProvisioning(ctx.db, exampleDocument(), ctx.clock.now())
    expect(settings(ctx)).toEqual({ deskSignIn: 'optional', breakReasons: ['Break', 'Lunch', 'Admin work', 'Other'] })
  })

  test('stored as given; applying again changes nothing; removing them restores the defaults', () => {
    const ctx = testContext()
    const doc = exampleDocument()
    unitOf(doc).deskSignIn = 'required'
    unitOf(doc).breakReasons = ['Prayer', 'Lunch', 'استراحة']
    applyProvisioning(ctx.db, doc, ctx.clock.now())
    expect(settings(ctx)).toEqual({ deskSignIn: 'required', breakReasons: ['Prayer', 'Lunch', 'استراحة'] })
    expect(applyProvisioning(ctx.db, doc, ctx.clock.now()).applied.queueUnits).toEqual({ created: 0, updated: 0, unchanged: 1 })
    delete unitOf(doc).deskSignIn
    delete unitOf(doc).breakReasons
    expect(applyProvisioning(ctx.db, doc, ctx.clock.now()).applied.queueUnits).toEqual({ created: 0, updated: 1, unchanged: 0 })
    expect(settings(ctx)).toEqual({ deskSignIn: 'optional', breakReasons: ['Break', 'Lunch', 'Admin work', 'Other'] })
  })

  test('a duplicate reason is refused at its index, naming the first', () => {
    expect(refusal((u) => { u.breakReasons = ['Lunch', 'Break', 'Lunch'] })).toEqual([
      { path: `${UNIT}/breakReasons/2`, message: `duplicate break reason (also at ${UNIT}/breakReasons/0)` },
    ])
  })

  test('schema errors name their path: an unknown deskSignIn, no reasons, more than 20, an empty or blank one, over 60 characters, not a string', () => {
    const paths = (edit: (u: any) => void) => [...new Set(refusal(edit).map((d) => d.path))]
    expect(paths((u) => { u.deskSignIn = 'always' })).toEqual([`${UNIT}/deskSignIn`])
    expect(paths((u) => { u.breakReasons = [] })).toEqual([`${UNIT}/breakReasons`])
    expect(paths((u) => { u.breakReasons = Array.from({ length: 21 }, (_, i) => `Reason ${i}`) })).toEqual([`${UNIT}/breakReasons`])
    expect(paths((u) => { u.breakReasons = ['Lunch', ''] })).toEqual([`${UNIT}/breakReasons/1`])
    expect(paths((u) => { u.breakReasons = ['   '] })).toEqual([`${UNIT}/breakReasons/0`])
    expect(paths((u) => { u.breakReasons = ['x'.repeat(61)] })).toEqual([`${UNIT}/breakReasons/0`])
    expect(paths((u) => { u.breakReasons = ['Lunch', 7] })).toEqual([`${UNIT}/breakReasons/1`])
    expect(paths((u) => { u.breakReasons = 'Lunch' })).toEqual([`${UNIT}/breakReasons`])
  })

  test('20 reasons of 60 characters are accepted', () => {
    const ctx = testContext()
    const doc = exampleDocument()
    unitOf(doc).breakReasons = Array.from({ length: 20 }, (_, i) => `${String(i).padStart(2, '0')}${'r'.repeat(58)}`)
    applyProvisioning(ctx.db, doc, ctx.clock.now())
    expect(settings(ctx).breakReasons).toHaveLength(20)
  })
})
