import commonList from './common-passwords.txt' with { type: 'text' }

/** Contract §16: at least 10 characters (code points), never one of the 10,000 most common. */
export const MIN_PASSWORD_LENGTH = 10
/** Passwords longer than this are refused (Argon2 takes any length; a bound keeps requests small). */
export const MAX_PASSWORD_LENGTH = 256
export const PIN_PATTERN = /^\d{6}$/

/**
 * SecLists' 10k-most-common.txt (MIT, see common-passwords.LICENSE), embedded in the binary.
 * Compared lowercased: "Password1" is as guessable as "password1".
 */
let common: Set<string> | null = null
function commonPasswords(): Set<string> {
  return (common ??= new Set(commonList.split('\n').map((line) => line.trim().toLowerCase()).filter((line) => line !== '')))
}

export type PasswordProblem = 'too-short' | 'too-common' | 'too-long'

/** What is wrong with `password` under the rules, or null. */
export function passwordProblem(password: string): PasswordProblem | null {
  const length = [...password].length
  if (length < MIN_PASSWORD_LENGTH) return 'too-short'
  if (length > MAX_PASSWORD_LENGTH) return 'too-long'
  if (commonPasswords().has(password.trim().toLowerCase())) return 'too-common'
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
