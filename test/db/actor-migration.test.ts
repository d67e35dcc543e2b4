import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { embeddedMigrations } from '../../src/db/migrations.generated'
import { decodeActor } from '../../src/platform/actor'
import { ticketEventJson, type TicketEventRow } from '../../src/tickets'
import { tempDir } from '../support/cli'

const quiet = { log: () => {} }

describe('migration 0012: ticket event actors become type:id (contract §16)', () => {
  test('a Part-two history (a device\'s credential ID, a key\'s ID, system) is rewritten, and the events API reads it as {type, id}', () => {
    const db = openDatabase(join(tempDir(), 'part-two.db'))
    const client = db.$client
    const upTo0011 = embeddedMigrations.filter((m) => m.tag < '0012')
    expect(upTo0011.at(-1)!.tag).toBe('0011_people_sessions')
    migrateDatabase(client, { ...quiet, migrations: upTo0011 })

    // Two paired devices (one name with a colon, which the pairing allows), and a history as
    // Part two wrote it: the credential ID of whoever made the change, `system` for the daily close.
    const device = client.query('INSERT INTO devices (credential_id, name, role, workspace_id, queue_unit_id, location_id, counter_id, paired_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1)')
    device.run('cred_desk', 'desk-1', 'desk', 'ws_main', 'qu_main', 'loc_hall', 'cnt_1')
    device.run('cred_kiosk', 'hall:kiosk', 'kiosk', 'ws_main', 'qu_main', 'loc_hall', null)
    const event = client.query("INSERT INTO ticket_events (ticket_id, type, from_status, to_status, counter_id, actor, at) VALUES ('tkt_1', ?, ?, ?, ?, ?, ?)")
    event.run('created', null, 'WAITING', null, 'cred_kiosk', 1)
    event.run('called', 'WAITING', 'CALLED', 'cnt_1', 'cred_desk', 2)
    event.run('requeued', 'CALLED', 'WAITING', 'cnt_1', 'cred_01JD5OPERATOR00000000000000', 3)
    event.run('cancelled', 'WAITING', 'CANCELLED', null, 'system', 4)

    expect(migrateDatabase(client, quiet).applied).toEqual(embeddedMigrations.filter((m) => m.tag >= '0012').map((m) => m.tag))
    const rows = client.query('SELECT id, type, from_status AS fromStatus, to_status AS toStatus, counter_id AS counterId, actor, at, detail FROM ticket_events ORDER BY id').all() as TicketEventRow[]
    expect(rows.map((r) => r.actor)).toEqual([
      'device:hall:kiosk',
      'device:desk-1',
      'key:cred_01JD5OPERATOR00000000000000',
      'system:daily-close',
    ])
    expect(rows.map((r) => ticketEventJson(r).actor)).toEqual([
      { type: 'device', id: 'hall:kiosk' },
      { type: 'device', id: 'desk-1' },
      { type: 'key', id: 'cred_01JD5OPERATOR00000000000000' },
      { type: 'system', id: 'daily-close' },
    ])
    client.close()
  })

  test('a stored text still in the old form reads as the same actor the migration would make of it', () => {
    expect(decodeActor('system')).toEqual({ type: 'system', id: 'daily-close' })
    expect(decodeActor('cred_1')).toEqual({ type: 'key', id: 'cred_1' })
    expect(decodeActor('device:a:b')).toEqual({ type: 'device', id: 'a:b' })
  })
})
