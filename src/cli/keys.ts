import { parseFlags, required, dbPath, printJson, integerFlag, oneOf, UsageError, openWritableDatabase, openExistingDatabase } from './args'
import { migrateDatabase } from '../root/migrate'
import { listKeys, rotateKey, revokeKey, KeyNotFoundError, CREDENTIAL_KINDS } from '../structure'
import { randomIds } from '../platform/ids'
import { auditedCliChange } from './actor'

export const keysHelp = `lobby keys list --db PATH
lobby keys rotate --db PATH --kind K --owner ID --name NAME [--grace SECONDS]
lobby keys revoke --db PATH --kind K --owner ID --name NAME

K is workspace, queue, display or webhook. The owner is the workspace ID (workspace keys,
display tokens), the queue unit ID (queue keys) or the webhook ID (webhook secrets, whose
name is the webhook ID too).
list: every credential with kind, owner, name, state, created, last used; never a secret.
rotate: prints the new secret once; the old one keeps working for --grace seconds (default 0).
revoke: the credential stops working at once.
A running server sees every change within 250 ms (in practice 5 ms).`

export async function keysCommand(argv: string[]): Promise<number> {
  const [action, ...rest] = argv
  if (action === undefined || action === '--help' || action === '-h') {
    console.log(keysHelp)
    return action === undefined ? 2 : 0
  }
  if (!['list', 'rotate', 'revoke'].includes(action)) throw new UsageError(`keys: unknown action "${action}" (list, rotate, revoke)`)
  const flags = parseFlags(rest, {
    db: { type: 'string' }, kind: { type: 'string' }, owner: { type: 'string' }, name: { type: 'string' }, grace: { type: 'string' },
  })
  if (flags.help) {
    console.log(keysHelp)
    return 0
  }
  if (action === 'list') {
    const db = openExistingDatabase(dbPath(flags.db))
    try {
      migrateDatabase(db.$client)
      printJson(listKeys(db, Date.now()))
    } finally {
      db.$client.close()
    }
    return 0
  }
  const kind = oneOf(required(flags.kind, 'kind'), 'kind', CREDENTIAL_KINDS)!
  const owner = required(flags.owner, 'owner')
  const name = required(flags.name, 'name')
  const grace = action === 'rotate' ? integerFlag(flags.grace, 'grace', 0, 365 * 86_400) ?? 0 : 0
  if (action === 'revoke' && flags.grace !== undefined) throw new UsageError('--grace applies to rotate only')
  const db = openWritableDatabase(dbPath(flags.db))
  try {
    const now = Date.now()
    // The console's entries for the same change (src/admin/keys-routes.ts): never the secret or its hash.
    const entity = { type: 'key', id: `${kind}/${owner}/${name}` }
    printJson(auditedCliChange<object>(db, now, () => {
      if (action === 'rotate') {
        const done = rotateKey(db, randomIds, kind, owner, name, grace, now)
        return { result: done, audit: [{ action: 'key.rotate', entity, after: { graceSeconds: grace, previousWorksUntil: done.previousWorksUntil } }] }
      }
      const done = revokeKey(db, kind, owner, name, now)
      return { result: done, audit: [{ action: 'key.revoke', entity, after: { revoked: done.revoked } }] }
    }))
  } catch (error) {
    if (error instanceof KeyNotFoundError) throw new UsageError(error.message)
    throw error
  } finally {
    db.$client.close()
  }
  return 0
}
