import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { startBinary, type RunningBinary } from '../support/binary'
import { tempDir } from '../support/cli'
import { exampleDocument } from '../support/fixtures'
import { freshNonce } from '../queue/helpers'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { applyProvisioning } from '../../src/provisioning/service'
import { smtpServer } from './servers'

/*
 * Contract §25 "survives restarts and kill -9", against dist/lobby: a ticket's call commits its
 * SMS and e-mail; the SMS gateway holds the first request open and the binary is killed with
 * SIGKILL before it could mark the message sent. Started again on the same database, it sends
 * the message again with the same messageId, and the gateway takes exactly one.
 */

const running: RunningBinary[] = []
const stops: (() => unknown)[] = []
afterAll(async () => {
  for (const server of running) if (server.proc.exitCode === null && server.proc.signalCode === null) await server.stop('SIGKILL')
  for (const stop of stops) await stop()
})

/** Resolves once `check` holds, polling every 20 ms for at most `ms`. */
async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(20)
  }
}

describe('kill -9 between commit and send', () => {
  test('the SMS committed with the call is delivered once after a restart, under the same messageId', async () => {
    // The gateway: the first request is held open (never answered); later ones are taken.
    const requests: { reference: string; accepted: boolean }[] = []
    let holding = true
    const gateway = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      async fetch(req) {
        const body = JSON.parse(await req.text()) as { reference: string }
        if (holding) {
          holding = false
          requests.push({ reference: body.reference, accepted: false })
          return await new Promise<Response>(() => {})
        }
        requests.push({ reference: body.reference, accepted: true })
        return new Response(null, { status: 202 })
      },
    })
    stops.push(() => gateway.stop(true))
    const smtp = await smtpServer()
    stops.push(smtp.stop)

    const dir = tempDir()
    const path = join(dir, 'lobby.db')
    const doc = exampleDocument()
    doc.workspaces[0]!.notifications = {
      country: 'GB',
      sms: { url: `http://127.0.0.1:${gateway.port}/sms`, headers: { 'content-type': 'application/json' }, body: '{"to":"{to}","text":"{text}","reference":"{messageId}"}' },
      email: { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'lobby@branch.example' },
    }
    const db = openDatabase(path)
    migrateDatabase(db.$client)
    const { secrets } = applyProvisioning(db, doc, Date.now())
    db.$client.close()
    const key = (name: string) => secrets.find((s) => s.kind === 'queue' && s.name === name)!.secret
    const args = ['serve', '--port', '0', '--host', '127.0.0.1', '--db', path, '--durability', 'full']

    const first = await startBinary(args)
    running.push(first)
    // A walk-in through the operator API: its answer carries the phone page's link.
    const issued = await fetch(`${first.url}/api/operator/v1/tickets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key('operator')}`, 'content-type': 'application/json', 'x-request-timestamp': new Date().toISOString(), 'x-request-nonce': freshNonce(), 'idempotency-key': `crash-${freshNonce()}` },
      body: JSON.stringify({ locationId: 'loc_hall', serviceId: 'svc_accounts' }),
    })
    expect(issued.status).toBe(201)
    const ticket = ((await issued.json()) as { data: { id: string; trackingUrl: string } }).data
    const code = ticket.trackingUrl.slice('/t/'.length)
    for (const contact of [{ channel: 'sms', to: '07400 123459' }, { channel: 'email', to: 'crash@example.com' }]) {
      const res = await fetch(`${first.url}/api/phone/v1/tickets/${code}/notify`, { method: 'POST', headers: { origin: first.url, 'content-type': 'application/json' }, body: JSON.stringify(contact) })
      expect(res.status).toBe(201)
    }
    // Contract §27: call-next needs an open counter.
    const opened = await fetch(`${first.url}/api/operator/v1/counters/cnt_1/open`, { method: 'POST', headers: { authorization: `Bearer ${key('operator')}` } })
    expect(opened.status).toBe(200)
    const called = await fetch(`${first.url}/api/operator/v1/counters/cnt_1/call-next`, { method: 'POST', headers: { authorization: `Bearer ${key('operator')}` } })
    expect(called.status).toBe(200)

    // The SMS is at the gateway, unanswered: kill the binary now.
    await until(() => requests.length === 1, 'the first SMS attempt')
    first.proc.kill('SIGKILL')
    await first.proc.exited
    expect(first.proc.signalCode).toBe('SIGKILL')

    const second = await startBinary(args)
    running.push(second)
    await until(() => requests.some((r) => r.accepted), 'the SMS after the restart')
    await until(() => smtp.mails.length >= 1, 'the e-mail')
    expect(await second.stop()).toBe(0)

    expect(requests.filter((r) => r.accepted)).toHaveLength(1)
    expect(new Set(requests.map((r) => r.reference)).size).toBe(1)
    // The e-mail left through nodemailer inside the compiled binary; a resend after the kill keeps its Message-ID.
    expect(new Set(smtp.mails.map((m) => /^Message-ID: (.+)$/im.exec(m.raw)?.[1])).size).toBe(1)
    expect(smtp.mails[0]!.to).toEqual(['crash@example.com'])
    const after = openDatabase(path)
    const rows = after.$client.query<{ channel: string; status: string; id: string }, []>('SELECT channel, status, id FROM notification_messages ORDER BY channel').all()
    after.$client.close()
    expect(rows.map((r) => [r.channel, r.status])).toEqual([['email', 'SENT'], ['sms', 'SENT']])
    expect(rows.find((r) => r.channel === 'sms')!.id).toBe(requests[0]!.reference)
    // Nothing personal in what the binary logged.
    const log = [...first.lines, ...second.lines].join('\n')
    for (const personal of ['7400123459', '07400 123459', 'crash@example.com']) expect(log).not.toContain(personal)
  }, 600_000)
})
