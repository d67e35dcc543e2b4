import { Elysia } from 'elysia'
import type { SQL } from 'bun'
import { httpPlatform } from '../platform/http'
import { openapiPlugin, healthDetail } from '../platform/openapi'
import type { Logger } from '../platform/log'
import type { Clock } from '../platform/clock'
import type { PasswordCost } from '../people'
import { VERSION } from '../version'
import { HqService } from './service'
import { hqRoutes } from './routes'
import { hqPages } from './pages'

export interface HqAppOptions {
  sql: SQL
  log: Logger
  clock: Clock
  publicOrigin: string | null
  passwordCost?: PasswordCost
}

const TAGS = [{ name: 'Platform', description: 'Liveness.' }, { name: 'Head office', description: 'Head office of a chain of Lobby branches (contract §26): HQ sign-in, profiles published to branches, the chain live and its daily figures (cookie `lobby_hq_session`).' }]
const SECURITY_SCHEMES = {
  hqSessionCookie: { type: 'apiKey', in: 'cookie', name: 'lobby_hq_session', description: 'A signed-in HQ user (hqs_…), set by POST /api/hq/v1/sessions; state-changing requests need this server\'s Origin' },
}

/**
 * `lobby hq serve`'s whole HTTP app (contract §26): the platform's conventions (correlation ID,
 * error envelope, access log), its own OpenAPI document at /swagger/json, the JSON API and the
 * console's pages. No state outside PostgreSQL: any number of these answer alike.
 */
export function createHqApp(options: HqAppOptions) {
  const hq = new HqService({ sql: options.sql, clock: options.clock, ...(options.passwordCost ? { passwordCost: options.passwordCost } : {}) })
  return new Elysia({ normalize: false })
    .use(httpPlatform(options.log, undefined, () => options.clock.now()))
    .use(openapiPlugin(VERSION, {
      info: { title: 'Lobby head office API', description: 'Head office of a chain of Lobby branches (contract §26). Every error is `{"error": {"code", "message", "details"?, "correlationId"}}`.' },
      tags: TAGS,
      securitySchemes: SECURITY_SCHEMES,
    }))
    .get('/health', () => ({ status: 'ok' }), { detail: healthDetail })
    .use(hqRoutes(hq, { publicOrigin: options.publicOrigin }))
    .use(hqPages(hq))
    .decorate('hq', hq)
}
