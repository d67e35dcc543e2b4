import { SQL } from 'bun'
import { parseFlags, required, integerFlag, oneOf, printJson, UsageError } from './args'
import { waitForStopSignal } from './serve'
import { parseReplicationTarget, migrateHeadOffice } from '../replication'
import { jsonLogger } from '../platform/log'
import { systemClock } from '../platform/clock'
import { ApiError } from '../platform/errors'

export const hqHelp = `lobby hq serve --db postgres://… [--port N] [--host H] [--public-origin URL]
lobby hq users add --db postgres://… --username U --role hq-admin|hq-viewer [--name N]

Head office of a chain (contract §26) on the PostgreSQL the branches replicate into.
serve: the head-office console (/hq, /hq/live, /hq/reports) and its API (/api/hq/v1,
documented at /swagger/json). Keeps nothing outside PostgreSQL: run several behind a load
balancer. Migrates the head-office schema first (run it as the schema's owner).
Environment: LOBBY_HQ_DB, LOBBY_PORT (8090), LOBBY_HOST (0.0.0.0), LOBBY_PUBLIC_ORIGIN.
users add: prints {"username","setupPath","expiresAt"}: open <hq server><setupPath> within 24
hours to set the password. No command prints or takes a password.`

/** Connects and migrates the head-office schema; the password never reaches a message. */
async function connect(url: string | undefined) {
  const target = parseReplicationTarget(required(url ?? process.env.LOBBY_HQ_DB, 'db'))
  const sql = new SQL(target.url, { max: 10, idleTimeout: 60, connectionTimeout: 30, connection: { application_name: 'lobby-hq' } })
  try {
    await migrateHeadOffice(sql)
  } catch (error) {
    await sql.close({ timeout: 0 }).catch(() => {})
    throw new UsageError(`head office at ${target.display}: ${target.redact((error as Error).message)}`)
  }
  return { sql, target }
}

export async function hqCommand(argv: string[]): Promise<number> {
  const [what, ...rest] = argv
  if (what === undefined || what === '--help' || what === '-h') {
    console.log(hqHelp)
    return what === undefined ? 2 : 0
  }
  if (what === 'serve') return hqServe(rest)
  if (what === 'users') {
    const [action, ...flagsArgv] = rest
    if (action !== 'add') throw new UsageError(`hq users: unknown action "${action ?? ''}" (add)`)
    const flags = parseFlags(flagsArgv, { db: { type: 'string' }, username: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' } })
    if (flags.help) {
      console.log(hqHelp)
      return 0
    }
    const username = required(flags.username, 'username')
    const role = oneOf(required(flags.role, 'role'), 'role', ['hq-admin', 'hq-viewer'] as const)!
    const { sql } = await connect(flags.db)
    try {
      const { HqService } = await import('../hq/program')
      const service = new HqService({ sql, clock: systemClock })
      printJson(await service.addUser({ username, role, ...(flags.name !== undefined ? { displayName: flags.name } : {}) }))
    } catch (error) {
      if (error instanceof ApiError) throw new UsageError(`${error.message}${error.details ? `: ${error.details.map((d) => `--${d.path.slice(1)} ${d.message}`).join('; ')}` : ''}`)
      throw error
    } finally {
      await sql.close({ timeout: 0 })
    }
    return 0
  }
  throw new UsageError(`hq: unknown command "${what}" (serve, users)`)
}

async function hqServe(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { db: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, 'public-origin': { type: 'string' } })
  if (flags.help) {
    console.log(hqHelp)
    return 0
  }
  const port = integerFlag(flags.port ?? process.env.LOBBY_PORT, 'port', 0, 65535) ?? 8090
  const host = flags.host ?? process.env.LOBBY_HOST ?? '0.0.0.0'
  const publicOrigin = flags['public-origin'] ?? process.env.LOBBY_PUBLIC_ORIGIN
  if (publicOrigin !== undefined && !/^https?:\/\/[^/?#\s]+$/.test(publicOrigin)) throw new UsageError('--public-origin must be an origin like https://hq.example.org')
  const { sql, target } = await connect(flags.db)
  const { createHqApp } = await import('../hq/program')
  const log = jsonLogger
  const app = createHqApp({ sql, log, clock: systemClock, publicOrigin: publicOrigin ?? null })
  try {
    app.listen({ port, hostname: host, reusePort: false })
  } catch (error) {
    await sql.close({ timeout: 0 })
    if ((error as NodeJS.ErrnoException)?.code === 'EADDRINUSE') throw new UsageError(`port ${port} on ${host} is already in use; choose another --port`)
    throw error
  }
  const server = app.server!
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${server.port}`
  log({ level: 'info', msg: 'listening', url, hq: target.display })
  await waitForStopSignal({
    async stop() {
      await server.stop()
      await sql.close({ timeout: 1 })
      log({ level: 'info', msg: 'stopped' })
    },
  })
  return 0
}
