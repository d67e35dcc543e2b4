import { parseFlags, required, dbPath, printJson, UsageError, openWritableDatabase } from './args'
import { listDeliveries, readDelivery, redeliver, redeliverFailed } from '../webhooks'
import { auditedCliChange } from './actor'

export const webhooksHelp = `lobby webhooks deliveries --db PATH [--failed]
lobby webhooks redeliver --db PATH --id ID
lobby webhooks redeliver --db PATH --failed

deliveries: the newest 1000 webhook deliveries (or only the failed ones) as JSON.
redeliver: queue one delivery again (--id), or every failed one (--failed); a running server
sends them within a second, each ticket's events still in order.`

export async function webhooksCommand(argv: string[]): Promise<number> {
  const [action, ...rest] = argv
  if (action === undefined || action === '--help' || action === '-h') {
    console.log(webhooksHelp)
    return action === undefined ? 2 : 0
  }
  if (action !== 'deliveries' && action !== 'redeliver') throw new UsageError(`webhooks: unknown action "${action}" (deliveries, redeliver)`)
  const flags = parseFlags(rest, { db: { type: 'string' }, failed: { type: 'boolean' }, id: { type: 'string' } })
  if (flags.help) {
    console.log(webhooksHelp)
    return 0
  }
  if (action === 'redeliver' && flags.failed && flags.id !== undefined) throw new UsageError('redeliver takes --id or --failed, not both')
  const id = action === 'redeliver' && !flags.failed ? required(flags.id, 'id') : undefined
  const db = openWritableDatabase(dbPath(flags.db))
  try {
    if (action === 'deliveries') {
      printJson(listDeliveries(db, { failedOnly: flags.failed === true }))
    } else {
      // One `webhook.redeliver` entry per delivery queued again, as the console writes it
      // (src/admin/webhooks-routes.ts), in the redelivery's transaction.
      const now = Date.now()
      const entry = (d: { id: string; status: string; attempts: number }) => ({
        action: 'webhook.redeliver', entity: { type: 'webhook-delivery', id: d.id }, before: { status: d.status, attempts: d.attempts }, after: { status: 'PENDING' },
      })
      if (flags.failed) {
        printJson({ redelivered: auditedCliChange(db, now, () => {
          const failed = db.$client.query<{ id: string; status: string; attempts: number }, []>("SELECT id, status, attempts FROM webhook_deliveries WHERE status = 'FAILED' ORDER BY id").all()
          return { result: redeliverFailed(db, now), audit: failed.map(entry) }
        }) })
      } else {
        auditedCliChange(db, now, () => {
          const before = readDelivery(db, id!)
          if (before === null || !redeliver(db, id!, now)) throw new UsageError(`no delivery with id ${id}`)
          return { result: null, audit: [entry(before)] }
        })
        printJson({ redelivered: id })
      }
    }
  } finally {
    db.$client.close()
  }
  return 0
}
