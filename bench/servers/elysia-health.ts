/**
 * The stack's own cold start, for bench/run.ts and bench/start.ts (issue 37): this project's
 * Elysia with one `/health` route answering as Lobby does, no hooks, no database, compiled the
 * way Lobby is (`bun build --compile --minify --bytecode`). What evaluating Elysia and building
 * an app of one route add to the runtime's start (bare-health.ts).
 *
 *   elysia-health <port>
 */
import { Elysia } from 'elysia'

const port = Number(process.argv[2])
new Elysia().get('/health', () => ({ status: 'ok' })).listen({ port, hostname: '127.0.0.1' })
