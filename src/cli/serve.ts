import { parseFlags, integerFlag, oneOf, dbPath, UsageError } from './args'
import { startServer, ServeError } from '../server'
import { limitFlags, limitsFrom, limitsHelp } from './limits'

export const serveHelp = `lobby serve [--port N] [--host H] [--db PATH] [--durability full|normal] [--tls-cert F --tls-key F]

Runs the server; applies migrations first. Stops gracefully on SIGTERM or SIGINT.
Environment: LOBBY_PORT (8080), LOBBY_HOST (0.0.0.0), LOBBY_DB (./data/lobby.db),
LOBBY_DURABILITY (full), LOBBY_TLS_CERT, LOBBY_TLS_KEY. Flags win over the environment.
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
    ...limitFlags,
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

  const limits = limitsFrom(flags)
  let server
  try {
    server = await startServer({
      port,
      host: flags.host ?? process.env.LOBBY_HOST ?? '0.0.0.0',
      dbPath: dbPath(flags.db),
      durability,
      limits,
      ...(cert && key ? { tls: { cert, key } } : {}),
    })
  } catch (error) {
    if (error instanceof ServeError) throw new UsageError(error.message)
    throw error
  }

  await waitForStopSignal(server)
  return 0
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
