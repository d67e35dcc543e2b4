import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const SRC = new URL('../../src', import.meta.url).pathname

/** The tables only src/tickets/ may read or write (docs/architecture.md, "Ticket state has one owner"). */
const TICKET_TABLES = [
  'tickets', 'ticket_events', 'ticket_calls', 'service_stats', 'ticket_sequences', 'counter_call_streaks',
  'report_daily', 'report_counter_daily', 'report_daily_distributions', 'report_counter_distributions',
  'report_staff_daily', 'report_staff_distributions',
]
const SQL_OVER_TICKET_TABLES = new RegExp(`\\b(FROM|JOIN|INTO|UPDATE|TABLE)\\s+[\`"]?(${TICKET_TABLES.join('|')})\\b`, 'i')

/** Source files outside src/tickets/, with the schema's re-export (src/schema.ts) left out: it only names the tables for drizzle-kit. */
function filesOutsideTickets(): string[] {
  return [...new Bun.Glob('**/*.ts').scanSync(SRC)]
    .filter((file) => !file.startsWith('tickets/') && file !== 'schema.ts' && !file.endsWith('.generated.ts') && !file.startsWith('screens/generated/'))
}

/**
 * The modules of src/tickets/ a source file imports or re-exports past the door (`../tickets`
 * or `../tickets/index` is the door): static `from '…'` and dynamic `import('…')` specifiers
 * that climb out of their folder (`../`) into `tickets/`.
 */
function ticketModulesImported(source: string): string[] {
  const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]!)
  return specifiers
    .map((s) => /^(?:\.\.\/)+tickets\/(.+?)(?:\.ts)?$/.exec(s)?.[1])
    .filter((module): module is string => module !== undefined && module !== 'index')
}

describe('ticket state has one owner', () => {
  test('no file outside src/tickets/ writes SQL over the ticket tables', () => {
    const offending = filesOutsideTickets().flatMap((file) =>
      readFileSync(join(SRC, file), 'utf8').split('\n')
        .map((line, i) => ({ file, line: i + 1, text: line.trim() }))
        .filter(({ text }) => SQL_OVER_TICKET_TABLES.test(text)),
    )
    expect(offending).toEqual([])
  })

  test('no file outside src/tickets/ imports the ticket tables', () => {
    const offending = filesOutsideTickets().filter((file) => /from ['"][./]*\/?tickets\/tables['"]/.test(readFileSync(join(SRC, file), 'utf8')))
    expect(offending).toEqual([])
  })

  test('no file outside src/tickets/ imports a tickets module other than its door (src/tickets/index.ts)', () => {
    const offending = [...new Bun.Glob('**/*.ts').scanSync(SRC)]
      .filter((file) => !file.startsWith('tickets/'))
      .flatMap((file) => ticketModulesImported(readFileSync(join(SRC, file), 'utf8'))
        // The drizzle-kit barrel names every table, the tickets' too.
        .filter((module) => !(file === 'db/schema.ts' && module === 'tables'))
        .map((module) => `${file} → tickets/${module}`))
    expect(offending).toEqual([])
  })

  test('the door exports no table object (only src/db/schema.ts reads src/tickets/tables.ts)', () => {
    expect(readFileSync(join(SRC, 'tickets/index.ts'), 'utf8')).not.toMatch(/from ['"]\.\/tables['"]/)
  })

  test('the door check sees a deep import (it can fail)', () => {
    expect(ticketModulesImported("import { Tickets } from '../tickets/service'")).toEqual(['service'])
    expect(ticketModulesImported("export * from '../tickets/tables'")).toEqual(['tables'])
    expect(ticketModulesImported("import type { TicketRow } from \"../../tickets/store\"")).toEqual(['store'])
    expect(ticketModulesImported("const m = await import('../tickets/rollups')")).toEqual(['rollups'])
    expect(ticketModulesImported("import {\n  a,\n} from '../tickets/lines'")).toEqual(['lines'])
    expect(ticketModulesImported("import { Tickets, type TicketRow } from '../tickets'")).toEqual([])
    expect(ticketModulesImported("import { Tickets } from '../tickets/index'")).toEqual([])
    expect(ticketModulesImported("import { x } from './tickets/helper'")).toEqual([])
  })

  test('the check sees a query over a ticket table (it can fail)', () => {
    expect(SQL_OVER_TICKET_TABLES.test("SELECT count(*) AS n FROM tickets")).toBe(true)
    expect(SQL_OVER_TICKET_TABLES.test('FROM report_daily r')).toBe(true)
    expect(SQL_OVER_TICKET_TABLES.test('SELECT id FROM locations')).toBe(false)
  })
})
