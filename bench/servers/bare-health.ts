/**
 * The runtime's own cold start, for bench/run.ts: a bare Bun.serve answering `/health` as
 * Lobby does, compiled the way Lobby is (`bun build --compile --minify --bytecode`).
 *
 *   bare-health <port>
 */
export {}

const port = Number(process.argv[2])
Bun.serve({ port, hostname: '127.0.0.1', fetch: () => new Response('{"status":"ok"}', { headers: { 'content-type': 'application/json' } }) })
