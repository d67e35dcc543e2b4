import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { reportContext } from './helpers'
import { smallDay } from './small-day'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { runCli, tempDir } from '../support/cli'

describe('lobby report', () => {
  test('JSON and CSV of the small day, by day and by counter', { timeout: 60_000 }, async () => {
    const path = join(tempDir(), 'lobby.db')
    const db = openDatabase(path)
    migrateDatabase(db.$client)
    const ctx = reportContext(() => {}, { db })
    await smallDay(ctx)
    const api = await (await ctx.app.handle(new Request('http://localhost/api/operator/v1/reports/daily?from=2026-11-25&to=2026-11-25', { headers: { authorization: `Bearer ${ctx.key('reports')}` } }))).json()
    db.$client.close()

    const json = runCli(['report', '--db', path, '--from', '2026-11-25', '--to', '2026-11-25'])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual(api)

    const csv = runCli(['report', '--db', path, '--from', '2026-11-25', '--to', '2026-11-25', '--format', 'csv'])
    expect(csv.code).toBe(0)
    const lines = csv.stdout.split('\r\n')
    expect(lines[0]).toBe(
      'date,locationId,serviceId,issued,served,noShow,cancelled,transferredOut,waitSecondsAvg,waitSecondsP50,waitSecondsP90,waitSecondsMax,' +
      'serviceSecondsAvg,serviceSecondsP50,serviceSecondsP90,withinTarget,' + Array.from({ length: 24 }, (_, h) => `issuedHour${String(h).padStart(2, '0')}`).join(','),
    )
    expect(lines[1]).toBe('2026-11-25,loc_hall,svc_accounts,4,1,1,1,1,540,600,900,900,300,300,300,0.667,0,0,0,0,0,0,0,0,0,3,1,0,0,0,0,0,0,0,0,0,0,0,0,0')
    expect(lines.length).toBe(4) // header, two rows, the empty string after the last CRLF

    const counters = runCli(['report', '--db', path, '--from', '2026-11-25', '--to', '2026-11-25', '--by', 'counter', '--format', 'csv'])
    expect(counters.stdout).toBe(
      'date,counterId,locationId,served,noShow,serviceSecondsAvg,serviceSecondsP50,serviceSecondsP90,busySeconds\r\n' +
      '2026-11-25,cnt_1,loc_hall,3,0,393.3,300,640,1650\r\n' +
      '2026-11-25,cnt_2,loc_hall,0,1,,,,60\r\n',
    )
  })

  test('an empty range prints the header only; bad flags exit 2 with one line', { timeout: 60_000 }, () => {
    const path = join(tempDir(), 'lobby.db')
    const db = openDatabase(path)
    migrateDatabase(db.$client)
    db.$client.close()
    const empty = runCli(['report', '--db', path, '--from', '2026-01-01', '--to', '2026-01-31', '--by', 'counter', '--format', 'csv'])
    expect(empty.stdout).toBe('date,counterId,locationId,served,noShow,serviceSecondsAvg,serviceSecondsP50,serviceSecondsP90,busySeconds\r\n')
    for (const args of [
      ['--from', '2026-01-31', '--to', '2026-01-01'],
      ['--from', '2026-02-30', '--to', '2026-03-01'],
      ['--from', '2026-01-01'],
      ['--from', '2026-01-01', '--to', '2026-01-02', '--by', 'week'],
      ['--from', '2026-01-01', '--to', '2026-01-02', '--format', 'xml'],
    ]) {
      const r = runCli(['report', '--db', path, ...args])
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: '' })
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
    }
    const missing = runCli(['report', '--db', join(tempDir(), 'none.db'), '--from', '2026-01-01', '--to', '2026-01-02'])
    expect(missing.code).toBe(2)
  })
})
