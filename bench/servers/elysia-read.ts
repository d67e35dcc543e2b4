/**
 * Baseline for the reads (issue 37): a minimal Elysia app on this project's Elysia, one GET
 * route that reads a request header and answers with the bytes of Lobby's state read and two
 * response headers, as a read route of Lobby does at the least. No hooks, no auth, no SQLite:
 * what Elysia itself costs over a bare Bun.serve.
 *
 *   bun bench/servers/elysia-read.ts <port> <body file>
 */
import { Elysia } from 'elysia'

const [port, bodyFile] = process.argv.slice(2)
if (port === undefined || bodyFile === undefined) throw new Error('usage: elysia-read.ts <port> <body file>')

const body = await Bun.file(bodyFile).bytes()

new Elysia()
  .get('/', ({ request }) => new Response(body, {
    headers: { 'content-type': 'application/json', 'x-request-id': request.headers.get('x-request-id') ?? 'bench' },
  }))
  .listen({ port: Number(port), hostname: '127.0.0.1' })
