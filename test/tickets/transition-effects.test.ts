import { describe, expect, test } from 'bun:test'
import { TICKET_ACTIONS, TRANSITION_EFFECTS, TRANSITIONS, type TicketEventName } from '../../src/tickets'
import { ACTION_OF_EVENT, DAILY_CLOSE, rollupFiguresOf } from '../../src/tickets/transitions'

describe('TRANSITION_EFFECTS, the one table of what each transition changes', () => {
  test('each action writes its own event type, and each event type but created names its action', () => {
    const events = TICKET_ACTIONS.map((action) => TRANSITION_EFFECTS[action].event)
    expect(new Set(events).size).toBe(TICKET_ACTIONS.length)
    for (const action of TICKET_ACTIONS) expect(ACTION_OF_EVENT[TRANSITION_EFFECTS[action].event as Exclude<TicketEventName, 'created'>]).toBe(action)
    expect(rollupFiguresOf('created')).toEqual(['issued'])
  })

  test('the rules are the table read as rules', () => {
    expect(TRANSITIONS).toBe(TRANSITION_EFFECTS)
  })

  test('the daily close: WAITING→CANCELLED, CALLED→NO_SHOW, SERVING→COMPLETED through the operator rows', () => {
    for (const [status, action] of Object.entries(DAILY_CLOSE)) expect(TRANSITION_EFFECTS[action].from).toContain(status as 'WAITING')
    expect(Object.fromEntries(Object.entries(DAILY_CLOSE).map(([status, action]) => [status, TRANSITION_EFFECTS[action].to])))
      .toEqual({ WAITING: 'CANCELLED', CALLED: 'NO_SHOW', SERVING: 'COMPLETED' })
  })

  test('column changes: a call counts and takes the ticket off the front lane, a transfer leaves its counter for another service', () => {
    const at = (callCount: number) => ({ callCount, serviceId: 'svc_a', counterId: 'cnt_9' })
    expect(TRANSITION_EFFECTS.call.columns(at(2), { at: 5, counterId: 'cnt_1' })).toEqual({ counterId: 'cnt_1', calledAt: 5, callCount: 3, front: false })
    expect(TRANSITION_EFFECTS.recall.columns(at(2), { at: 5 })).toEqual({ callCount: 3 })
    expect(TRANSITION_EFFECTS.transfer.columns(at(1), { at: 5, toServiceId: 'svc_b', place: { queueRank: 9, front: true } }))
      .toEqual({ serviceId: 'svc_b', counterId: null, calledAt: null, servingAt: null, queueRank: 9, front: true, transferredFromServiceId: 'svc_a', transferredFromCounterId: 'cnt_9', transferNote: null })
    expect(TRANSITION_EFFECTS.transfer.columns(at(1), { at: 5, toServiceId: 'svc_b', transferNote: 'needs a loan form' }).transferNote).toBe('needs a loan form')
    // Contract §20: a no-show brought back waits again, off its counter and no longer ended.
    expect(TRANSITION_EFFECTS.reinstate.columns(at(1), { at: 5, place: { queueRank: 0, front: true } })).toEqual({ counterId: null, calledAt: null, completedAt: null, queueRank: 0, front: true })
    expect(TRANSITION_EFFECTS.reinstate.from).toEqual(['NO_SHOW'])
    expect(rollupFiguresOf('reinstated')).toEqual(['noShowTakenBack'])
    expect(TRANSITION_EFFECTS.requeue.columns(at(1), { at: 5 })).toEqual({ counterId: null, calledAt: null })
    for (const action of ['complete', 'no-show', 'cancel'] as const) expect(TRANSITION_EFFECTS[action].columns(at(1), { at: 7 })).toEqual({ completedAt: 7 })
  })

  test('only a completion measures a service time; only calls and recalls are listed; only a call moves the streak', () => {
    expect(TICKET_ACTIONS.filter((a) => TRANSITION_EFFECTS[a].measuresService)).toEqual(['complete'])
    expect(TICKET_ACTIONS.filter((a) => TRANSITION_EFFECTS[a].listsCall)).toEqual(['call', 'recall'])
    expect(TICKET_ACTIONS.filter((a) => TRANSITION_EFFECTS[a].countsCall)).toEqual(['call'])
  })
})
