import { describe, expect, test } from 'bun:test'
import { OP, ok } from '../counters/helpers'
import { asDevice, jsonOf } from '../devices/helpers'
import { mainUnit } from '../queue/helpers'
import { exportProvisioning } from '../../src/provisioning/export'
import { applyProvisioning } from '../../src/provisioning/service'
import { testContext } from '../support/app'
import { exampleDocument } from '../support/fixtures'
import { clerkContext, deskOf, deskView, intervals, signedInAt } from './helpers'

/*
 * Contract §28: "Break reasons have names per language: a breakReasons item is a string (as
 * before) or {"id", "name"} with name as §18; close {"reason"} takes the id (or the string), and
 * pages and reports show the name in the reader's language." Issue 48 saw "استراحة: Prayer".
 */

const PRAYER = { id: 'prayer', name: { en: 'Prayer', ar: 'صلاة' } }

describe('break reasons with names per language (contract §28)', () => {
  test('a file mixes both forms; the desk gets the ids and each one\'s names; the plain standard ones read in Arabic too', async () => {
    const ctx = await clerkContext((doc) => { mainUnit(doc).breakReasons = [PRAYER, 'Lunch', 'Cash count'] })
    const view = await deskView(ctx, await deskOf(ctx))
    expect(view.breakReasons).toEqual(['prayer', 'Lunch', 'Cash count'])
    expect(view.breakReasonNames).toEqual({ prayer: { en: 'Prayer', ar: 'صلاة' }, Lunch: { en: 'Lunch', ar: 'غداء' }, 'Cash count': { en: 'Cash count' } })
  })

  test('close {"reason"} takes the id, and the break stores it; the name is not an id', async () => {
    const ctx = await clerkContext((doc) => { mainUnit(doc).breakReasons = [PRAYER, 'Lunch'] })
    const desk = await deskOf(ctx)
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/open`))
    const byName = await asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/close`, { reason: 'Prayer' })
    expect(byName.status).toBe(422)
    expect((await jsonOf(byName)).error.details).toEqual([{ path: '/reason', message: 'must be one of the unit\'s breakReasons: prayer, Lunch' }])
    await signedInAt(ctx, desk, 'samir.k')
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/close`, { reason: 'prayer' }))
    expect(intervals(ctx).filter((i) => i.kind === 'break').map((i) => i.reason)).toEqual(['prayer'])
  })

  test('the export gives back the file\'s form, both kinds, and provisioning it again changes nothing', () => {
    const ctx = testContext()
    const doc = exampleDocument()
    mainUnit(doc).breakReasons = [PRAYER, 'Lunch']
    applyProvisioning(ctx.db, doc, ctx.clock.now())
    const exported = exportProvisioning(ctx.db)
    expect(exported.workspaces[0]!.queueUnits![0]!.breakReasons).toEqual([PRAYER, 'Lunch'])
    expect(applyProvisioning(ctx.db, exported, ctx.clock.now()).applied.queueUnits).toEqual({ created: 0, updated: 0, unchanged: 1 })
  })

  test('an id twice (a string and an item) is refused; an item needs an id and a name', () => {
    const refused = (reasons: unknown) => {
      const ctx = testContext()
      const doc = exampleDocument()
      ;(mainUnit(doc) as any).breakReasons = reasons
      try {
        applyProvisioning(ctx.db, doc, ctx.clock.now())
        return []
      } catch (error) {
        return ((error as { details?: { path: string }[] }).details ?? [{ path: String(error) }]).map((d) => d.path)
      }
    }
    expect(refused(['prayer', PRAYER])).toContain('/workspaces/0/queueUnits/0/breakReasons/1')
    expect(refused([{ id: 'prayer' }]).length).toBeGreaterThan(0)
    expect(refused([{ id: 'prayer', name: {} }]).length).toBeGreaterThan(0)
    expect(refused([PRAYER])).toEqual([])
  })
})
