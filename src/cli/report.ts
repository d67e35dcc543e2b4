import { parseFlags, required, dbPath, printJson, oneOf, UsageError, openExistingDatabase } from './args'
import { SCHEMA_VERSION } from '../db/migrate'
import { ApiError } from '../platform/errors'
import { ReportService } from '../reports'
import { toCsv, staffCsv, DAILY_CSV_HEADER, COUNTERS_CSV_HEADER } from '../reports'
import { StaffReport } from '../reports'
import type { StaffReportRow } from '../reports'
import { RollupReads } from '../tickets'
import { StaffReads } from '../people'

export const reportHelp = `lobby report --db PATH --from YYYY-MM-DD --to YYYY-MM-DD [--by day|counter|staff] [--queue-unit ID] [--format json|csv]

The report rows of contract §12 for every queue unit of the database: per location, service and
business day (--by day, the default; as GET /api/operator/v1/reports/daily) or per counter and
day (--by counter; as GET …/reports/counters); per clerk and day (--by staff, contract §16; as
GET …/reports/staff), of one unit with --queue-unit. JSON prints {"data": [...]}; CSV has a
header row (nested fields joined in lowerCamelCase: waitSecondsAvg; issuedHour00 …
issuedHour23; a staff report's breaks one column per reason: breakSecondsLunch) and an empty
cell for null. Reads only; safe while the server runs.`

export async function reportCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, {
    db: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    by: { type: 'string' },
    format: { type: 'string' },
    'queue-unit': { type: 'string' },
  })
  if (flags.help) {
    console.log(reportHelp)
    return 0
  }
  const from = required(flags.from, 'from')
  const to = required(flags.to, 'to')
  const by = oneOf(flags.by, 'by', ['day', 'counter', 'staff'] as const) ?? 'day'
  const queueUnitId = flags['queue-unit']
  if (queueUnitId !== undefined && by !== 'staff') throw new UsageError('--queue-unit goes with --by staff')
  const format = oneOf(flags.format, 'format', ['json', 'csv'] as const) ?? 'json'
  const path = dbPath(flags.db)
  const db = openExistingDatabase(path)
  try {
    const client = db.$client
    const applied = client.query<{ n: number }, []>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'lobby_migrations'").get()!.n === 0
      ? 0
      : client.query<{ n: number }, []>('SELECT count(*) AS n FROM lobby_migrations').get()!.n
    if (applied < SCHEMA_VERSION) throw new UsageError(`${path} is at schema ${applied}, this lobby reads schema ${SCHEMA_VERSION}: run lobby migrate --db ${path} first`)
    const rollups = new RollupReads(client)
    const service = new ReportService(client, rollups)
    const scope = { queueUnitIds: null, locations: null, services: null }
    let rows: Record<string, unknown>[]
    try {
      rows = client.transaction(() => {
        if (by === 'day') return service.daily(scope, { from, to })
        if (by === 'counter') return service.counters(scope, { from, to })
        // Open intervals count up to the machine's clock, as the server counts them to its own.
        const staff = new StaffReport(client, rollups, new StaffReads(client))
        return staff.rows({ queueUnitIds: null }, { from, to, ...(queueUnitId === undefined ? {} : { queueUnitId }) }, Date.now())
      })()
    } catch (error) {
      if (error instanceof ApiError) throw new UsageError(`${error.message}: ${(error.details ?? []).map((d) => `--${d.path === '/queueUnitId' ? 'queue-unit' : d.path.slice(1)} ${d.message}`).join('; ')}`)
      throw error
    }
    if (format === 'json') printJson({ data: rows })
    else if (by === 'staff') process.stdout.write(staffCsv(rows as unknown as StaffReportRow[]))
    else process.stdout.write(toCsv(rows, by === 'day' ? DAILY_CSV_HEADER : COUNTERS_CSV_HEADER))
  } finally {
    db.$client.close()
  }
  return 0
}
