import { expect } from 'bun:test'
import { testContext } from '../support/app'
import { exampleDocument } from '../support/fixtures'
import { applyProvisioning, ProvisioningError } from '../../src/provisioning/service'
import type { ProvisioningFile } from '../../src/provisioning/model'

/** The JSON Pointer of the example document's one queue unit. */
export const UNIT = '/workspaces/0/queueUnits/0'

/** The example document's queue unit, for edits (loosely typed: tests put wrong values in it). */
export function unitOf(doc: ProvisioningFile): any {
  return doc.workspaces[0]!.queueUnits![0]!
}

/** The details of the ProvisioningError the example document edited by `edit` raises, after checking nothing was written. */
export function refusal(edit: (unit: any) => void) {
  const ctx = testContext()
  const doc = exampleDocument()
  edit(unitOf(doc))
  try {
    applyProvisioning(ctx.db, doc, ctx.clock.now())
  } catch (e) {
    expect(e).toBeInstanceOf(ProvisioningError)
    expect(ctx.db.$client.query('SELECT count(*) AS n FROM queue_units').get()).toEqual({ n: 0 })
    // Where and what, in English; the rule each detail names is tested by test/admin/error-words.test.ts.
    return (e as ProvisioningError).details.map(({ path, message }) => ({ path, message }))
  }
  throw new Error('expected a ProvisioningError')
}
