import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { ensureBinary, startBinary } from '../support/binary'
import {
  HOST, IDS, QUEUE, announcementsPush, duplicateTicketNumbers, integrityCheck, issueTicket, provisionBranch, pushWidget, scenario,
  ticketBody, withDb,
} from './support'

const s = scenario(
  'backup',
  '`lobby backup --db PATH --out FILE` while the server issues tickets and accepts widget pushes: the copy passes ' +
    '`PRAGMA integrity_check` and holds every ticket (with its number) and every snapshot revision acknowledged before the ' +
    'backup began; restored (the server started on the copy) it serves those tickets and numbers new ones without a duplicate.',
)

const LOOPS = 4

interface Ack {
  at: number
  id: string
  number: string
}

describe('backup: a consistent online copy under load', () => {
  s.test(`backup while ${LOOPS} ticket loops and a push loop run: the copy holds everything acknowledged before it began`, async () => {
    const branch = provisionBranch()
    const server = await branch.serve()
    const acks: Ack[] = []
    const pushAcks: { at: number; revision: number }[] = []
    const problems: string[] = []
    let sent = 0
    let stop = false

    const ticketLoop = async (n: number) => {
      for (let i = 0; !stop; i++) {
        sent++
        const res = await issueTicket(server.url, branch.secrets.queue.main, `backup-${n}-${i}-${randomUUID()}`, ticketBody(IDS.hall, n % 2 ? IDS.accounts : IDS.loans))
        const text = await res.text()
        if (res.status !== 201) problems.push(`${res.status} ${text.slice(0, 120)}`)
        else {
          const ticket = JSON.parse(text).data
          acks.push({ at: performance.now(), id: ticket.id, number: ticket.ticketNumber })
        }
      }
    }
    const pushLoop = async () => {
      for (let sequence = 1; !stop; sequence++) {
        sent++
        const res = await pushWidget(server.url, branch.secrets.workspace.cms, IDS.lobbyWidget, `backup-push-${sequence}`, announcementsPush(sequence, 'backup'))
        const text = await res.text()
        if (res.status !== 200) problems.push(`push ${res.status} ${text.slice(0, 120)}`)
        else pushAcks.push({ at: performance.now(), revision: JSON.parse(text).dataRevision })
      }
    }
    const loops = [...Array.from({ length: LOOPS }, (_, n) => ticketLoop(n)), pushLoop()]

    await Bun.sleep(1_000)
    const out = join(branch.dir, 'copy.db')
    const backupStart = performance.now()
    const ackedBefore = acks.filter((a) => a.at < backupStart)
    const revisionBefore = Math.max(0, ...pushAcks.filter((p) => p.at < backupStart).map((p) => p.revision))
    const backup = Bun.spawn([ensureBinary(), 'backup', '--db', branch.db, '--out', out], { stdout: 'pipe', stderr: 'pipe' })
    const [code, stdout, stderr] = await Promise.all([backup.exited, new Response(backup.stdout).text(), new Response(backup.stderr).text()])
    const backupMs = performance.now() - backupStart
    const acksDuringBackup = acks.filter((a) => a.at >= backupStart && a.at <= backupStart + backupMs).length
    await Bun.sleep(300)
    stop = true
    await Promise.all(loops)
    expect(await server.stop('SIGTERM')).toBe(0)

    s.set('requests sent', sent)
    s.set('tickets acknowledged before the backup began', ackedBefore.length)
    s.set('tickets acknowledged while it ran', acksDuringBackup)
    s.set('backup time (ms)', Math.round(backupMs))
    expect(problems).toEqual([])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    const report = JSON.parse(stdout)
    expect(report).toMatchObject({ out, integrity: 'ok' })
    expect(ackedBefore.length).toBeGreaterThan(50)

    // The copy opens, is intact and holds everything acknowledged before the backup began.
    expect(integrityCheck(out)).toBe('ok')
    const copied = withDb(out, (db) => new Map((db.query('SELECT id, ticket_number FROM tickets').all() as { id: string; ticket_number: string }[]).map((r) => [r.id, r.ticket_number])))
    expect(report.tickets).toBe(copied.size)
    const missing = ackedBefore.filter((a) => copied.get(a.id) !== a.number)
    s.set('records lost', missing.length)
    expect(missing.map((a) => `${a.id} ${a.number}`)).toEqual([])
    const copiedRevision = withDb(out, (db) => (db.query('SELECT data_revision FROM widget_snapshots WHERE widget_id = ?').get(IDS.lobbyWidget) as { data_revision: number } | null)?.data_revision ?? 0)
    expect(copiedRevision).toBeGreaterThanOrEqual(revisionBefore)
    expect(duplicateTicketNumbers(out)).toEqual([])

    // Restore: serve the copy; the tickets are there and new numbers do not repeat old ones.
    const restored = await startBinary(['serve', '--port', '0', '--host', HOST, '--db', out])
    try {
      const sample = ackedBefore[ackedBefore.length - 1]!
      const read = await fetch(`${restored.url}${QUEUE}/tickets/${sample.id}`, { headers: { authorization: `Bearer ${branch.secrets.queue.main}` } })
      expect(read.status).toBe(200)
      expect(((await read.json()) as any).data.ticketNumber).toBe(sample.number)
      for (let i = 0; i < 20; i++) {
        const res = await issueTicket(restored.url, branch.secrets.queue.main, `backup-restored-${i}-${randomUUID()}`, ticketBody(IDS.hall, IDS.accounts))
        expect(res.status).toBe(201)
        await res.text()
      }
      expect(duplicateTicketNumbers(out)).toEqual([])
    } finally {
      expect(await restored.stop('SIGTERM')).toBe(0)
    }
    expect(integrityCheck(out)).toBe('ok')
  }, 60_000)
})
