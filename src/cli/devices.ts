import { parseFlags, required, dbPath, printJson, integerFlag, oneOf, UsageError, openWritableDatabase } from './args'
import type { Db } from '../db/open'
import { devicePairEntry, deviceRevokeEntry } from '../admin'
import { auditedCliChange } from './actor'
import { randomIds } from '../platform/ids'
import {
  DEVICE_ROLES, DeviceNotFoundError, DeviceService, DeviceSetupError, MAX_PAIRING_TTL_SECONDS, type PairingRequest,
} from '../devices'

export const devicesHelp = `lobby devices pair --db PATH --role desk --counter ID [--name NAME] [--ttl SECONDS]
lobby devices pair --db PATH --role kiosk --queue-unit ID --location ID [--services A,B] [--name NAME] [--ttl SECONDS]
lobby devices pair --db PATH --role display --workspace ID [--name NAME] [--ttl SECONDS]
lobby devices pair --db PATH --role reports --queue-unit ID [--name NAME] [--ttl SECONDS]
lobby devices list --db PATH
lobby devices revoke --db PATH --name NAME

pair: prints {"code","pairPath","role","expiresAt"}: a six-digit code, single use, valid --ttl
seconds (default 600, at most 3600). Open <server>/pair on the device and type the code (or open pairPath).
list: every device with role, binding, paired, last used and state; never a secret.
revoke: the device stops working at once; its open pages say it is no longer paired.
A running server sees every change within 250 ms (in practice 5 ms).`

/** Which flags each role takes (contract §7); any other binding flag is a mistake, said so. */
const ROLE_FLAGS: Record<(typeof DEVICE_ROLES)[number], string[]> = {
  desk: ['counter'],
  kiosk: ['queue-unit', 'location', 'services'],
  display: ['workspace'],
  reports: ['queue-unit'],
}
const BINDING_FLAGS = ['counter', 'queue-unit', 'location', 'services', 'workspace'] as const

export async function devicesCommand(argv: string[]): Promise<number> {
  const [action, ...rest] = argv
  if (action === undefined || action === '--help' || action === '-h') {
    console.log(devicesHelp)
    return action === undefined ? 2 : 0
  }
  if (!['pair', 'list', 'revoke'].includes(action)) throw new UsageError(`devices: unknown action "${action}" (pair, list, revoke)`)
  const flags = parseFlags(rest, {
    db: { type: 'string' }, role: { type: 'string' }, counter: { type: 'string' }, 'queue-unit': { type: 'string' },
    location: { type: 'string' }, services: { type: 'string' }, workspace: { type: 'string' }, name: { type: 'string' }, ttl: { type: 'string' },
  })
  if (flags.help) {
    console.log(devicesHelp)
    return 0
  }
  const given = (names: readonly string[]) => names.filter((n) => (flags as Record<string, unknown>)[n] !== undefined)

  // A pairing and a revocation append the console's audit entry in their transaction (never the code).
  let work: (service: DeviceService, db: Db) => unknown
  if (action === 'pair') {
    const role = oneOf(required(flags.role, 'role'), 'role', DEVICE_ROLES)!
    const stray = given(BINDING_FLAGS).filter((f) => !ROLE_FLAGS[role].includes(f))
    if (stray.length > 0) throw new UsageError(`--role ${role} does not take --${stray[0]}`)
    const ttl = integerFlag(flags.ttl, 'ttl', 1, MAX_PAIRING_TTL_SECONDS)
    const services = flags.services?.split(',').map((s) => s.trim()).filter(Boolean)
    if (services !== undefined && services.length === 0) throw new UsageError('--services needs at least one service ID')
    const request: PairingRequest = {
      role,
      ...(flags.counter !== undefined ? { counterId: flags.counter } : {}),
      ...(flags['queue-unit'] !== undefined ? { queueUnitId: flags['queue-unit'] } : {}),
      ...(flags.location !== undefined ? { locationId: flags.location } : {}),
      ...(services !== undefined ? { services } : {}),
      ...(flags.workspace !== undefined ? { workspaceId: flags.workspace } : {}),
      ...(flags.name !== undefined ? { name: flags.name } : {}),
      ...(ttl !== undefined ? { ttlSeconds: ttl } : {}),
    }
    work = (service, db) => {
      const now = Date.now()
      return auditedCliChange(db, now, () => {
        const made = service.createPairingCode(request, now)
        return { result: made, audit: [devicePairEntry(request, made)] }
      })
    }
  } else {
    const extra = given([...BINDING_FLAGS, 'role', 'ttl', ...(action === 'list' ? ['name'] : [])])
    if (extra.length > 0) throw new UsageError(`devices ${action} does not take --${extra[0]}`)
    work = action === 'list' ? (service) => service.list() : (service, db) => {
      const name = required(flags.name, 'name')
      const now = Date.now()
      return auditedCliChange(db, now, () => {
        const revoked = service.revoke(name, now)
        return { result: revoked, audit: [deviceRevokeEntry(name, revoked)] }
      })
    }
  }

  const db = openWritableDatabase(dbPath(flags.db))
  try {
    printJson(work(new DeviceService(db, randomIds), db))
  } catch (error) {
    if (error instanceof DeviceSetupError || error instanceof DeviceNotFoundError) throw new UsageError(error.message)
    throw error
  } finally {
    db.$client.close()
  }
  return 0
}
