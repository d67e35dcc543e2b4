import { describe, expect, test } from 'bun:test'
import { admin, adminContext, expectError, UNIT, type AdminTestContext } from './helpers'
import { applyProvisioning, ProvisioningError } from '../../src/provisioning/service'
import { exportProvisioning } from '../../src/provisioning/export'
import type { ErrorDetail } from '../../src/platform/errors'

/*
 * One validator (contract §17): the same bad input gives the same JSON Pointer from the admin
 * API and from a provisioning file. The API's pointer is relative to the entity it was sent;
 * the file's is into the whole document, and ends with the same relative pointer after the
 * entity's own (`/workspaces/0/queueUnits/0/services/3` + `/name/ar`).
 */

type Kind = 'locations' | 'services' | 'counters'

const CASES: { what: string; kind: Kind; entity: Record<string, unknown>; pointer: string }[] = [
  { what: 'an empty Arabic name', kind: 'services', entity: { id: 'svc_bad', name: { en: 'Remittances', ar: '' }, prefix: 'R', locations: ['loc_hall'] }, pointer: '/name/ar' },
  { what: 'a name under a language tag that is none', kind: 'counters', entity: { id: 'cnt_bad', name: { en: 'Counter', 'not a tag!': 'x' }, locationId: 'loc_hall', services: ['svc_accounts'] }, pointer: '/name/not a tag!' },
  { what: 'opening hours past midnight', kind: 'services', entity: { id: 'svc_bad', name: 'Late', prefix: 'Z', locations: ['loc_hall'], openingHours: { mon: [['08:00', '25:00']] } }, pointer: '/openingHours/mon/0/1' },
  { what: 'overlapping opening hours', kind: 'locations', entity: { id: 'loc_bad', name: 'Hall', timezone: 'Europe/Berlin', openingHours: { tue: [['08:00', '12:00'], ['11:00', '14:00']] } }, pointer: '/openingHours/tue/1' },
  { what: 'a CIDR that is none', kind: 'locations', entity: { id: 'loc_bad', name: 'Hall', timezone: 'Europe/Berlin', remoteJoin: { enabled: true, allowedNetworks: ['10.0.0.0/8', '300.1.1.0/24'] } }, pointer: '/remoteJoin/allowedNetworks/1' },
  { what: 'a prefix in lower case', kind: 'services', entity: { id: 'svc_bad', name: 'Loans', prefix: 'ab', locations: ['loc_hall'] }, pointer: '/prefix' },
]

function filePointers(ctx: AdminTestContext, kind: Kind, entity: Record<string, unknown>): { details: ErrorDetail[]; prefix: string } {
  const doc = exportProvisioning(ctx.db)
  const unit = doc.workspaces[0]!.queueUnits![0]!
  const list = unit[kind] as unknown[]
  list.push(entity)
  const prefix = `/workspaces/0/queueUnits/0/${kind}/${list.length - 1}`
  try {
    applyProvisioning(ctx.db, doc, ctx.clock.now())
  } catch (error) {
    if (error instanceof ProvisioningError) return { details: error.details, prefix }
    throw error
  }
  throw new Error('the file was accepted')
}

describe('validation parity between the console and provisioning files', () => {
  let ctx: AdminTestContext
  for (const c of CASES) {
    test(`${c.what}: ${c.pointer} both ways`, async () => {
      ctx ??= await adminContext()
      const answer = await expectError(await admin(ctx, ctx.cookie.root, 'POST', `${UNIT}/${c.kind}`, c.entity), 422, 'VALIDATION_FAILED')
      const apiPaths = answer.error.details.map((d: ErrorDetail) => d.path)
      expect(apiPaths).toContain(c.pointer)
      const file = filePointers(ctx, c.kind, c.entity)
      expect(file.details.map((d) => d.path)).toContain(`${file.prefix}${c.pointer}`)
      // Every pointer of the file's answer is the API's, made absolute; so are pointers inside the messages.
      expect(file.details.map((d) => ({ ...d, path: d.path.slice(file.prefix.length), message: d.message.replaceAll(`${file.prefix}/`, '/') }))).toEqual(answer.error.details)
    })
  }

  test('nothing of a refused write was kept: no row, no audit entry', async () => {
    const entries = ctx.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM audit_log WHERE entity_id LIKE '%_bad'").get()!.n
    expect(entries).toBe(0)
    expect(ctx.db.$client.query("SELECT id FROM services WHERE id = 'svc_bad' UNION SELECT id FROM locations WHERE id = 'loc_bad'").all()).toEqual([])
  })
})
