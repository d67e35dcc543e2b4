import { describe, expect, test } from 'bun:test'
import { testContext } from '../support/app'
import { exampleDocument, provision } from '../support/fixtures'
import { applyProvisioning, ProvisioningError } from '../../src/provisioning/service'
import { refusal, UNIT, unitOf } from './helpers'

/*
 * Contract §24: a service's prefix is unique within its queue unit; a duplicate is refused.
 * Retired services keep theirs (their tickets carry it). Another unit may use the same letters.
 */

const prefixOf = (ctx: ReturnType<typeof testContext>, id: string) =>
  (ctx.db.$client.query('SELECT prefix FROM services WHERE id = ?1').get(id) as { prefix: string } | null)?.prefix

describe('service prefixes within a queue unit', () => {
  test('two services with "A" in one unit: refused at the second one\'s prefix, nothing written', () => {
    const details = refusal((unit) => unit.services.push({ id: 'svc_audit', name: 'Audit', prefix: 'A', locations: ['loc_hall'] }))
    expect(details).toEqual([{ path: `${UNIT}/services/3/prefix`, message: '"A" is already the prefix of service svc_accounts in this queue unit' }])
  })

  test('a retired service keeps its prefix: a new service cannot take it', () => {
    const details = refusal((unit) => unit.services.push({ id: 'svc_cash', name: 'Cash', prefix: 'C', locations: ['loc_hall'] }))
    expect(details).toEqual([{ path: `${UNIT}/services/3/prefix`, message: '"C" is already the prefix of service svc_closed in this queue unit' }])
  })

  test('the same prefix in two different units is fine', () => {
    const ctx = testContext()
    const doc = exampleDocument()
    doc.workspaces[0]!.queueUnits!.push({
      id: 'qu_east', name: 'East branch',
      locations: [{ id: 'loc_east', name: 'East hall', timezone: 'Europe/Berlin' }],
      services: [{ id: 'svc_east', name: 'East accounts', prefix: 'A', locations: ['loc_east'] }],
    })
    provision(ctx, doc)
    expect([prefixOf(ctx, 'svc_accounts'), prefixOf(ctx, 'svc_east')]).toEqual(['A', 'A'])
  })

  test('a file naming one service is checked against the unit\'s stored services; its own stored prefix is no conflict', () => {
    const ctx = testContext()
    provision(ctx, exampleDocument())
    const only = (service: Record<string, unknown>) => {
      const doc = exampleDocument()
      const unit = unitOf(doc)
      unit.services = [service]
      delete unit.counters
      delete unit.apiKeys
      delete unit.webhooks
      return doc
    }
    try {
      applyProvisioning(ctx.db, only({ id: 'svc_audit', name: 'Audit', prefix: 'L', locations: ['loc_hall'] }), ctx.clock.now())
      throw new Error('expected a ProvisioningError')
    } catch (e) {
      expect(e).toBeInstanceOf(ProvisioningError)
      expect((e as ProvisioningError).details).toEqual([{ path: `${UNIT}/services/0/prefix`, message: '"L" is already the prefix of service svc_loans in this queue unit', rule: 'taken', params: { value: 'L' } }])
    }
    expect(prefixOf(ctx, 'svc_audit')).toBeUndefined()
    // Renamed, the same prefix: the service's own stored row is no conflict.
    applyProvisioning(ctx.db, only({ id: 'svc_loans', name: 'Loans and mortgages', prefix: 'L', locations: ['loc_hall'] }), ctx.clock.now())
    // A file that moves a letter from one service to another, both named in it, is judged as the file says.
    const doc = exampleDocument()
    const services = unitOf(doc).services
    services[0].prefix = 'L'
    services[1].prefix = 'A'
    applyProvisioning(ctx.db, doc, ctx.clock.now())
    expect([prefixOf(ctx, 'svc_accounts'), prefixOf(ctx, 'svc_loans')]).toEqual(['L', 'A'])
  })
})
