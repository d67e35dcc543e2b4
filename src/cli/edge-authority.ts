import { parseFlags, required, dbPath, printJson, integerFlag, UsageError, openWritableDatabase } from './args'
import { auditedCliChange } from './actor'
import {
  takeEdgeAuthority,
  releaseEdgeAuthority,
  EdgeAuthorityError,
  MAX_EDGE_TTL_SECONDS,
  type EdgeAuthorityState,
} from '../queue'

export const edgeAuthorityHelp = `lobby edge-authority --db PATH --queue-unit ID (--holder NAME [--ttl SECONDS] | --release)

An Edge at the branch takes or releases Queue authority over a Queue Unit. While an Edge
holds it, ticket issue (and every queue change) is refused with 409 QUEUE_UNIT_EDGE_MANAGED.
--holder NAME   take authority as NAME (1 to 200 characters); the same holder may renew
--ttl SECONDS   the lease ends on its own after SECONDS (1 to ${MAX_EDGE_TTL_SECONDS}); without it, until released
--release       give authority back (not an error when nobody holds it)
Another holder's lease in force must be released first. Prints JSON
{"queueUnitId","edgeManaged","holder","expiresAt","previousHolder"}. A running server sees
the change on its next request (ticket issue and every queue change read it fresh).`

/** The command's whole effect, callable from tests without a process. */
export function runEdgeAuthority(
  argv: string[],
  now: number = Date.now(),
): { help: string } | EdgeAuthorityState {
  const flags = parseFlags(argv, {
    db: { type: 'string' }, 'queue-unit': { type: 'string' }, holder: { type: 'string' }, ttl: { type: 'string' }, release: { type: 'boolean' },
  })
  if (flags.help) return { help: edgeAuthorityHelp }
  const queueUnitId = required(flags['queue-unit'], 'queue-unit')
  if (flags.release && flags.holder !== undefined) throw new UsageError('give either --holder or --release, not both')
  if (!flags.release && flags.holder === undefined) throw new UsageError('give --holder NAME to take authority or --release to give it back')
  if (flags.release && flags.ttl !== undefined) throw new UsageError('--ttl applies to --holder only')
  const ttl = integerFlag(flags.ttl, 'ttl', 1, MAX_EDGE_TTL_SECONDS) ?? null
  const holder = flags.release ? null : required(flags.holder, 'holder')

  const db = openWritableDatabase(dbPath(flags.db))
  try {
    // `queueUnit.edge-take` / `queueUnit.edge-release` on the unit (its `queueUnitId` in the
    // snapshots, so the unit's managers see it in the console's log), in the change's transaction.
    return auditedCliChange(db, now, () => {
      const before = db.$client.query<{ holder: string | null; expiresAt: number | null }, [string]>('SELECT edge_holder AS holder, edge_expires_at AS expiresAt FROM queue_units WHERE id = ?1').get(queueUnitId)
      const state = holder === null ? releaseEdgeAuthority(db, queueUnitId, now) : takeEdgeAuthority(db, queueUnitId, holder, ttl, now)
      const lease = (h: string | null, at: number | string | null) => ({ queueUnitId, holder: h, expiresAt: at === null ? null : new Date(at).toISOString() })
      const was = before === null ? null : lease(before.holder, before.expiresAt)
      const afterLease = lease(state.holder, state.expiresAt)
      // A release when nobody held it changes nothing: no entry.
      if (JSON.stringify(was) === JSON.stringify(afterLease)) return { result: state, audit: [] }
      return {
        result: state,
        audit: [{
          action: holder === null ? 'queueUnit.edge-release' : 'queueUnit.edge-take', entity: { type: 'queueUnit', id: queueUnitId },
          before: was, after: afterLease,
        }],
      }
    })
  } catch (error) {
    if (error instanceof EdgeAuthorityError) throw new UsageError(error.message)
    throw error
  } finally {
    db.$client.close()
  }
}

export async function edgeAuthorityCommand(argv: string[]): Promise<number> {
  const result = runEdgeAuthority(argv)
  if ('help' in result) console.log(result.help)
  else printJson(result)
  return 0
}
