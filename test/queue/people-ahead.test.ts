import { describe, expect, test } from 'bun:test'
import { request, jsonOf } from '../support/app'
import { callNext, ok, op } from '../counters/helpers'
import { mainUnit } from './helpers'
import { issuedAtKiosk, kioskContext, KIOSK, type KioskContext } from '../kiosk/helpers'
import { asDevice } from '../devices/helpers'
import { joinGet } from '../join/helpers'
import { queueDisplayState } from '../../src/tickets/display-state'
import { waitVerdict } from '../../src/screens/shared/wait-verdict'
import type { ProvisioningFile } from '../../src/provisioning/model'

/*
 * Contract §28: the people-ahead count is the same number on every surface (join list, kiosk,
 * phone, print, board) at the same revision, and the words come from one verdict (issue 48).
 */

/** The page's text as read: escaped apostrophes put back, so a missing "You're next" is really missing. */
const unescaped = (html: string) => html.replace(/&#39;/g, "'").replace(/&amp;/g, '&')

const revision = (ctx: KioskContext) => (ctx.db.$client.query("SELECT state_revision AS r FROM queue_units WHERE id = 'qu_main'").get() as { r: number }).r

/** A new ticket's people ahead of `serviceId` at loc_hall on the join list, the board and the kiosk's start screen, at one revision. */
async function forNew(ctx: KioskContext, serviceId: string) {
  const at = revision(ctx)
  const html = await (await joinGet(ctx)).text()
  const item = new RegExp(`<li class="service" data-service-id="${serviceId}"[^]*?</li>`).exec(html)![0]
  const join = /<span class="waiting">([^<]*)<\/span>/.exec(item)![1]!
  const board = queueDisplayState(ctx.deps, 'qu_main', 'ws_demo')!.services.find((s) => s.id === serviceId && s.locationId === 'loc_hall')!
  const kiosk = ((await jsonOf(await asDevice(ctx, ctx.kiosk, 'GET', KIOSK))).data.services as { id: string; peopleAhead: number; waiting: number }[]).find((s) => s.id === serviceId)!
  expect(revision(ctx)).toBe(at)
  return { join, board: board.peopleAhead, boardWaiting: board.waiting, kiosk: kiosk.peopleAhead, kioskWaiting: kiosk.waiting, verdict: waitVerdict(board), item: unescaped(item) }
}

/** A ticket's people ahead on the kiosk's ticket (as issued), its phone page and its print page, at one revision. */
async function forTicket(ctx: KioskContext, ticket: { ticket: { trackingUrl: string }; printPath: string; peopleAhead: number }) {
  const at = revision(ctx)
  const phone = (await jsonOf(await request(ctx.app, 'GET', `/api/phone/v1/tickets/${ticket.ticket.trackingUrl.slice('/t/'.length)}`))).data
  const print = await (await request(ctx.app, 'GET', ticket.printPath, { headers: { cookie: ctx.kiosk } })).text()
  expect(revision(ctx)).toBe(at)
  const printed = /<dd class="ahead">([^<]*)<\/dd>/.exec(print)?.[1] ?? null
  return { kiosk: ticket.peopleAhead, phone: phone.peopleAhead as number, print: printed === null ? null : Number(printed), phoneVerdict: waitVerdict(phone), printHtml: unescaped(print) }
}

const joinable = (doc: ProvisioningFile) => {
  mainUnit(doc).locations![0]!.remoteJoin = { enabled: true }
}

describe('people ahead: one number on every surface (contract §28)', () => {
  test('R001: a counter shared by Accounts and Loans is serving, and older Accounts tickets wait — the Loans ticket has nobody ahead in its line, and is not "You\'re next"', async () => {
    const ctx = await kioskContext({ edit: joinable })
    // Only cnt_1 (Accounts and Loans) is open; it serves an Accounts ticket, two more wait.
    await ok(op(ctx, 'POST', '/counters/cnt_1/open'))
    for (let i = 0; i < 3; i++) await issuedAtKiosk(ctx, 'svc_accounts')
    await ok(callNext(ctx, 'cnt_1'))

    const before = await forNew(ctx, 'svc_loans')
    expect({ join: before.join, board: before.board, kiosk: before.kiosk }).toEqual({ join: 'Nobody waiting', board: 0, kiosk: 0 })
    expect(before.verdict.kind).toBe('wait')
    expect(before.item).not.toContain("You're next")
    const accounts = await forNew(ctx, 'svc_accounts')
    expect({ join: accounts.join, board: accounts.board, kiosk: accounts.kiosk }).toEqual({ join: '2 waiting', board: 2, kiosk: 2 })
    expect([accounts.boardWaiting, accounts.kioskWaiting]).toEqual([2, 2])

    const loan = await issuedAtKiosk(ctx, 'svc_loans')
    const place = await forTicket(ctx, loan)
    expect({ kiosk: place.kiosk, phone: place.phone, print: place.print }).toEqual({ kiosk: 0, phone: 0, print: 0 })
    // The shared counter is busy and gives the older Accounts tickets their turns first: minutes, never "You're next".
    expect(place.phoneVerdict).toMatchObject({ kind: 'wait', ahead: 0 })
    expect(loan.counterFree).toBe(false)
    expect(place.printHtml).not.toContain("You're next")
    // The next Loans ticket would have this one ahead, on every list alike.
    const after = await forNew(ctx, 'svc_loans')
    expect({ join: after.join, board: after.board, kiosk: after.kiosk }).toEqual({ join: '1 waiting', board: 1, kiosk: 1 })
  })

  test('C001: no counter of the service is open and nobody is ahead — "about N min" and "No counter is open right now", never "You\'re next"', async () => {
    const ctx = await kioskContext({ edit: joinable })
    const before = await forNew(ctx, 'svc_accounts')
    expect({ join: before.join, board: before.board, kiosk: before.kiosk }).toEqual({ join: 'Nobody waiting', board: 0, kiosk: 0 })
    expect(before.verdict).toEqual({ kind: 'noCounter', ahead: 0, minutes: 5 })
    expect(before.item).toContain('No counter is open right now')
    expect(before.item).toContain('about 5 min')
    expect(before.item).not.toContain("You're next")

    const ticket = await issuedAtKiosk(ctx, 'svc_accounts')
    const place = await forTicket(ctx, ticket)
    expect({ kiosk: place.kiosk, phone: place.phone, print: place.print }).toEqual({ kiosk: 0, phone: 0, print: 0 })
    expect(place.phoneVerdict).toEqual({ kind: 'noCounter', ahead: 0, minutes: 5 })
    expect(place.printHtml).toContain('No counter is open right now')
    expect(place.printHtml).not.toContain("You're next")
  })

  test('a free counter and nobody ahead: "You\'re next" alone on the list, and the ticket\'s print page shows no count or minutes beside it', async () => {
    const ctx = await kioskContext({ edit: joinable })
    await ok(op(ctx, 'POST', '/counters/cnt_2/open'))
    const before = await forNew(ctx, 'svc_accounts')
    expect(before.verdict).toEqual({ kind: 'next' })
    expect(before.item).toContain("You're next")
    expect(before.item).not.toContain('min')
    const ticket = await issuedAtKiosk(ctx, 'svc_accounts')
    const place = await forTicket(ctx, ticket)
    expect({ kiosk: place.kiosk, phone: place.phone }).toEqual({ kiosk: 0, phone: 0 })
    expect(place.phoneVerdict).toEqual({ kind: 'next' })
    expect(place.print).toBeNull()
    expect(place.printHtml).toContain('<p class="next">You\'re next</p>')
    // One ahead now, the counter still free: the next new ticket is "1 waiting · about 5 min" everywhere.
    const after = await forNew(ctx, 'svc_accounts')
    expect({ join: after.join, board: after.board, kiosk: after.kiosk }).toEqual({ join: '1 waiting', board: 1, kiosk: 1 })
    expect(after.verdict).toEqual({ kind: 'wait', ahead: 1, minutes: 5 })
  })
})
