import { parseFlags, integerFlag, oneOf, dbPath, UsageError } from './args'
import { startServer, ServeError } from '../server'
import { retainDaysOption, metricsTokenOption } from '../ops/config'
import { limitFlags, limitsFrom, limitsHelp } from './limits'
import { parseOrigin } from '../platform/cors'

export const serveHelp = `lobby serve [--port N] [--host H] [--db PATH] [--durability full|normal] [--tls-cert F --tls-key F] [--retain-days N] [--metrics-token T] [--public-origin URL] [--cors-origin ORIGIN]...

Runs the server; applies migrations first. Stops gracefully on SIGTERM or SIGINT.
Environment: LOBBY_PORT (8080), LOBBY_HOST (0.0.0.0), LOBBY_DB (./data/lobby.db),
LOBBY_DURABILITY (full), LOBBY_TLS_CERT, LOBBY_TLS_KEY, LOBBY_RETAIN_DAYS (400: closed tickets
older are deleted daily), LOBBY_METRICS_TOKEN (/metrics for callers other than loopback),
LOBBY_PUBLIC_ORIGIN, LOBBY_CORS_ORIGINS (comma-separated). Flags win over the environment.
--public-origin: the origin browsers use (https://lobby.branch.example) when a reverse proxy
rewrites scheme or host; paired devices' changes must come from it.
--cors-origin (repeatable): a browser page of that origin may call the public and operator
APIs; none by default.
A second serve of the same database exits 2 naming the process that serves it; so does a
port in use.

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
  const limits = limitsFrom(flags)
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
