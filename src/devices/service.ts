import { and, eq, inArray, isNull, lte } from 'drizzle-orm'
import type { Db } from '../db/open'
import { hashSecret, type CredentialStore } from '../platform/credentials'
import { isoOrNull, isoTime } from '../platform/clock'
import { randomIds, type IdGenerator } from '../platform/ids'
import { credentials, workspaces } from '../structure'
import { insertCredential, NO_PROPERTIES } from '../structure'
import { queueUnits, locations, services } from '../structure'
import { counters } from '../structure'
import { devices, pairingCodes } from './tables'

// The roles and the paired device are admission's principals (src/access/principals.ts).
export { DEVICE_ROLES, type Device, type DeviceBinding, type DeviceRole } from '../access'
import type { Device, DeviceBinding, DeviceRole } from '../access'

/** Where each role's pages start (contract §7): the pairing page goes there once paired. */
export const ROLE_HOME: Record<DeviceRole, string> = { desk: '/desk', kiosk: '/kiosk', display: '/screens', reports: '/reports' }

/**
 * Contract §7 and §23: a pairing code is valid `--ttl` seconds, default 600, at most 3600
 * (with 30 tries a minute overall, a guesser reaches at most 1,800 of the million codes).
 */
export const DEFAULT_PAIRING_TTL_SECONDS = 600
export const MAX_PAIRING_TTL_SECONDS = 3600

/** What `lobby devices pair` asks for. */
export interface PairingRequest {
  role: DeviceRole
  counterId?: string
  queueUnitId?: string
  locationId?: string
  services?: string[]
  workspaceId?: string
  name?: string
  ttlSeconds?: number
}

export interface PairingCode {
  code: string
  pairPath: string
  role: DeviceRole
  expiresAt: string
}

export interface DeviceListing {
  name: string
  role: DeviceRole
  binding: { queueUnitId?: string; locationId?: string; counterId?: string; workspaceId?: string; services?: string[] }
  pairedAt: string
  lastUsedAt: string | null
  state: 'active' | 'revoked'
}

/** A pairing request the database cannot satisfy (unknown counter, bad binding, name taken). */
export class DeviceSetupError extends Error {}

/** `lobby devices revoke --name` for a name no device has. */
export class DeviceNotFoundError extends Error {}

const NAME_PATTERN = /^[A-Za-z0-9_.:-]{1,80}$/

/** Six decimal digits from Web Crypto, uniformly (rejection sampling above the largest multiple of 10^6). */
function sixDigits(): string {
  const limit = Math.floor(0x1_0000_0000 / 1_000_000) * 1_000_000
  for (;;) {
    const n = crypto.getRandomValues(new Uint32Array(1))[0]!
    if (n < limit) return String(n % 1_000_000).padStart(6, '0')
  }
}

function prepareDeviceStatements(db: Db) {
  return {
    byCredential: db.$client.query<
      { name: string; role: DeviceRole; workspaceId: string; queueUnitId: string | null; locationId: string | null; counterId: string | null; services: string | null },
      [string]
    >(`SELECT name, role, workspace_id AS workspaceId, queue_unit_id AS queueUnitId, location_id AS locationId, counter_id AS counterId, services
       FROM devices WHERE credential_id = ?1`),
    counterServicesStmt: db.$client.query<{ serviceId: string }, [string]>(
      'SELECT service_id AS serviceId FROM counter_services WHERE counter_id = ?1 ORDER BY service_id',
    ),
  }
}

/**
 * Devices of contract §7: pairing codes, pairing (a code becomes a `device` credential and
 * its binding), the list and revocation, and finding the device behind a cookie's secret.
 * Free of HTTP; every write is one transaction.
 */
export class DeviceService {
  private prepared: ReturnType<typeof prepareDeviceStatements> | undefined

  constructor(
    private readonly db: Db,
    private readonly ids: IdGenerator = randomIds,
  ) {}

  /** Prepared on first use (not while the server starts). */
  private get parts(): ReturnType<typeof prepareDeviceStatements> {
    return (this.prepared ??= prepareDeviceStatements(this.db))
  }

  // ---- pairing codes (CLI) ----------------------------------------------------------------

  /**
   * A new six-digit code for `request`'s role and binding, valid `ttlSeconds` (default 600).
   * The binding is checked now, so a typo fails at the admin's terminal, not at the device.
   */
  createPairingCode(request: PairingRequest, now: number): PairingCode {
    const ttl = request.ttlSeconds ?? DEFAULT_PAIRING_TTL_SECONDS
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_PAIRING_TTL_SECONDS) {
      throw new DeviceSetupError(`--ttl must be between 1 and ${MAX_PAIRING_TTL_SECONDS}`)
    }
    if (request.name !== undefined && !NAME_PATTERN.test(request.name)) {
      throw new DeviceSetupError('--name must be 1 to 80 of A-Z a-z 0-9 _ . : -')
    }
    return this.db.transaction((tx) => {
      const binding = this.resolveBinding(tx as unknown as Db, request)
      if (request.name !== undefined && this.nameInUse(tx as unknown as Db, request.name)) {
        throw new DeviceSetupError(`a paired device is already named "${request.name}" (revoke it first, or choose another name)`)
      }
      // Used codes are deleted when used; expired ones go here, so the table stays tiny.
      tx.delete(pairingCodes).where(lte(pairingCodes.expiresAt, now)).run()
      let code = sixDigits()
      while (tx.select({ code: pairingCodes.code }).from(pairingCodes).where(eq(pairingCodes.code, code)).get() !== undefined) code = sixDigits()
      const expiresAt = now + ttl * 1000
      tx.insert(pairingCodes).values({
        code,
        role: request.role,
        ...binding,
        services: binding.services && JSON.stringify(binding.services),
        name: request.name ?? null,
        createdAt: now,
        expiresAt,
      }).run()
      return { code, pairPath: `/pair?code=${code}`, role: request.role, expiresAt: isoTime(expiresAt) }
    }, { behavior: 'immediate' })
  }

  private resolveBinding(db: Db, request: PairingRequest): DeviceBinding {
    const none = { queueUnitId: null, locationId: null, counterId: null, services: null }
    const unitOf = (id: string | undefined, flag: string) => {
      if (id === undefined) throw new DeviceSetupError(`--role ${request.role} needs --${flag}`)
      const unit = db.select().from(queueUnits).where(eq(queueUnits.id, id)).get()
      if (unit === undefined) throw new DeviceSetupError(`no queue unit "${id}"`)
      return unit
    }
    switch (request.role) {
      case 'desk': {
        if (request.counterId === undefined) throw new DeviceSetupError('--role desk needs --counter')
        const counter = db.select().from(counters).where(eq(counters.id, request.counterId)).get()
        if (counter === undefined) throw new DeviceSetupError(`no counter "${request.counterId}"`)
        if (!counter.active) throw new DeviceSetupError(`counter "${request.counterId}" is retired`)
        const unit = unitOf(counter.queueUnitId, 'counter')
        return { ...none, workspaceId: unit.workspaceId, queueUnitId: unit.id, locationId: counter.locationId, counterId: counter.id }
      }
      case 'kiosk': {
        const unit = unitOf(request.queueUnitId, 'queue-unit')
        if (request.locationId === undefined) throw new DeviceSetupError('--role kiosk needs --location')
        const location = db.select().from(locations).where(eq(locations.id, request.locationId)).get()
        if (location === undefined || location.queueUnitId !== unit.id) throw new DeviceSetupError(`no location "${request.locationId}" in queue unit "${unit.id}"`)
        let list: string[] | null = null
        if (request.services !== undefined) {
          list = [...new Set(request.services)]
          const known = db.select({ id: services.id }).from(services)
            .where(and(eq(services.queueUnitId, unit.id), inArray(services.id, list))).all().map((r) => r.id)
          const unknown = list.filter((id) => !known.includes(id))
          if (unknown.length > 0) throw new DeviceSetupError(`no service ${unknown.map((id) => `"${id}"`).join(', ')} in queue unit "${unit.id}"`)
        }
        return { ...none, workspaceId: unit.workspaceId, queueUnitId: unit.id, locationId: location.id, services: list }
      }
      case 'display': {
        if (request.workspaceId === undefined) throw new DeviceSetupError('--role display needs --workspace')
        const workspace = db.select().from(workspaces).where(eq(workspaces.id, request.workspaceId)).get()
        if (workspace === undefined) throw new DeviceSetupError(`no workspace "${request.workspaceId}"`)
        return { ...none, workspaceId: workspace.id }
      }
      case 'reports': {
        const unit = unitOf(request.queueUnitId, 'queue-unit')
        return { ...none, workspaceId: unit.workspaceId, queueUnitId: unit.id }
      }
    }
  }

  private nameInUse(db: Db, name: string): boolean {
    return db.select({ id: devices.credentialId }).from(devices)
      .innerJoin(credentials, eq(credentials.id, devices.credentialId))
      .where(and(eq(devices.name, name), isNull(credentials.revokedAt)))
      .get() !== undefined
  }

  // ---- pairing (the browser) ------------------------------------------------------------

  /**
   * Consumes a valid code: a new `device` credential (`lbv_…`, stored hashed) with the code's
   * role and binding. Null for a wrong, expired or already used code; nothing is written then.
   * The device's name: the code's `--name`, else the browser's `deviceName`, else
   * `<role>-<what it is bound to>`; `-2`, `-3`… is added when a paired device has it already.
   * `replaces`: the device this browser was paired as until now (its cookie is overwritten, so
   * that device could never be used again): it is revoked in the same transaction.
   */
  pair(code: string, deviceName: string | null, now: number, replaces: string | null = null): { device: Device; secret: string } | null {
    return this.db.transaction((tx) => {
      const db = tx as unknown as Db
      const row = db.select().from(pairingCodes).where(eq(pairingCodes.code, code)).get()
      if (row === undefined || row.expiresAt <= now) return null
      db.delete(pairingCodes).where(eq(pairingCodes.code, code)).run()
      if (replaces !== null) db.update(credentials).set({ revokedAt: now }).where(and(eq(credentials.id, replaces), isNull(credentials.revokedAt))).run()
      const base = row.name ?? (deviceName !== null && NAME_PATTERN.test(deviceName) ? deviceName : `${row.role}-${row.counterId ?? row.locationId ?? row.queueUnitId ?? row.workspaceId}`)
      let name = base.slice(0, 80)
      for (let n = 2; this.nameInUse(db, name); n++) name = `${base.slice(0, 75)}-${n}`
      const secret = insertCredential(db, this.ids, 'device', row.queueUnitId ?? row.workspaceId, name, NO_PROPERTIES, now)
      const credential = db.select({ id: credentials.id }).from(credentials).where(eq(credentials.secretHash, hashSecret(secret))).get()!
      db.insert(devices).values({
        credentialId: credential.id,
        name,
        role: row.role,
        workspaceId: row.workspaceId,
        queueUnitId: row.queueUnitId,
        locationId: row.locationId,
        counterId: row.counterId,
        services: row.services,
        pairedAt: now,
      }).run()
      return {
        secret,
        device: {
          credentialId: credential.id, name, role: row.role, workspaceId: row.workspaceId, queueUnitId: row.queueUnitId,
          locationId: row.locationId, counterId: row.counterId, services: row.services === null ? null : (JSON.parse(row.services) as string[]),
        },
      }
    }, { behavior: 'immediate' })
  }

  // ---- authentication ---------------------------------------------------------------------

  /**
   * The device behind a cookie's secret, or null (unknown, revoked, not a device secret). The
   * secret is checked by the same credential store as every key, so a revocation is seen on
   * the very next request and by the live hub's re-check of open sockets.
   */
  authenticate(store: CredentialStore, secret: string | null, now: number): Device | null {
    const credential = store.authenticate(secret, 'device', now)
    if (credential === null) return null
    const row = this.parts.byCredential.get(credential.id)
    if (row === null) return null
    return {
      credentialId: credential.id,
      name: row.name,
      role: row.role,
      workspaceId: row.workspaceId,
      queueUnitId: row.queueUnitId,
      locationId: row.locationId,
      counterId: row.counterId,
      services: row.services === null ? null : (JSON.parse(row.services) as string[]),
    }
  }

  /** The services a desk's counter serves now (provisioning may change them after pairing). */
  counterServiceIds(counterId: string): string[] {
    return this.parts.counterServicesStmt.all(counterId).map((r) => r.serviceId)
  }

  // ---- list and revoke (CLI) --------------------------------------------------------------

  /** Every device, paired first to last; never a secret. */
  list(): DeviceListing[] {
    return this.db.select({ device: devices, lastUsedAt: credentials.lastUsedAt, revokedAt: credentials.revokedAt })
      .from(devices)
      .innerJoin(credentials, eq(credentials.id, devices.credentialId))
      .all()
      .sort((a, b) => a.device.pairedAt - b.device.pairedAt || a.device.name.localeCompare(b.device.name))
      .map(({ device, lastUsedAt, revokedAt }) => ({
        name: device.name,
        role: device.role,
        binding: bindingJson(device.role, device),
        pairedAt: isoTime(device.pairedAt),
        lastUsedAt: isoOrNull(lastUsedAt),
        state: revokedAt === null ? 'active' : 'revoked',
      }))
  }

  /** Every paired (not yet revoked) device of that name stops working now. */
  revoke(name: string, now: number): { name: string; revoked: number } {
    return this.db.transaction((tx) => {
      const rows = tx.select({ id: devices.credentialId, revokedAt: credentials.revokedAt })
        .from(devices)
        .innerJoin(credentials, eq(credentials.id, devices.credentialId))
        .where(eq(devices.name, name))
        .all()
      if (rows.length === 0) throw new DeviceNotFoundError(`no device named "${name}" (see lobby devices list)`)
      const live = rows.filter((r) => r.revokedAt === null).map((r) => r.id)
      if (live.length > 0) tx.update(credentials).set({ revokedAt: now }).where(inArray(credentials.id, live)).run()
      return { name, revoked: live.length }
    }, { behavior: 'immediate' })
  }
}

/** The binding fields of `lobby devices list` for a role: only those it has. */
function bindingJson(role: DeviceRole, row: { workspaceId: string; queueUnitId: string | null; locationId: string | null; counterId: string | null; services: string | null }): DeviceListing['binding'] {
  switch (role) {
    case 'desk':
      return { queueUnitId: row.queueUnitId!, locationId: row.locationId!, counterId: row.counterId! }
    case 'kiosk':
      return { queueUnitId: row.queueUnitId!, locationId: row.locationId!, ...(row.services !== null ? { services: JSON.parse(row.services) as string[] } : {}) }
    case 'display':
      return { workspaceId: row.workspaceId }
    case 'reports':
      return { queueUnitId: row.queueUnitId! }
  }
}
