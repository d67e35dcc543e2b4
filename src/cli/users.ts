import { parseFlags, required, dbPath, printJson, oneOf, UsageError, openWritableDatabase, openExistingDatabase } from './args'
import { migrateDatabase } from '../root/migrate'
import type { Db } from '../db/open'
import { auditedCliChange } from './actor'
import { systemClock } from '../platform/clock'
import { randomIds } from '../platform/ids'
import { PeopleService, USER_ROLES, UserNotFoundError, UserSetupError } from '../people'

export const usersHelp = `lobby users add --db PATH --username U --role admin|manager|clerk [--name N] [--queue-units A,B]
lobby users list --db PATH
lobby users disable --db PATH --username U
lobby users reset --db PATH --username U

add, reset: print {"username","setupPath","expiresAt"}: open <server><setupPath> to set the
password (and a clerk's 6-digit PIN); the link works once, for 24 hours. No command prints or
takes a password. reset also ends every session of the user and clears the password and PIN.
--queue-units: a manager or a clerk needs at least one unit; an admin works in all and takes none.
list: every user with name, role, units and state; never a hash or a code.
disable: the user can no longer sign in; every session ends at once.`

export async function usersCommand(argv: string[]): Promise<number> {
  const [action, ...rest] = argv
  if (action === undefined || action === '--help' || action === '-h') {
    console.log(usersHelp)
    return action === undefined ? 2 : 0
  }
  if (!['add', 'list', 'disable', 'reset'].includes(action)) throw new UsageError(`users: unknown action "${action}" (add, list, disable, reset)`)
  const flags = parseFlags(rest, {
    db: { type: 'string' }, username: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' }, 'queue-units': { type: 'string' },
  })
  if (flags.help) {
    console.log(usersHelp)
    return 0
  }
  const given = (names: readonly string[]) => names.filter((n) => (flags as Record<string, unknown>)[n] !== undefined)
  const stray = given(action === 'add' ? [] : action === 'list' ? ['username', 'role', 'name', 'queue-units'] : ['role', 'name', 'queue-units'])
  if (stray.length > 0) throw new UsageError(`users ${action} does not take --${stray[0]}`)

  // Every change is appended to the audit log in its transaction, as the console's staff
  // section appends it (src/admin/staff-routes.ts): never the setup link's code.
  let work: (service: PeopleService, db: Db) => unknown
  if (action === 'add') {
    const username = required(flags.username, 'username')
    const role = oneOf(required(flags.role, 'role'), 'role', USER_ROLES)!
    const units = flags['queue-units']?.split(',').map((s) => s.trim()).filter(Boolean)
    if (units !== undefined && units.length === 0) throw new UsageError('--queue-units needs at least one queue-unit ID')
    work = (service, db) => auditedCliChange(db, systemClock.now(), () => {
      const link = service.addUser({
        username, role, ...(flags.name !== undefined ? { displayName: flags.name } : {}), ...(units !== undefined ? { queueUnits: units } : {}),
      }, systemClock.now())
      return { result: link, audit: [{ action: 'user.create', entity: { type: 'user', id: username }, after: service.listing(username) }] }
    })
  } else if (action === 'list') {
    work = (service) => service.listUsers()
  } else if (action === 'disable') {
    const username = required(flags.username, 'username')
    work = (service, db) => auditedCliChange(db, systemClock.now(), () => {
      const before = service.listing(username)
      const done = service.disableUser(username)
      return { result: done, audit: [{ action: 'user.disable', entity: { type: 'user', id: username }, before, after: { state: 'disabled', sessionsEnded: done.sessionsEnded } }] }
    })
  } else {
    const username = required(flags.username, 'username')
    work = (service, db) => auditedCliChange(db, systemClock.now(), () => {
      const before = service.listing(username)
      const link = service.resetUser(username, systemClock.now())
      return { result: link, audit: [{ action: 'user.reset', entity: { type: 'user', id: username }, before, after: service.listing(username) }] }
    })
  }

  // A change creates and migrates a missing database (contract §24); a listing needs one that exists.
  const db = action === 'list' ? openExistingDatabase(dbPath(flags.db)) : openWritableDatabase(dbPath(flags.db))
  try {
    if (action === 'list') migrateDatabase(db.$client)
    printJson(work(new PeopleService({ db, clock: systemClock, ids: randomIds }), db))
  } catch (error) {
    if (error instanceof UserSetupError || error instanceof UserNotFoundError) throw new UsageError(error.message)
    throw error
  } finally {
    db.$client.close()
  }
  return 0
}
