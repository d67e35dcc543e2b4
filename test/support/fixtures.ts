import { join } from 'node:path'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { tempDir } from './cli'
import { applyProvisioning, type ProvisionResult } from '../../src/provisioning/service'
import type { ProvisioningFile } from '../../src/provisioning/model'
import type { TestContext } from './app'

export interface Provisioned extends ProvisionResult {
  /** The secret this run created for kind/owner/name; throws when there is none. */
  secret(kind: 'workspace' | 'queue' | 'display' | 'webhook', owner: string, name: string): string
}

/** Applies a provisioning document to the test database at the test clock's time. */
export function provision(ctx: Pick<TestContext, 'db' | 'clock'>, document: ProvisioningFile): Provisioned {
  const result = applyProvisioning(ctx.db, document, ctx.clock.now())
  return {
    ...result,
    secret(kind, owner, name) {
      const found = result.secrets.find((s) => s.kind === kind && s.owner === owner && s.name === name)
      if (!found) throw new Error(`no ${kind} secret for ${owner}/${name} in this provisioning run`)
      return found.secret
    },
  }
}

/** The contract §1 example, with a second location, service, counter and key for scope tests. */
export function exampleDocument(): ProvisioningFile {
  return {
    workspaces: [{
      id: 'ws_demo', name: 'Demo workspace',
      apiKeys: [{ name: 'cms' }],
      displayTokens: [{ name: 'lobby-screens' }],
      widgets: [
        { id: 'wdg_schedule_lobby', type: 'TODAYS_SCHEDULE', name: 'Lobby schedule', pushSource: 'ACTIVE' },
        { id: 'wdg_announcements', type: 'ANNOUNCEMENTS', name: 'Announcements', pushSource: 'ACTIVE' },
        { id: 'wdg_events', type: 'EVENTS', name: 'Events', pushSource: 'ACTIVE' },
        { id: 'wdg_departures', type: 'TRANSPORT_BOARD', name: 'Departures', pushSource: 'ACTIVE' },
        { id: 'wdg_inactive', type: 'ANNOUNCEMENTS', name: 'Not connected', pushSource: 'INACTIVE' },
      ],
      prayerSources: [{
        id: 'psrc_centralmosque-0001-london', name: 'Central Mosque', timezone: 'Europe/London',
        location: { name: 'Central Mosque', city: 'London', country: 'GB', latitude: 51.52, longitude: -0.08 },
      }],
      queueUnits: [{
        id: 'qu_main', name: 'Main branch', active: true,
        locations: [
          { id: 'loc_hall', name: 'Main hall', timezone: 'Europe/Berlin' },
          { id: 'loc_annex', name: 'Annex', timezone: 'Europe/Berlin' },
        ],
        services: [
          { id: 'svc_accounts', name: 'Accounts', prefix: 'A', active: true, locations: ['loc_hall', 'loc_annex'], defaultServiceSeconds: 300 },
          { id: 'svc_loans', name: 'Loans', prefix: 'L', active: true, locations: ['loc_hall'] },
          { id: 'svc_closed', name: 'Closed desk', prefix: 'C', active: false, locations: ['loc_hall'] },
        ],
        counters: [
          { id: 'cnt_1', name: 'Counter 1', locationId: 'loc_hall', services: ['svc_accounts', 'svc_loans'] },
          { id: 'cnt_2', name: 'Counter 2', locationId: 'loc_hall', services: ['svc_accounts'] },
        ],
        apiKeys: [
          { name: 'kiosk', scopes: ['services:read', 'tickets:write', 'tickets:read', 'state:read'], locations: ['loc_hall'], services: ['svc_accounts'] },
          { name: 'all' },
          { name: 'operator', scopes: ['counter:operate', 'tickets:read', 'state:read'] },
        ],
        webhooks: [{ id: 'whk_crm', url: 'http://127.0.0.1:9/hooks', events: ['ticket.created', 'ticket.called'] }],
      }],
    }],
  }
}

/** A database file provisioned with the example document, as `lobby provision` leaves it (closed again). */
export function provisionedDatabaseFile(): string {
  const path = join(tempDir(), 'lobby.db')
  const db = openDatabase(path)
  migrateDatabase(db.$client)
  applyProvisioning(db, exampleDocument(), Date.now())
  db.$client.close()
  return path
}
