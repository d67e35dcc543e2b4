import { parseFlags, integerFlag, oneOf, dbPath, UsageError } from './args'
import { startServer, ServeError } from '../server'
import { retainDaysOption, metricsTokenOption } from '../ops'
import { limitFlags, limitsFrom, limitsHelp } from './limits'
import { parseReplicationTarget, type ReplicationTarget } from '../replication'
import { parseOrigin } from '../platform/cors'
import { parseTrustedProxies, type Cidr } from '../platform/client-address'

export const serveHelp = `lobby serve [--port N] [--host H] [--db PATH] [--durability full|normal] [--tls-cert F --tls-key F] [--retain-days N] [--metrics-token T] [--public-origin URL] [--cors-origin ORIGIN]... [--frame-ancestors ORIGIN]... [--trusted-proxy CIDR]... [--replicate-to postgres://…] [--hq postgres://…|replication]

Runs the server; applies migrations first. Stops gracefully on SIGTERM or SIGINT.
Environment: LOBBY_PORT (8080), LOBBY_HOST (0.0.0.0), LOBBY_DB (./data/lobby.db),
LOBBY_DURABILITY (full), LOBBY_TLS_CERT, LOBBY_TLS_KEY, LOBBY_RETAIN_DAYS (400: closed tickets
older are deleted daily), LOBBY_METRICS_TOKEN (/metrics for callers other than loopback),
LOBBY_PUBLIC_ORIGIN, LOBBY_CORS_ORIGINS (comma-separated). Flags win over the environment.
--public-origin: the origin browsers use (https://lobby.branch.example) when a reverse proxy
rewrites scheme or host; paired devices' changes must come from it.
--cors-origin (repeatable): a browser page of that origin may call the public and operator
APIs; none by default.
--frame-ancestors ORIGIN (repeatable; LOBBY_FRAME_ANCESTORS, comma-separated): a signage
player's origin (https://signage.example.com) that may show the boards (/screens/…) in a
frame; by default only pages of this server may frame any page.
--trusted-proxy CIDR (repeatable; LOBBY_TRUSTED_PROXIES, comma-separated): a reverse proxy's
address or range (127.0.0.1, 10.0.0.0/8, fd00::/8). A request from it is attributed to the last
address in X-Forwarded-For that is not a trusted proxy (rate limits, logs, the /metrics loopback
rule); from any other address forwarding headers are ignored.
A second serve of the same database exits 2 naming the process that serves it; so does a
port in use.
--replicate-to (LOBBY_REPLICATE_TO): copy tickets, their events and the report roll-ups to a
head-office PostgreSQL (schema lobby, created and migrated by Lobby), e.g.
postgres://branch_riyadh:PASSWORD@ho.example:5432/headoffice?sslmode=verify-full
The branch never waits for it; the password is never logged.
--hq postgres://… | replication (LOBBY_HQ): follow head office's profiles (contract §26): the
newest revision assigned to each queue unit is applied within 30 s (or refused, and head
office told why), and the floor is told to head office's live view every few seconds.
"replication" uses the --replicate-to connection.

${limitsHelp}`

export async function serveCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    db: { type: 'string' },
    durability: { type: 'string' },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
    'retain-days': { type: 'string' },
    'metrics-token': { type: 'string' },
    'public-origin': { type: 'string' },
    ...limitFlags,
    'cors-origin': { type: 'string', multiple: true },
    'frame-ancestors': { type: 'string', multiple: true },
    'trusted-proxy': { type: 'string', multiple: true },
    'replicate-to': { type: 'string' },
    hq: { type: 'string' },
  })
  if (flags.help) {
    console.log(serveHelp)
    return 0
  }
  const port = integerFlag(flags.port ?? process.env.LOBBY_PORT, 'port', 0, 65535) ?? 8080
  const durability = oneOf(flags.durability ?? process.env.LOBBY_DURABILITY, 'durability', ['full', 'normal'] as const) ?? 'full'
  const cert = flags['tls-cert'] ?? process.env.LOBBY_TLS_CERT
  const key = flags['tls-key'] ?? process.env.LOBBY_TLS_KEY
  if ((cert === undefined) !== (key === undefined)) throw new UsageError('--tls-cert and --tls-key go together')
  for (const file of [cert, key]) {
    if (file !== undefined && !(await Bun.file(file).exists())) throw new UsageError(`TLS file not found: ${file}`)
  }

  const publicOrigin = flags['public-origin'] ?? process.env.LOBBY_PUBLIC_ORIGIN
  if (publicOrigin !== undefined && !/^https?:\/\/[^/?#\s]+$/.test(publicOrigin)) {
    throw new UsageError('--public-origin must be an origin like https://lobby.example.org (scheme and host, no path)')
  }

  const corsOrigins = corsOriginsFrom(flags['cors-origin'] as string[] | string | undefined, process.env.LOBBY_CORS_ORIGINS)
  const frameAncestors = frameAncestorsFrom(flags['frame-ancestors'] as string[] | string | undefined, process.env.LOBBY_FRAME_ANCESTORS)
  const trustedProxies = trustedProxiesFrom(flags['trusted-proxy'] as string[] | string | undefined, process.env.LOBBY_TRUSTED_PROXIES)
  const limits = limitsFrom(flags)
  const replicateTo = flags['replicate-to'] ?? process.env.LOBBY_REPLICATE_TO
  const replication: { replicateTo?: ReplicationTarget; hq?: ReplicationTarget } = replicateTo !== undefined && replicateTo !== '' ? { replicateTo: parseReplicationTarget(replicateTo) } : {}
  // Contract §26: `--hq URL`, or `--hq replication` to use the --replicate-to connection.
  const hq = flags.hq ?? process.env.LOBBY_HQ
  if (hq !== undefined && hq !== '') {
    if (hq === 'replication') {
      if (replication.replicateTo === undefined) throw new UsageError('--hq replication needs --replicate-to')
      replication.hq = replication.replicateTo
    } else replication.hq = parseReplicationTarget(hq)
  }
  let server
  try {
    server = await startServer({
      port,
      host: flags.host ?? process.env.LOBBY_HOST ?? '0.0.0.0',
      dbPath: dbPath(flags.db),
      durability,
      limits,
      retainDays: retainDaysOption(flags['retain-days'] ?? process.env.LOBBY_RETAIN_DAYS),
      metricsToken: metricsTokenOption(flags['metrics-token'] ?? process.env.LOBBY_METRICS_TOKEN),
      ...(cert && key ? { tls: { cert, key } } : {}),
      ...(publicOrigin !== undefined ? { publicOrigin: new URL(publicOrigin).origin } : {}),
      corsOrigins,
      frameAncestors,
      trustedProxies,
      ...replication,
    })
  } catch (error) {
    if (error instanceof ServeError) throw new UsageError(error.message)
    throw error
  }

  await waitForStopSignal(server)
  return 0
}

/** `--cors-origin` (repeatable), else `LOBBY_CORS_ORIGINS` (comma-separated): each exactly an origin. */
export function corsOriginsFrom(flag: string[] | string | undefined, env: string | undefined): string[] {
  const values = flag === undefined ? (env ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '') : [flag].flat()
  return values.map((value) => {
    const origin = parseOrigin(value)
    if (origin === null) throw new UsageError(`--cors-origin must be an origin like https://kiosk.example.com (scheme, host, optional port; no path): ${value.slice(0, 100)}`)
    return origin
  })
}

const CSP_ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::[0-9]+)?$/

/** `--frame-ancestors` (repeatable), else `LOBBY_FRAME_ANCESTORS` (comma-separated): each exactly an origin, as CSP `frame-ancestors` takes it. */
export function frameAncestorsFrom(flag: string[] | string | undefined, env: string | undefined): string[] {
  const values = flag === undefined ? (env ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '') : [flag].flat()
  return [...new Set(values.map((value) => {
    const origin = parseOrigin(value)
    // Only a host's letters, digits, dots and hyphens (or an IPv6 literal): a `*` or `;` would widen or break the page's CSP.
    if (origin === null || !CSP_ORIGIN.test(origin)) throw new UsageError(`--frame-ancestors must be an origin like https://signage.example.com (scheme, host, optional port; no path): ${value.slice(0, 100)}`)
    return origin
  }))]
}

/** `--trusted-proxy` (repeatable), else `LOBBY_TRUSTED_PROXIES` (comma-separated): each an IPv4 or IPv6 address or CIDR. */
export function trustedProxiesFrom(flag: string[] | string | undefined, env: string | undefined): Cidr[] {
  const values = flag === undefined ? (env ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '') : [flag].flat()
  try {
    return parseTrustedProxies(values)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

/** Resolves once SIGTERM or SIGINT has stopped the server gracefully. */
export function waitForStopSignal(server: { stop(): Promise<void> }): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false
    const onSignal = () => {
      if (stopping) return
      stopping = true
      server.stop().then(resolve, resolve)
    }
    process.on('SIGTERM', onSignal)
    process.on('SIGINT', onSignal)
  })
}
