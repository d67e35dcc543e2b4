import type { Db } from '../db/open'
import type { AuditEntry } from '../platform/audit'
import type { DetailParams, DetailRule } from '../platform/detail-rules'
import { DeviceNotFoundError, DeviceSetupError, type DeviceListing, type DeviceService, type PairingCode, type PairingRequest } from '../devices'

/*
 * The console's view of devices (contract §17): which queue unit a pairing or a device belongs
 * to (a manager may act on its own units only), over `DeviceService`, which does the pairing,
 * the list and the revocation exactly as `lobby devices` does. Free of HTTP.
 */

/** The request field each `lobby devices` flag stands for: the service's messages name flags. */
const FIELD_OF_FLAG: Record<string, string> = {
  counter: 'counterId', 'queue-unit': 'queueUnitId', location: 'locationId', services: 'services', workspace: 'workspaceId', name: 'name', ttl: 'ttlSeconds', role: 'role',
}

/** A pairing request the database refuses, said in the console's words: a message and the field at fault. */
export class PairingRefused extends Error {
  constructor(message: string, public readonly field: string, public readonly rule: DetailRule, public readonly params?: DetailParams) {
    super(message)
  }
}

/**
 * The rule a `DeviceService` refusal breaks (contract §24: the console says it in words). The
 * service is the CLI's too and words its refusals for a terminal; this reads them here, in one
 * place, and test/admin/error-words.test.ts drives each through the API, so a reworded or new
 * refusal shows up there as a rule not recognised.
 */
function ruleOfPairing(message: string): { rule: DetailRule; params?: DetailParams } {
  const ttl = /^--ttl must be between (\d+) and (\d+)/.exec(message)
  if (ttl !== null) return { rule: 'range', params: { min: Number(ttl[1]), max: Number(ttl[2]) } }
  if (/^--name must be/.test(message)) return { rule: 'format', params: { format: 'keyName' } }
  if (/already named/.test(message)) return { rule: 'taken', params: { kind: 'device' } }
  if (/ needs --/.test(message)) return { rule: 'required' }
  const missing = /^no (queue unit|counter|location|service|workspace) /.exec(message)
  if (missing !== null) return { rule: 'unknownReference', params: { kind: missing[1] === 'queue unit' ? 'queueUnit' : missing[1]! } }
  if (/^counter .* is retired/.test(message)) return { rule: 'retired', params: { kind: 'counter' } }
  return { rule: 'invalid' }
}

export { DeviceNotFoundError }

function prepareAdminDeviceStatements(db: Db) {
  return {
    counterUnit: db.$client.query<{ queueUnitId: string }, [string]>('SELECT queue_unit_id AS queueUnitId FROM counters WHERE id = ?1'),
    unitsOfName: db.$client.query<{ queueUnitId: string | null }, [string]>(
      'SELECT d.queue_unit_id AS queueUnitId FROM devices d JOIN credentials c ON c.id = d.credential_id WHERE d.name = ?1',
    ),
  }
}

export class AdminDevices {
  private prepared: ReturnType<typeof prepareAdminDeviceStatements> | undefined

  constructor(private readonly db: Db, private readonly devices: DeviceService) {}

  /** Prepared on first use (not while the server starts). */
  private get parts(): ReturnType<typeof prepareAdminDeviceStatements> {
    return (this.prepared ??= prepareAdminDeviceStatements(this.db))
  }

  /**
   * The queue unit a pairing would bind to: the counter's for a desk, the named one for a kiosk
   * or reports device; null for a display (a whole workspace) and for a counter that does not
   * exist (the pairing itself then says so).
   */
  unitOfPairing(request: PairingRequest): string | null | undefined {
    switch (request.role) {
      case 'desk':
        return request.counterId === undefined ? undefined : (this.parts.counterUnit.get(request.counterId)?.queueUnitId ?? undefined)
      case 'kiosk':
      case 'reports':
        return request.queueUnitId
      case 'display':
        return null
    }
  }

  /** A new pairing code, as `lobby devices pair` makes it; a refusal names the request field. */
  pair(request: PairingRequest, now: number) {
    try {
      return this.devices.createPairingCode(request, now)
    } catch (error) {
      if (!(error instanceof DeviceSetupError)) throw error
      // "--role desk needs --counter" is about the counter, not the role.
      const flag = /--([a-z-]+)/.exec(error.message.replace(/^--role \w+ needs /, ''))?.[1]
      const field = flag === undefined ? guessField(error.message) : (FIELD_OF_FLAG[flag] ?? flag)
      const message = error.message.replace(/--([a-z-]+)/g, (_, f: string) => FIELD_OF_FLAG[f] ?? f)
      const { rule, params } = ruleOfPairing(error.message)
      throw new PairingRefused(message, field, rule, params)
    }
  }

  /** Every device, or those bound to one of `units` (a display, bound to a workspace, only with `units` null). */
  list(units: readonly string[] | null): DeviceListing[] {
    const all = this.devices.list()
    return units === null ? all : all.filter((d) => d.binding.queueUnitId !== undefined && units.includes(d.binding.queueUnitId))
  }

  /** The queue units of the devices named `name` (null for a display); empty when no device has that name. */
  unitsOf(name: string): (string | null)[] {
    return this.parts.unitsOfName.all(name).map((r) => r.queueUnitId)
  }

  revoke(name: string, now: number) {
    return this.devices.revoke(name, now)
  }
}

/*
 * The audit entries of a pairing and a revocation, shared by the console and `lobby devices`
 * (one change, one entry, the same words whichever door): never the pairing code or its link.
 */

/** `device.pair`: the device-to-be (its name, or `<role>-<what it is bound to>`), its role, expiry and binding. */
export function devicePairEntry(request: PairingRequest, made: PairingCode): Omit<AuditEntry, 'actor'> {
  const { code: _secret, pairPath: _path, ...after } = made
  const { role: _role, name: _name, ttlSeconds: _ttl, ...binding } = request
  const name = request.name ?? `${request.role}-${request.counterId ?? request.locationId ?? request.queueUnitId ?? request.workspaceId ?? ''}`
  return { action: 'device.pair', entity: { type: 'device', id: name }, after: { ...after, binding } }
}

/** `device.revoke`: active before, revoked after. */
export function deviceRevokeEntry(name: string, revoked: { revoked: number }): Omit<AuditEntry, 'actor'> {
  return { action: 'device.revoke', entity: { type: 'device', id: name }, before: { state: 'active' }, after: { state: 'revoked', revoked: revoked.revoked } }
}

/** The field a binding message is about when it names no flag ("no counter …", "no queue unit …"). */
function guessField(message: string): string {
  if (/^no counter|^counter /.test(message)) return 'counterId'
  if (/^no location/.test(message)) return 'locationId'
  if (/^no service/.test(message)) return 'services'
  if (/^no workspace/.test(message)) return 'workspaceId'
  if (/^no queue unit/.test(message)) return 'queueUnitId'
  if (/named/.test(message)) return 'name'
  return 'role'
}
