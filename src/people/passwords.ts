import commonList from './common-passwords.txt' with { type: 'text' }

/** Contract §16: at least 10 characters (code points). */
export const MIN_PASSWORD_LENGTH = 10
/** Passwords longer than this are refused (Argon2 takes any length; a bound keeps requests small). */
export const MAX_PASSWORD_LENGTH = 256
export const PIN_PATTERN = /^\d{6}$/
/** A username or workspace name shorter than this is not looked for inside a password ("al" is in too many words). */
export const MIN_CONTAINED_NAME_LENGTH = 3

/**
 * Contract §27: the 100,000 most used passwords (SecLists' copy of the NCSC's list, MIT: see
 * common-passwords.LICENSE), only those of 10 or more characters (a shorter one is refused as
 * too short anyway), lowercased: "Basketball" is as guessable as "basketball". ~120 KB
 * embedded in the binary as text; the set is built on the first check, not at start.
 */
let common: Set<string> | null = null
function commonPasswords(): Set<string> {
  return (common ??= new Set(commonList.split('\n').filter((line) => line !== '')))
}

/**
 * Runs (contract §27: "abcdefghij", "1234567890"): a password that is, lowercased, a stretch
 * of one of these, forwards or backwards. Digits go round (…7890123…), as on the keyboard's
 * number row; the keyboard's letter rows count too ("qwertyuiop").
 */
const RUNS = [
  'abcdefghijklmnopqrstuvwxyz',
  '0123456789'.repeat(Math.ceil(MAX_PASSWORD_LENGTH / 10) + 1),
  '`1234567890-=',
  'qwertyuiop[]\\',
  'asdfghjkl;\'',
  'zxcvbnm,./',
].flatMap((run) => [run, [...run].reverse().join('')])

export type PasswordProblem =
  | 'too-short' | 'too-long' | 'repeated' | 'sequence' | 'contains-username' | 'contains-workspace' | 'too-common'

/** What a password must not contain: the account's username and the workspaces' names. */
export interface PasswordContext {
  username: string
  workspaceNames: readonly string[]
}

/** `name` lowercased, and without its spaces ("Al Noor Bank" → "alnoorbank"), each when long enough to look for. */
function namesToLookFor(name: string): string[] {
  const lower = name.trim().toLowerCase()
  return [...new Set([lower, lower.replace(/\s+/g, '')])].filter((n) => [...n].length >= MIN_CONTAINED_NAME_LENGTH)
}

/**
 * What is wrong with `password` under the rules (contract §16, §27; NIST SP 800-63B), the
 * first that applies, or null: too short or too long, one repeated character, a run, the
 * username inside it, a workspace's name inside it, among the most common. Case never matters.
 */
export function passwordProblem(password: string, context: PasswordContext): PasswordProblem | null {
  const chars = [...password]
  if (chars.length < MIN_PASSWORD_LENGTH) return 'too-short'
  if (chars.length > MAX_PASSWORD_LENGTH) return 'too-long'
  const lower = password.toLowerCase()
  if (new Set(lower).size === 1) return 'repeated'
  if (RUNS.some((run) => run.includes(lower))) return 'sequence'
  if (namesToLookFor(context.username).some((name) => lower.includes(name))) return 'contains-username'
  if (context.workspaceNames.some((workspace) => namesToLookFor(workspace).some((name) => lower.includes(name)))) return 'contains-workspace'
  if (commonPasswords().has(lower.trim())) return 'too-common'
  return null
}

/** How the hashes are made: Argon2id, OWASP's minimum (19 MiB, 2 passes); tests pass a cheaper cost. */
export interface PasswordCost {
  memoryCost: number
  timeCost: number
}
export const DEFAULT_PASSWORD_COST: PasswordCost = { memoryCost: 19_456, timeCost: 2 }

export function hashPassword(password: string, cost: PasswordCost): Promise<string> {
  return Bun.password.hash(password, { algorithm: 'argon2id', memoryCost: cost.memoryCost, timeCost: cost.timeCost })
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  try {
    return await Bun.password.verify(password, hash)
  } catch {
    return false
  }
}
