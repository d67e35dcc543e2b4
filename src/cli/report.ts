import { parseFlags, required, dbPath, printJson, oneOf, UsageError, openExistingDatabase } from './args'
import { SCHEMA_VERSION } from '../db/migrate'
import { ApiError } from '../platform/errors'
import { ReportService } from '../reports/service'
import { toCsv, DAILY_CSV_HEADER, COUNTERS_CSV_HEADER } from '../reports/csv'
import { RollupReads } from '../tickets'

export const reportHelp = `lobby report --db PATH --from YYYY-MM-DD --to YYYY-MM-DD [--by day|counter] [--format json|csv]

The report rows of contract §12 for every queue unit of the database: per location, service and
business day (--by day, the default; as GET /api/operator/v1/reports/daily) or per counter and
day (--by counter; as GET …/reports/counters). JSON prints {"data": [...]}; CSV has a header row
(nested fields joined in lowerCamelCase: waitSecondsAvg; issuedHour00 … issuedHour23) and an
empty cell for null. Reads only; safe while the server runs.`

export async function reportCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, {
    db: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    by: { type: 'string' },
    format: { type: 'string' },
  })
  if (flags.help) {
    console.log(reportHelp)
    return 0
  }
  const from = required(flags.from, 'from')
  const to = required(flags.to, 'to')
  const by = oneOf(flags.by, 'by', ['day', 'counter'] as const) ?? 'day'
  const format = oneOf(flags.format, 'format', ['json', 'csv'] as const) ?? 'json'
  const path = dbPath(flags.db)
  const db = openExistingDatabase(path)
  try {
    const client = db.$client
    const applied = client.query<{ n: number }, []>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'lobby_migrations'").get()!.n === 0
      ? 0
      : client.query<{ n: number }, []>('SELECT count(*) AS n FROM lobby_migrations').get()!.n
    if (applied < SCHEMA_VERSION) throw new UsageError(`${path} is at schema ${applied}, this lobby reads schema ${SCHEMA_VERSION}: run lobby migrate --db ${path} first`)
    const service = new ReportService(client, new RollupReads(client))
    const scope = { queueUnitId: null, locations: null, services: null }
    let rows: Record<string, unknown>[]
    try {
      rows = client.transaction(() => (by === 'day' ? service.daily(scope, { from, to }) : service.counters(scope, { from, to })))()
    } catch (error) {
      if (error instanceof ApiError) throw new UsageError(`${error.message}: ${(error.details ?? []).map((d) => `--${d.path.slice(1)} ${d.message}`).join('; ')}`)
      throw error
    }
    if (format === 'json') printJson({ data: rows })
    else process.stdout.write(toCsv(rows, by === 'day' ? DAILY_CSV_HEADER : COUNTERS_CSV_HEADER))
  } finally {
    db.$client.close()
  }
  return 0
}
