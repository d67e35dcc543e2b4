/*
 * Contract §12 CSV: a header row whose names are the JSON fields, nested ones joined in
 * lowerCamelCase (`waitSecondsAvg`), `issuedByHour` as `issuedHour00` … `issuedHour23`; null
 * is an empty cell. The staff report's `breakSeconds` has one column per break reason (below). Pure (no imports), so the `lobby report` command and the /reports page's
 * download make the same file.
 */

type Cell = string | number | null
type Row = Record<string, unknown>

function flatten(row: Row): [string, Cell][] {
  const out: [string, Cell][] = []
  for (const [key, value] of Object.entries(row)) {
    if (key === 'issuedByHour' && Array.isArray(value)) {
      value.forEach((n, h) => out.push([`issuedHour${String(h).padStart(2, '0')}`, n as number]))
    } else if (value !== null && typeof value === 'object') {
      for (const [inner, v] of Object.entries(value as Row)) out.push([key + inner.charAt(0).toUpperCase() + inner.slice(1), v as Cell])
    } else {
      out.push([key, value as Cell])
    }
  }
  return out
}

function cell(value: Cell): string {
  if (value === null || value === undefined) return ''
  const text = String(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** The rows as CSV (CRLF line ends, RFC 4180); `header` names the columns of an empty report. */
export function toCsv(rows: Row[], header: string[]): string {
  const names = rows.length > 0 ? flatten(rows[0]!).map(([name]) => name) : header
  const lines = [names.join(',')]
  for (const row of rows) lines.push(flatten(row).map(([, v]) => cell(v)).join(','))
  return lines.join('\r\n') + '\r\n'
}

const HOURS = Array.from({ length: 24 }, (_, h) => `issuedHour${String(h).padStart(2, '0')}`)

/** The daily report's CSV header. */
export const DAILY_CSV_HEADER = [
  'date', 'locationId', 'serviceId', 'issued', 'served', 'noShow', 'cancelled', 'transferredOut',
  'waitSecondsAvg', 'waitSecondsP50', 'waitSecondsP90', 'waitSecondsMax',
  'serviceSecondsAvg', 'serviceSecondsP50', 'serviceSecondsP90', 'withinTarget', ...HOURS,
]

/** The counters report's CSV header. */
export const COUNTERS_CSV_HEADER = [
  'date', 'counterId', 'locationId', 'served', 'noShow', 'serviceSecondsAvg', 'serviceSecondsP50', 'serviceSecondsP90', 'busySeconds',
]

/**
 * The key of a break taken without a reason in a staff row's `breakSeconds` (a reason is one of
 * the unit's `breakReasons`); here so the server and the /reports page name it alike.
 */
export const NO_BREAK_REASON = '(none)'

/** The staff report's CSV header before its break columns. */
export const STAFF_CSV_HEADER = [
  'date', 'username', 'displayName', 'served', 'noShow', 'serviceSecondsAvg', 'serviceSecondsP50', 'serviceSecondsP90', 'signedInSeconds',
]

/** A break reason's column: `breakSeconds` and the reason's words, each capitalised (`Admin work` → `breakSecondsAdminWork`). */
export function breakColumn(reason: string): string {
  return 'breakSeconds' + reason.split(/\s+/).filter((w) => w !== '').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')
}

interface StaffCsvRow {
  date: string; username: string; displayName: string; served: number; noShow: number
  serviceSeconds: { avg: number | null; p50: number | null; p90: number | null }
  signedInSeconds: number
  breakSeconds: Record<string, number>
}

/**
 * The staff report as CSV: the reasons differ from row to row, so every reason of any row gets
 * a column (sorted by reason, after `signedInSeconds`) and a row without that break has 0 in it.
 */
export function staffCsv(rows: StaffCsvRow[]): string {
  const reasons = [...new Set(rows.flatMap((r) => Object.keys(r.breakSeconds)))].sort()
  const flat = rows.map((r) => {
    const { breakSeconds, ...figures } = r
    const out: Row = { ...figures }
    for (const reason of reasons) out[breakColumn(reason)] = breakSeconds[reason] ?? 0
    return out
  })
  return toCsv(flat, [...STAFF_CSV_HEADER, ...reasons.map(breakColumn)])
}
