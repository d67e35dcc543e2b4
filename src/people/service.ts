import type { Db } from '../db/open'
import type { Clock } from '../platform/clock'
import { isoTime } from '../platform/clock'
import { hashSecret } from '../platform/credentials'
import { randomToken, type IdGenerator } from '../platform/ids'
import type { WriteBatcher } from '../platform/write-batch'
import { StaffIntervals } from './staff'
import { appendAudit } from '../platform/audit'
import {
  DEFAULT_PASSWORD_COST, hashPassword, passwordProblem, PIN_PATTERN, verifyPassword,
  type PasswordCost, type PasswordProblem,
} from './passwords'

// The roles and the person are admission's principals (src/access/principals.ts), as is the session ID's form.
export { USER_ROLES, type User, type UserRole, type UserState } from '../access'
import { SESSION_PATTERN, SESSION_PREFIX, USER_ROLES, type User, type UserRole, type UserState } from '../access'

export const USERNAME_PATTERN = /^[a-z0-9._-]{1,64}$/
const QUEUE_UNIT_PATTERN = /^[A-Za-z0-9_.:-]{1,80}$/

/** Where each role's pages start once signed in. */
export const USER_HOME: Record<UserRole, string> = { admin: '/admin', manager: '/manage', clerk: '/desk' }

/** Contract §16's numbers. */
export const SETUP_CODE_TTL_MS = 24 * 3_600_000
export const SESSION_IDLE_MS = 30 * 60_000
export const SESSION_ABSOLUTE_MS = 12 * 3_600_000
export const LOCK_FAILURES = 5
export const LOCK_WINDOW_MS = 15 * 60_000
/** Contract §16: 20 failed sign-ins a minute from one address, then 429. */
export const ADDRESS_FAILURES = 20
export const ADDRESS_WINDOW_MS = 60_000
/**
 * Beneath that, the admission kit bounds every attempt, failed or not, at 60 a minute per
 * address (passwords at /login and PINs at a desk alike). Both are checked before the body is read (§23).
 */
export const SIGN_IN_ATTEMPTS_PER_ADDRESS = 60
/** A session's `lastSeenAt` is written at most this often (not on every request). */
const TOUCH_EVERY_MS = 60_000
/** Setup codes and session IDs: 32 random bytes (256 bits), base32. */
const SECRET_BYTES = 32
export const SETUP_CODE_PATTERN = /^[a-z2-7]{52}$/

export interface UserListing {
  username: string
  displayName: string
  role: UserRole
  queueUnits: string[]
  state: UserState
  passwordSet: boolean
  createdAt: string
}

export interface SetupLink {
  username: string
  setupPath: string
  expiresAt: string
}

export interface NewUser {
  username: string
  role: UserRole
  displayName?: string
  queueUnits?: string[]
}

/** What `changeUser` may change; absent fields stay. */
export interface UserChange {
  role?: UserRole
  queueUnits?: string[]
  displayName?: string
}

/** A bad `lobby users` request (username taken or malformed, unknown queue unit, …). */
export class UserSetupError extends Error {}
/** `lobby users disable|reset --username` for a username no account has. */
export class UserNotFoundError extends Error {}

/** Why a sign-in, setup or session check failed; the routes turn each into its answer. */
export class SignInFailed extends Error {
  constructor() {
    super('wrong username or password')
  }
}
export class SignInLocked extends Error {
  constructor(public readonly retryAfterSeconds: number) {
    super('too many failed sign-ins for this username')
  }
}
export class SetupCodeInvalid extends Error {}
export class PasswordRejected extends Error {
  constructor(public readonly problem: PasswordProblem) {
    super(problem)
  }
}
export class PinRejected extends Error {}

/** The lock key of a clerk's desk PIN in `sign_in_failures`, before the username. */
export const PIN_LOCK_PREFIX = 'pin:'

/** A clerk whose PIN was right, until the sign-in is written (`settleClerkSignIn`). */
export interface ClerkPinCheck {
  user: User
  pinHash: string
  attemptId: number
  lockKey: string
}

export interface PeopleDeps {
  db: Db
  clock: Clock
  ids: IdGenerator
  /** Request writes go through the one write path; the CLI (no batcher) writes in its own transaction. */
  writes?: WriteBatcher
}

interface UserRow {
  id: string
  username: string
  displayName: string
  role: UserRole
  queueUnits: string
  state: UserState
  passwordHash: string | null
  pinHash: string | null
}

const USER_COLUMNS = 'id, username, display_name AS displayName, role, queue_units AS queueUnits, state, password_hash AS passwordHash, pin_hash AS pinHash'
/** The same columns of `users` aliased `u` (the joins with setup codes and sessions). */
const U_USER_COLUMNS = USER_COLUMNS.split(', ').map((c) => `u.${c}`).join(', ')

function listingOf(row: UserRow & { createdAt: number }): UserListing {
  return {
    username: row.username,
    displayName: row.displayName,
    role: row.role,
    queueUnits: JSON.parse(row.queueUnits) as string[],
    state: row.state,
    passwordSet: row.passwordHash !== null,
    createdAt: isoTime(row.createdAt),
  }
}

/** A display name as stored: trimmed, 1 to 120 characters, no control characters. */
function checkedDisplayName(name: string): string {
  const displayName = name.trim()
  if (displayName === '' || [...displayName].length > 120 || /[\u0000-\u001f\u007f]/.test(displayName)) {
    throw new UserSetupError('--name must be 1 to 120 characters, without control characters')
  }
  return displayName
}

/**
 * A role's unit list, without repeats: none for an admin (it works in every unit), at least one
 * for a manager or a clerk (contract §24: one without could do nothing), IDs of the right shape.
 */
function checkedUnitList(role: UserRole, queueUnits: string[]): string[] {
  const units = [...new Set(queueUnits)]
  if (role === 'admin' && units.length > 0) throw new UserSetupError('an admin works in every queue unit: --queue-units is for a manager or a clerk')
  if (role !== 'admin' && units.length === 0) throw new UserSetupError('a manager or a clerk needs at least one queue unit (--queue-units)')
  for (const unit of units) if (!QUEUE_UNIT_PATTERN.test(unit)) throw new UserSetupError(`--queue-units: "${unit}" is not a queue-unit ID`)
  return units
}

function userOf(row: UserRow): User {
  return { id: row.id, username: row.username, displayName: row.displayName, role: row.role, queueUnits: JSON.parse(row.queueUnits) as string[], state: row.state }
}

/**
 * People of contract §16: accounts and their setup links (the CLI), passwords and PINs, sign-in
 * with its lockout, and sessions. Free of HTTP. Hashing (Argon2id) runs before a write, never
 * inside one; request writes go through `deps.writes.run`.
 */
export class PeopleService {
  private readonly cost: PasswordCost
  private dummyHash: Promise<string> | null = null

  constructor(private readonly deps: PeopleDeps, options: { passwordCost?: PasswordCost } = {}) {
    this.cost = options.passwordCost ?? DEFAULT_PASSWORD_COST
  }

  private get sql() {
    return this.deps.db.$client
  }

  /** The clerks' intervals, for `disableUser` and `resetUser` (made on first use: the CLI's other commands need none). */
  private staffIntervals: StaffIntervals | null = null
  private get staff(): StaffIntervals {
    return (this.staffIntervals ??= new StaffIntervals(this.deps.db))
  }

  /** A write: through the one write path when there is one (the server), else its own immediate transaction (the CLI). */
  private write<T>(work: () => T): Promise<T> {
    if (this.deps.writes !== undefined) return this.deps.writes.run(work)
    return Promise.resolve(this.deps.db.$client.transaction(work).immediate())
  }

  private userByName(username: string): UserRow | null {
    return this.sql.query<UserRow, [string]>(`SELECT ${USER_COLUMNS} FROM users WHERE username = ?1`).get(username)
  }

  // ---- accounts (CLI) -------------------------------------------------------------------

  /** A new account and its first setup link. */
  addUser(request: NewUser, now: number): SetupLink {
    if (!USERNAME_PATTERN.test(request.username)) throw new UserSetupError('--username must be 1 to 64 of a-z 0-9 . _ -')
    if (!(USER_ROLES as readonly string[]).includes(request.role)) throw new UserSetupError(`--role must be one of ${USER_ROLES.join(', ')}`)
    const displayName = checkedDisplayName(request.displayName ?? request.username)
    const units = checkedUnitList(request.role, request.queueUnits ?? [])
    return this.sql.transaction(() => {
      this.assertUnitsExist(units)
      if (this.userByName(request.username) !== null) throw new UserSetupError(`a user is already named "${request.username}" (see lobby users list)`)
      const id = this.deps.ids.next('usr_')
      this.sql.query(`INSERT INTO users (id, username, display_name, role, queue_units, state, created_at) VALUES (?1, ?2, ?3, ?4, ?5, 'active', ?6)`)
        .run(id, request.username, displayName, request.role, JSON.stringify(units), now)
      return this.newSetupCode(id, request.username, now)
    }).immediate()
  }

  /** Whether an active administrator has set a password (the start page says how to begin until one has). */
  hasAdministrator(): boolean {
    return this.sql.query("SELECT 1 FROM users WHERE role = 'admin' AND state = 'active' AND password_hash IS NOT NULL LIMIT 1").get() !== null
  }

  /**
   * Contract §24, first start: while no administrator can sign in (none has set a password), a
   * fresh single-use setup link for a first one. The oldest administrator still waiting for a
   * password gets it (earlier links still work until one is used: a set password ends them all,
   * so a link handed out by the demo or `users add` stays good); with none, an
   * account `admin` (or `admin-2`… when that name is taken) is made and audited as the server's.
   * Null once an administrator has a password.
   */
  firstAdminSetup(now: number): SetupLink | null {
    return this.sql.transaction(() => {
      if (this.hasAdministrator()) return null
      const waiting = this.sql.query<{ id: string; username: string }, []>(
        "SELECT id, username FROM users WHERE role = 'admin' AND state = 'active' AND password_hash IS NULL ORDER BY created_at, username LIMIT 1",
      ).get()
      if (waiting !== null) return this.newSetupCode(waiting.id, waiting.username, now)
      let username = 'admin'
      for (let n = 2; this.userByName(username) !== null; n++) username = `admin-${n}`
      const id = this.deps.ids.next('usr_')
      this.sql.query(`INSERT INTO users (id, username, display_name, role, queue_units, state, created_at) VALUES (?1, ?2, 'Administrator', 'admin', '[]', 'active', ?3)`).run(id, username, now)
      appendAudit(this.sql, { actor: { type: 'system', id: 'serve:first-start' }, action: 'user.create', entity: { type: 'user', id: username }, after: this.listing(username) }, now)
      return this.newSetupCode(id, username, now)
    }).immediate()
  }

  private assertUnitsExist(units: string[]): void {
    const known = new Set(this.sql.query<{ id: string }, []>('SELECT id FROM queue_units').all().map((r) => r.id))
    const unknown = units.filter((u) => !known.has(u))
    if (unknown.length > 0) throw new UserSetupError(`no queue unit ${unknown.map((u) => `"${u}"`).join(', ')}`)
  }

  /**
   * Changes an account's role, units or display name, by the rules of `addUser` (an admin has
   * no unit list; a manager or clerk has at least one, and its units exist). Returns the account before and after.
   * A session carries no copy of the role: the next request of a signed-in person sees the new one.
   */
  changeUser(username: string, change: UserChange): { before: UserListing; after: UserListing } {
    return this.sql.transaction(() => {
      const row = this.userByName(username)
      if (row === null) throw new UserNotFoundError(`no user named "${username}" (see lobby users list)`)
      const before = this.listing(username)!
      const role = change.role ?? row.role
      if (!(USER_ROLES as readonly string[]).includes(role)) throw new UserSetupError(`--role must be one of ${USER_ROLES.join(', ')}`)
      // An admin has no unit list (it works in every unit), so becoming one drops it; a manager or clerk keeps its units unless new ones are given.
      const units = checkedUnitList(role, change.queueUnits ?? (role === 'admin' ? [] : (JSON.parse(row.queueUnits) as string[])))
      this.assertUnitsExist(units)
      const displayName = change.displayName === undefined ? row.displayName : checkedDisplayName(change.displayName)
      this.sql.query('UPDATE users SET role = ?2, queue_units = ?3, display_name = ?4 WHERE id = ?1').run(row.id, role, JSON.stringify(units), displayName)
      // A clerk signed in at a desk of a unit no longer theirs (or no longer a clerk) is signed out of it.
      if (role !== row.role || JSON.stringify(units) !== row.queueUnits) this.staff.endAllOf(row.id, this.deps.clock.now())
      return { before, after: this.listing(username)! }
    }).immediate()
  }

  /** One account as `listUsers` shows it, or null. */
  listing(username: string): UserListing | null {
    const row = this.sql.query<UserRow & { createdAt: number }, [string]>(`SELECT ${USER_COLUMNS}, created_at AS createdAt FROM users WHERE username = ?1`).get(username)
    return row === null ? null : listingOf(row)
  }

  /** Every account, oldest first; never a hash or a code. */
  listUsers(): UserListing[] {
    return this.sql.query<UserRow & { createdAt: number }, []>(`SELECT ${USER_COLUMNS}, created_at AS createdAt FROM users ORDER BY created_at, username`).all().map(listingOf)
  }

  /** The account can no longer sign in; every session of it ends now, its setup links too. */
  disableUser(username: string): { username: string; state: 'disabled'; sessionsEnded: number } {
    return this.sql.transaction(() => {
      const user = this.userByName(username)
      if (user === null) throw new UserNotFoundError(`no user named "${username}" (see lobby users list)`)
      this.sql.query(`UPDATE users SET state = 'disabled' WHERE id = ?1`).run(user.id)
      // A clerk who leaves is signed out of the desk too (and a break of theirs ends).
      this.staff.endAllOf(user.id, this.deps.clock.now())
      this.sql.query('DELETE FROM user_setup_codes WHERE user_id = ?1').run(user.id)
      const ended = this.sql.query('DELETE FROM user_sessions WHERE user_id = ?1').run(user.id).changes
      return { username, state: 'disabled' as const, sessionsEnded: ended }
    }).immediate()
  }

  /**
   * A password reset: the password and PIN are cleared, every session ends now, earlier setup
   * links stop working, and a new link is made. A disabled account is made active again (the
   * administrator who resets it wants the person back).
   */
  resetUser(username: string, now: number): SetupLink {
    return this.sql.transaction(() => {
      const user = this.userByName(username)
      if (user === null) throw new UserNotFoundError(`no user named "${username}" (see lobby users list)`)
      this.sql.query(`UPDATE users SET password_hash = NULL, pin_hash = NULL, password_set_at = NULL, state = 'active' WHERE id = ?1`).run(user.id)
      // Without a PIN the clerk is no longer signed in at a desk either.
      this.staff.endAllOf(user.id, now)
      this.sql.query('DELETE FROM user_sessions WHERE user_id = ?1').run(user.id)
      this.sql.query('DELETE FROM user_setup_codes WHERE user_id = ?1').run(user.id)
      return this.newSetupCode(user.id, username, now)
    }).immediate()
  }

  private newSetupCode(userId: string, username: string, now: number): SetupLink {
    this.sql.query('DELETE FROM user_setup_codes WHERE expires_at <= ?1').run(now)
    const code = randomToken(SECRET_BYTES)
    const expiresAt = now + SETUP_CODE_TTL_MS
    this.sql.query('INSERT INTO user_setup_codes (code_hash, user_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)').run(hashSecret(code), userId, now, expiresAt)
    return { username, setupPath: `/login/setup?code=${code}`, expiresAt: isoTime(expiresAt) }
  }

  // ---- setup (the browser) --------------------------------------------------------------

  /** The account a setup code opens, or null (wrong, expired, used, or the account disabled). */
  setupTarget(code: string, now: number): User | null {
    if (!SETUP_CODE_PATTERN.test(code)) return null
    const row = this.sql.query<UserRow & { expiresAt: number }, [string]>(
      `SELECT ${U_USER_COLUMNS}, c.expires_at AS expiresAt FROM user_setup_codes c JOIN users u ON u.id = c.user_id WHERE c.code_hash = ?1`,
    ).get(hashSecret(code))
    if (row === null || row.expiresAt <= now || row.state !== 'active') return null
    return userOf(row)
  }

  /**
   * Sets the password (and a clerk's PIN) with a setup code, which is used up. Throws
   * SetupCodeInvalid, PasswordRejected or PinRejected; nothing is written then. Every session
   * of the account ends (a setup is a reset).
   */
  async completeSetup(code: string, password: string, pin: string | undefined, now: number): Promise<User> {
    const user = this.setupTarget(code, now)
    if (user === null) throw new SetupCodeInvalid('this setup link is wrong, expired or already used')
    const workspaceNames = this.sql.query<{ name: string }, []>('SELECT name FROM workspaces').all().map((w) => w.name)
    const problem = passwordProblem(password, { username: user.username, workspaceNames })
    if (problem !== null) throw new PasswordRejected(problem)
    if (user.role === 'clerk' ? pin === undefined || !PIN_PATTERN.test(pin) : pin !== undefined) throw new PinRejected()
    const passwordHash = await hashPassword(password, this.cost)
    const pinHash = pin === undefined ? null : await hashPassword(pin, this.cost)
    const used = await this.write(() => {
      // Single use: the first of two racing requests deletes the code; the second finds nothing.
      const deleted = this.sql.query('DELETE FROM user_setup_codes WHERE code_hash = ?1 AND expires_at > ?2').run(hashSecret(code), now).changes
      if (deleted !== 1) return false
      this.sql.query('UPDATE users SET password_hash = ?2, pin_hash = ?3, password_set_at = ?4 WHERE id = ?1').run(user.id, passwordHash, pinHash, now)
      // The password is set: any other link of the account (a first administrator's, one per start) stops working.
      this.sql.query('DELETE FROM user_setup_codes WHERE user_id = ?1').run(user.id)
      this.sql.query('DELETE FROM user_sessions WHERE user_id = ?1').run(user.id)
      return true
    })
    if (!used) throw new SetupCodeInvalid('this setup link is wrong, expired or already used')
    return user
  }

  // ---- sign-in --------------------------------------------------------------------------

  /** Seconds until `username` may try again, or 0 when it is not locked. */
  lockedFor(username: string, now: number): number {
    const recent = this.sql.query<{ at: number }, [string, number, number]>(
      'SELECT at FROM sign_in_failures WHERE username = ?1 AND at > ?2 ORDER BY at DESC LIMIT ?3',
    ).all(username, now - LOCK_WINDOW_MS, LOCK_FAILURES)
    if (recent.length < LOCK_FAILURES) return 0
    // Locked until the oldest of the last five failures leaves the window.
    const until = recent[LOCK_FAILURES - 1]!.at + LOCK_WINDOW_MS
    return Math.max(1, Math.ceil((until - now) / 1000))
  }

  /**
   * Seconds until `address` may try to sign in again, or 0: refused after 20 failures in a
   * minute (until the oldest of the last 20 is a minute old). Asked before the body is read.
   */
  addressRefusedFor(address: string, now: number): number {
    const recent = this.sql.query<{ at: number }, [string, number, number]>(
      'SELECT at FROM sign_in_failures WHERE address = ?1 AND at > ?2 ORDER BY at DESC LIMIT ?3',
    ).all(address, now - ADDRESS_WINDOW_MS, ADDRESS_FAILURES)
    if (recent.length < ADDRESS_FAILURES) return 0
    return Math.max(1, Math.ceil((recent[ADDRESS_FAILURES - 1]!.at + ADDRESS_WINDOW_MS - now) / 1000))
  }

  /**
   * Counts an attempt for the lock key `key` as a failure before the secret is verified, in the
   * same write as the lock check: parallel guesses cannot all pass the check while the first is
   * verified. SignInLocked when the key is locked; else the failure's row (a success deletes it).
   */
  private async countAttempt(key: string, address: string, now: number): Promise<number> {
    const attempt = await this.write(() => {
      const lockedFor = this.lockedFor(key, now)
      if (lockedFor > 0) return { lockedFor, id: 0 }
      this.sql.query('DELETE FROM sign_in_failures WHERE at <= ?1').run(now - LOCK_WINDOW_MS)
      const id = Number(this.sql.query('INSERT INTO sign_in_failures (username, address, at) VALUES (?1, ?2, ?3)').run(key, address.slice(0, 64), now).lastInsertRowid)
      return { lockedFor: 0, id }
    })
    if (attempt.lockedFor > 0) throw new SignInLocked(attempt.lockedFor)
    return attempt.id
  }

  /** A hash of nothing, with the same cost as real ones: an unknown user costs the same verification. */
  private dummy(): Promise<string> {
    return (this.dummyHash ??= hashPassword(randomToken(16), this.cost))
  }

  /**
   * Checks a username and password. Locked (5 failures in 15 minutes): SignInLocked, even for the
   * right password. Unknown user, disabled user, no password yet or wrong password: one failure
   * counted and SignInFailed, after one Argon2 verification in every case (the same time).
   * Success: a new session (its ID returned once, only its hash kept); `replacing`, the session
   * the browser carried until now, ends.
   */
  async signIn(username: string, password: string, now: number, replacing: string | null = null, address = 'unknown'): Promise<{ user: User; sessionId: string }> {
    const name = username.trim().toLowerCase().slice(0, 64)
    const attempt = await this.countAttempt(name, address, now)
    const row = USERNAME_PATTERN.test(name) ? this.userByName(name) : null
    const usable = row !== null && row.state === 'active' && row.passwordHash !== null
    const ok = await verifyPassword(password, usable ? row.passwordHash! : await this.dummy())
    if (!usable || !ok) throw new SignInFailed()
    const sessionId = SESSION_PREFIX + randomToken(SECRET_BYTES)
    const user = userOf(row)
    const started = await this.write(() => {
      // The account may have changed while the password was verified (disabled, reset): check again.
      const current = this.sql.query<{ state: string; passwordHash: string | null }, [string]>('SELECT state, password_hash AS passwordHash FROM users WHERE id = ?1').get(user.id)
      if (current === null || current.state !== 'active' || current.passwordHash !== row.passwordHash) return false
      if (replacing !== null) this.sql.query('DELETE FROM user_sessions WHERE id_hash = ?1').run(hashSecret(replacing))
      // A success is no failure: this attempt's row goes, and the username's earlier failures with
      // it (the lock starts over); sessions past their 12 hours go too.
      this.sql.query('DELETE FROM sign_in_failures WHERE id = ?1 OR username = ?2').run(attempt, name)
      this.sql.query('DELETE FROM user_sessions WHERE created_at <= ?1').run(now - SESSION_ABSOLUTE_MS)
      this.sql.query('INSERT INTO user_sessions (id_hash, user_id, created_at, last_seen_at) VALUES (?1, ?2, ?3, ?3)').run(hashSecret(sessionId), user.id, now)
      return true
    })
    if (!started) throw new SignInFailed()
    return { user, sessionId }
  }

  // ---- the desk's PIN (contract §16) ----------------------------------------------------

  /**
   * Checks a clerk's username and PIN for a desk of `queueUnitId`. The PIN has its own lock,
   * keyed `pin:<username>` in `sign_in_failures` (no username holds a colon): 5 wrong PINs in
   * 15 minutes lock the PIN for 15 minutes (SignInLocked, even for the right PIN), and a
   * stranger guessing PINs does not lock the clerk's password. Unknown user, not an active
   * clerk, not of this unit, no PIN yet or the wrong one: one failure and SignInFailed, after
   * one Argon2 verification in every case. A success returns the clerk and what
   * `settleClerkSignIn` needs; nothing else is written yet.
   */
  async checkClerkPin(username: string, pin: string, queueUnitId: string, now: number, address = 'unknown'): Promise<ClerkPinCheck> {
    const name = username.trim().toLowerCase().slice(0, 64)
    const key = `${PIN_LOCK_PREFIX}${name}`
    const attemptId = await this.countAttempt(key, address, now)
    const row = USERNAME_PATTERN.test(name) ? this.userByName(name) : null
    const usable = row !== null && row.state === 'active' && row.role === 'clerk' && row.pinHash !== null &&
      (JSON.parse(row.queueUnits) as string[]).includes(queueUnitId)
    // A PIN is 6 digits; anything else is verified against the dummy, so it costs the same.
    const ok = await verifyPassword(pin, usable && PIN_PATTERN.test(pin) ? row.pinHash! : await this.dummy())
    if (!usable || !ok || !PIN_PATTERN.test(pin)) throw new SignInFailed()
    return { user: userOf(row), pinHash: row.pinHash!, attemptId, lockKey: key }
  }

  /**
   * Inside the caller's write, after `checkClerkPin`: true when the account is still an active
   * clerk with the same PIN (it may have been disabled or reset meanwhile); then this attempt's
   * failure and the PIN's earlier ones are deleted (the lock starts over).
   */
  settleClerkSignIn(check: ClerkPinCheck): boolean {
    const current = this.sql.query<{ state: string; pinHash: string | null }, [string]>('SELECT state, pin_hash AS pinHash FROM users WHERE id = ?1').get(check.user.id)
    if (current === null || current.state !== 'active' || current.pinHash !== check.pinHash) return false
    this.sql.query('DELETE FROM sign_in_failures WHERE id = ?1 OR username = ?2').run(check.attemptId, check.lockKey)
    return true
  }

  // ---- sessions -------------------------------------------------------------------------

  /**
   * The signed-in user of a session ID, or null: unknown, over 12 hours old, idle over 30
   * minutes (admin, manager), or its account disabled. Using a session moves its idle clock
   * (written at most once a minute).
   */
  async authenticate(sessionId: string | null, now: number): Promise<{ user: User; startedAt: number } | null> {
    if (sessionId === null || !SESSION_PATTERN.test(sessionId)) return null
    const idHash = hashSecret(sessionId)
    const row = this.sql.query<UserRow & { createdAt: number; lastSeenAt: number }, [string]>(
      `SELECT ${U_USER_COLUMNS}, s.created_at AS createdAt, s.last_seen_at AS lastSeenAt
       FROM user_sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = ?1`,
    ).get(idHash)
    if (row === null) return null
    const idleLimit = row.role === 'clerk' ? Number.POSITIVE_INFINITY : SESSION_IDLE_MS
    if (row.state !== 'active' || now - row.createdAt >= SESSION_ABSOLUTE_MS || now - row.lastSeenAt >= idleLimit) {
      await this.write(() => this.sql.query('DELETE FROM user_sessions WHERE id_hash = ?1').run(idHash))
      return null
    }
    if (now - row.lastSeenAt >= TOUCH_EVERY_MS) {
      await this.write(() => this.sql.query('UPDATE user_sessions SET last_seen_at = ?2 WHERE id_hash = ?1 AND last_seen_at < ?2').run(idHash, now))
    }
    return { user: userOf(row), startedAt: row.createdAt }
  }

  /**
   * The user of a live session, read only (nothing touched or deleted): the live views' re-check
   * of an open websocket (src/manage/), which runs synchronously beside the display hub's. A live
   * view does not count as activity: the session still ends 30 minutes after the last request.
   */
  sessionUser(sessionId: string, now: number): User | null {
    if (!SESSION_PATTERN.test(sessionId)) return null
    const row = this.sql.query<UserRow & { createdAt: number; lastSeenAt: number }, [string]>(
      `SELECT ${U_USER_COLUMNS}, s.created_at AS createdAt, s.last_seen_at AS lastSeenAt
       FROM user_sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = ?1`,
    ).get(hashSecret(sessionId))
    if (row === null) return null
    const idleLimit = row.role === 'clerk' ? Number.POSITIVE_INFINITY : SESSION_IDLE_MS
    if (row.state !== 'active' || now - row.createdAt >= SESSION_ABSOLUTE_MS || now - row.lastSeenAt >= idleLimit) return null
    return userOf(row)
  }

  /** Signing out ends every session of the user at once (contract §16). */
  async signOutEverywhere(userId: string): Promise<number> {
    return this.write(() => this.sql.query('DELETE FROM user_sessions WHERE user_id = ?1').run(userId).changes)
  }
}
