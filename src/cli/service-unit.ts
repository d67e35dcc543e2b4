import { isAbsolute } from 'node:path'
import { parseFlags, integerFlag, UsageError } from './args'
import { serviceUnit, SERVICE_UNIT_DEFAULTS } from '../ops'

export const serviceUnitHelp = `lobby service-unit [--binary PATH] [--user NAME] [--port N] [--host H]

Prints a hardened systemd unit for lobby serve (defaults: --binary /usr/local/bin/lobby,
--user lobby, --port 8080, --host 0.0.0.0); the database goes to /var/lib/lobby/lobby.db.
  lobby service-unit | sudo tee /etc/systemd/system/lobby.service
See README "Running as a service" for install, upgrade and rollback.`

export async function serviceUnitCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { binary: { type: 'string' }, user: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' } })
  if (flags.help) {
    console.log(serviceUnitHelp)
    return 0
  }
  const binary = flags.binary ?? SERVICE_UNIT_DEFAULTS.binary
  if (!isAbsolute(binary) || /\s/.test(binary)) throw new UsageError('--binary must be an absolute path without spaces')
  const user = flags.user ?? SERVICE_UNIT_DEFAULTS.user
  if (!/^[a-z_][a-z0-9_-]{0,31}$/.test(user)) throw new UsageError('--user must be a system user name ([a-z_][a-z0-9_-]*)')
  const host = flags.host ?? SERVICE_UNIT_DEFAULTS.host
  if (!/^[A-Za-z0-9.:_-]+$/.test(host)) throw new UsageError('--host must be an address or host name')
  const port = integerFlag(flags.port, 'port', 1, 65535) ?? SERVICE_UNIT_DEFAULTS.port
  process.stdout.write(serviceUnit({ binary, user, port, host }))
  return 0
}
