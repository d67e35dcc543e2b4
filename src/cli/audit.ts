import { parseFlags, dbPath, printJson, oneOf, UsageError, openExistingDatabase } from './args'
import { readAudit, type AuditRecord } from '../platform/audit'

export const auditHelp = `lobby audit --db PATH [--since ISO] [--format json|csv]

The audit log of contract §17: every change made by the admin console, the CLI and provisioning
files, with who made it and the entity before and after (secrets never; URLs without user-info,
https://user:pass@host/x printed as https://host/x). Oldest first, so the
output reads and appends like a log. --since keeps entries at or after an ISO 8601 instant
(2026-11-25 or 2026-11-25T09:00:00Z). JSON prints {"data": [...]}; CSV has the columns id, at,
actorType, actorId, action, entityType, entityId, before, after (the snapshots as JSON text).
Reads only; safe while the server runs.`

const CSV_HEADER = ['id', 'at', 'actorType', 'actorId', 'action', 'entityType', 'entityId', 'before', 'after']

/** RFC 4180: a cell with a comma, quote or line break is quoted, its quotes doubled. */
function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value
}

export function auditCsv(entries: AuditRecord[]): string {
  const lines = [CSV_HEADER.join(',')]
  for (const e of entries) {
    lines.push([String(e.id), e.at, e.actor.type, e.actor.id, e.action, e.entity.type, e.entity.id,
      e.before === null ? '' : JSON.stringify(e.before), e.after === null ? '' : JSON.stringify(e.after)].map(cell).join(','))
  }
  return lines.join('\r\n') + '\r\n'
}

export async function auditCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { db: { type: 'string' }, since: { type: 'string' }, format: { type: 'string' } })
  if (flags.help) {
    console.log(auditHelp)
    return 0
  }
  const format = oneOf(flags.format, 'format', ['json', 'csv'] as const) ?? 'json'
  let since: number | undefined
  if (flags.since !== undefined) {
    since = Date.parse(flags.since)
    if (!/^\d{4}-\d{2}-\d{2}/.test(flags.since) || Number.isNaN(since)) throw new UsageError('--since must be an ISO 8601 date or time, e.g. 2026-11-25T09:00:00Z')
  }
  const db = openExistingDatabase(dbPath(flags.db))
  try {
    // Newest first a page at a time (the log's own order), then turned around.
    const entries: AuditRecord[] = []
    let beforeId: number | undefined
    for (;;) {
      const page = readAudit(db.$client, { limit: 1000, ...(since === undefined ? {} : { since }), ...(beforeId === undefined ? {} : { beforeId }) })
      entries.push(...page)
      if (page.length < 1000) break
      beforeId = page[page.length - 1]!.id
    }
    entries.reverse()
    if (format === 'json') printJson({ data: entries })
    else process.stdout.write(auditCsv(entries))
  } finally {
    db.$client.close()
  }
  return 0
}
