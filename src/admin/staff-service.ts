import type { DetailParams, DetailRule } from '../platform/detail-rules'
import { UserNotFoundError, UserSetupError, type PeopleService, type SetupLink, type UserChange } from '../people'

/*
 * The console's staff section over `PeopleService` (the service `lobby users` uses): the same
 * rules, said in the console's words — which field a refusal is about, and a taken username
 * told apart from a bad request. Free of HTTP.
 */

export type StaffRefusal =
  | { kind: 'exists'; message: string }
  | { kind: 'not-found'; message: string }
  | { kind: 'invalid'; message: string; field: string; rule: DetailRule; params?: DetailParams }

export class StaffRefused extends Error {
  constructor(public readonly refusal: StaffRefusal) {
    super(refusal.message)
  }
}

/**
 * The rule a `PeopleService` refusal breaks (contract §24: the console says it in words). The
 * service is the CLI's too and words its refusals for a terminal; this reads them here, in one
 * place, and test/admin/error-words.test.ts drives each through the API, so a reworded or new
 * refusal shows up there as a rule not recognised.
 */
function ruleOfSetup(message: string): { rule: DetailRule; params?: DetailParams } {
  const role = /^--role must be one of (.+)$/.exec(message)
  if (role !== null) return { rule: 'oneOf', params: { allowed: role[1]!.split(', ') } }
  const name = /^--name must be 1 to (\d+) characters/.exec(message)
  if (name !== null) return { rule: 'plainText', params: { max: Number(name[1]) } }
  if (/^--username must be/.test(message)) return { rule: 'format', params: { format: 'username' } }
  if (/is not a queue-unit ID/.test(message)) return { rule: 'format', params: { format: 'id' } }
  if (/^an admin works in every queue unit/.test(message)) return { rule: 'adminNoUnits' }
  if (/^a manager or a clerk needs at least one queue unit/.test(message)) return { rule: 'minItems', params: { min: 1 } }
  if (/^no queue unit/.test(message)) return { rule: 'unknownReference', params: { kind: 'queueUnit' } }
  return { rule: 'invalid' }
}

const FIELD_OF_FLAG: Record<string, string> = { username: 'username', role: 'role', name: 'displayName', 'queue-units': 'queueUnits' }

/** Runs a `PeopleService` call, turning its errors into `StaffRefused`. */
function refusing<T>(work: () => T): T {
  try {
    return work()
  } catch (error) {
    if (error instanceof UserNotFoundError) throw new StaffRefused({ kind: 'not-found', message: error.message.replace(/ \(see lobby users list\)$/, '') })
    if (error instanceof UserSetupError) {
      const message = error.message.replace(/ \(see lobby users list\)$/, '').replace(/--([a-z-]+)/g, (_, f: string) => FIELD_OF_FLAG[f] ?? f)
      if (/already named/.test(error.message)) throw new StaffRefused({ kind: 'exists', message })
      const flag = /--([a-z-]+)/.exec(error.message)?.[1]
      throw new StaffRefused({ kind: 'invalid', message, field: flag !== undefined ? (FIELD_OF_FLAG[flag] ?? flag) : /queue unit/.test(error.message) ? 'queueUnits' : 'role', ...ruleOfSetup(error.message) })
    }
    throw error
  }
}

export class AdminStaff {
  constructor(private readonly people: PeopleService) {}

  list() {
    return this.people.listUsers()
  }

  add(request: Parameters<PeopleService['addUser']>[0], now: number): { link: SetupLink; after: ReturnType<PeopleService['listing']> } {
    return refusing(() => {
      const link = this.people.addUser(request, now)
      return { link, after: this.people.listing(request.username) }
    })
  }

  change(username: string, change: UserChange) {
    return refusing(() => this.people.changeUser(username, change))
  }

  disable(username: string) {
    return refusing(() => {
      const before = this.people.listing(username)
      return { before, result: this.people.disableUser(username) }
    })
  }

  reset(username: string, now: number) {
    return refusing(() => {
      const before = this.people.listing(username)
      const link = this.people.resetUser(username, now)
      return { before, link, after: this.people.listing(username) }
    })
  }
}
