/**
 * Baseline for the reads: a bare Bun.serve answering every request with the bytes of Lobby's
 * state read (captured by bench/run.ts), as `application/json`. No routing, no auth, no SQLite.
 *
 *   bun bench/servers/bare-read.ts <port> <body file>
 */
export {}

const [port, bodyFile] = process.argv.slice(2)
if (port === undefined || bodyFile === undefined) throw new Error('usage: bare-read.ts <port> <body file>')

const body = await Bun.file(bodyFile).bytes()

Bun.serve({
  port: Number(port),
  hostname: '127.0.0.1',
  fetch: () => new Response(body, { headers: { 'content-type': 'application/json' } }),
})
