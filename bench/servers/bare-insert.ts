/**
 * Baseline for the writes: a bare Bun.serve + bun:sqlite server that reads the request body
 * and runs one prepared INSERT in one immediate transaction per POST, on a WAL database at
 * `synchronous = FULL` (Lobby's default durability): one commit, one WAL fsync per request.
 * Any GET answers 200 (readiness).
 *
 *   bun bench/servers/bare-insert.ts <port> <database file>
 */
import { Database } from 'bun:sqlite'

const [port, dbFile] = process.argv.slice(2)
if (port === undefined || dbFile === undefined) throw new Error('usage: bare-insert.ts <port> <database file>')

const db = new Database(dbFile, { create: true, strict: true })
db.exec('PRAGMA journal_mode = WAL')
db.exec('PRAGMA busy_timeout = 5000')
db.exec('PRAGMA synchronous = FULL')
db.exec('CREATE TABLE IF NOT EXISTS requests (id INTEGER PRIMARY KEY, nonce TEXT, body TEXT NOT NULL, created_at INTEGER NOT NULL)')
const insert = db.prepare<{ id: number }, [string | null, string, number]>(
  'INSERT INTO requests (nonce, body, created_at) VALUES (?, ?, ?) RETURNING id',
)
const write = db.transaction((nonce: string | null, body: string, now: number) => insert.get(nonce, body, now)!.id)

Bun.serve({
  port: Number(port),
  hostname: '127.0.0.1',
  async fetch(request) {
    if (request.method !== 'POST') return new Response('{"status":"ok"}', { headers: { 'content-type': 'application/json' } })
    const body = await request.text()
    const id = write.immediate(request.headers.get('x-request-nonce'), body, Date.now())
    return new Response(`{"data":{"id":${id}}}`, { status: 201, headers: { 'content-type': 'application/json' } })
  },
})
