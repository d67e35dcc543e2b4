/**
 * The fixed stack's cold start and idle memory with Lobby's database, for bench/run.ts and
 * bench/start.ts (issue 37): elysia-health.ts plus what any Lobby start must do before `/health`
 * can say the database is usable: evaluate Drizzle with Lobby's tables, open the database with
 * Lobby's pragmas (src/db/open.ts) and check that every migration this build carries is applied
 * (what src/db/migrate.ts finds on a migrated file; not migrate.ts itself, which brings in the
 * tickets' roll-up code, Lobby's own). No features, no services, no other route. Compiled as
 * Lobby is.
 *
 *   stack-health <port> <database>
 */
import { Elysia, t } from 'elysia'
import * as schema from '../../src/schema'
import { embeddedMigrations } from '../../src/db/migrations.generated'
import { openDatabase } from '../../src/db/open'

const [port, path] = process.argv.slice(2)
if (port === undefined || path === undefined) throw new Error('usage: stack-health <port> <database>')
const db = openDatabase(path, { create: false })
const applied = new Set(db.$client.query<{ tag: string }, []>('SELECT tag FROM lobby_migrations').all().map((row) => row.tag))
if (embeddedMigrations.some((m) => !applied.has(m.tag))) throw new Error(`${path} is not migrated`)
// Every table module evaluated, as a start of Lobby's features evaluates them.
if (Object.keys(schema).length === 0) throw new Error('no tables in src/schema')
new Elysia()
  .get('/health', () => ({ status: 'ok' as const }), { response: t.Object({ status: t.Literal('ok') }) })
  .listen({ port: Number(port), hostname: '127.0.0.1' })
