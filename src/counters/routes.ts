import { Elysia } from 'elysia'
import { Type } from '@sinclair/typebox'
import type { CounterDeps } from './deps'
import type { Credential } from '../platform/credentials'
import { KiB, parseJsonBytes, readBodyAfterChecks } from '../platform/body'
import { json } from '../platform/http'
import { assertSchema, compile } from '../platform/validation'
import type { RateBucket } from '../queue'
import { admitOperatorCaller } from '../devices'
import type { DeviceService } from '../devices'
import { Scopes } from '../queue'
import { trackedTicketJson } from '../tickets'
import { CounterCodes } from './errors'
import { readBody, readWalkInHeaders } from './requests'
import { CallTicketRequest, CloseCounterRequest, NoBody, ReinstateRequest, RequeueRequest, TransferRequest, WalkInRequest } from './model'
import type { CounterService } from './service'
import { callNextTicketDocs, callTicketDocs, closeCounterDocs, issueWalkInTicketDocs, listTicketEventsDocs, openCounterDocs, readQueueOverviewDocs, reinstateTicketDocs, requeueTicketDocs, simpleActionDocs, transferTicketDocs, type SimpleAction } from './docs'

const BASE = '/api/operator/v1'

/** Operator bodies are small; the same 16 KB (16,384 bytes) as the public ticket issue. */
export const MAX_OPERATOR_BODY = 16 * KiB

const checkNoBody = compile(NoBody)
const checkClose = compile(CloseCounterRequest)
const checkCall = compile(CallTicketRequest)
const checkRequeue = compile(RequeueRequest)
const checkTransfer = compile(TransferRequest)
const checkReinstate = compile(ReinstateRequest)
const checkWalkIn = compile(WalkInRequest)

const counterParams = Type.Object({ counterId: Type.String({ description: 'the counter ID' }) })
const ticketParams = Type.Object({ ticketId: Type.String({ description: 'the ticket ID (tkt_…)' }) })

/**
 * The operator API (contract §3 "Operator API") at /api/operator/v1, for Queue keys with the
 * `counter:operate` scope. Building the routes starts nothing: the daily close is background
 * work that `serve` starts (src/server.ts).
 */
export function counterRoutes(deps: CounterDeps, { counters: service, devices }: { counters: CounterService; devices: DeviceService }) {

  /** Body size → credential → scope → rate limit, in the public issue's order. */
  async function admit(request: Request, bucket: RateBucket): Promise<{ raw: Uint8Array; caller: Credential; now: number }> {
    // With a declared size the credential is checked before the body is read (see readBodyAfterChecks).
    const now = deps.clock.now()
    const { raw, checked: caller } = await readBodyAfterChecks(request, MAX_OPERATOR_BODY, () => admitOperatorCaller(deps, devices, request, Scopes.COUNTER_OPERATE, bucket, now))
    return { raw, caller, now }
  }

  const ticketOk = (row: Parameters<typeof trackedTicketJson>[0]) => json(200, { data: trackedTicketJson(row) })

  /** recall · start · complete · no-show · cancel: one route each, the same shape. */
  const simpleAction = (action: SimpleAction) => [
    `${BASE}/tickets/:ticketId/${action}`,
    async ({ request, params }: { request: Request; params: { ticketId: string } }) => {
      const { raw, caller, now } = await admit(request, 'operate')
      readBody(request, raw, checkNoBody, true)
      return ticketOk(await deps.writes.run(() => service.transition(caller, params.ticketId, action, now)))
    },
    {
      parse: 'none',
      params: ticketParams,
      detail: simpleActionDocs[action],
    },
  ] as const

  return new Elysia({ name: 'lobby.counters' })
    .post(
      `${BASE}/counters/:counterId/open`,
      async ({ request, params }) => {
        const { raw, caller, now } = await admit(request, 'operate')
        readBody(request, raw, checkNoBody, true)
        return json(200, { data: await deps.writes.run(() => service.openCounter(caller, params.counterId, now)) })
      },
      { parse: 'none', params: counterParams, detail: openCounterDocs },
    )
    .post(
      `${BASE}/counters/:counterId/close`,
      async ({ request, params }) => {
        const { raw, caller, now } = await admit(request, 'operate')
        const body = readBody(request, raw, checkClose, true)
        return json(200, { data: await deps.writes.run(() => service.closeCounter(caller, params.counterId, now, body.reason ?? null)) })
      },
      { parse: 'none', params: counterParams, detail: closeCounterDocs },
    )
    .post(
      `${BASE}/counters/:counterId/call-next`,
      async ({ request, params }) => {
        const { raw, caller, now } = await admit(request, 'operate')
        readBody(request, raw, checkNoBody, true)
        return ticketOk(await deps.writes.run(() => service.callNext(caller, params.counterId, now)))
      },
      { parse: 'none', params: counterParams, detail: callNextTicketDocs },
    )
    .post(
      `${BASE}/tickets`,
      async ({ request }) => {
        const { raw, caller, now } = await admit(request, 'issue')
        const { idempotencyKey } = readWalkInHeaders(request)
        const body = parseJsonBytes(raw)
        assertSchema(checkWalkIn, body, CounterCodes.VALIDATION_FAILED)
        const outcome = await deps.writes.run(() => service.walkIn(caller, idempotencyKey, body, now))
        return json(outcome.status, outcome.body, outcome.replayed ? { ...outcome.headers, 'idempotent-replayed': 'true' } : outcome.headers)
      },
      { parse: 'none', detail: issueWalkInTicketDocs },
    )
    .post(
      `${BASE}/tickets/:ticketId/call`,
      async ({ request, params }) => {
        const { raw, caller, now } = await admit(request, 'operate')
        const body = readBody(request, raw, checkCall, false)
        return ticketOk(await deps.writes.run(() => service.callTicket(caller, params.ticketId, body.counterId, now)))
      },
      { parse: 'none', params: ticketParams, detail: callTicketDocs },
    )
    .post(
      `${BASE}/tickets/:ticketId/requeue`,
      async ({ request, params }) => {
        const { raw, caller, now } = await admit(request, 'operate')
        const body = readBody(request, raw, checkRequeue, false)
        return ticketOk(await deps.writes.run(() => service.requeue(caller, params.ticketId, body.position, now)))
      },
      { parse: 'none', params: ticketParams, detail: requeueTicketDocs },
    )
    .post(
      `${BASE}/tickets/:ticketId/reinstate`,
      async ({ request, params }) => {
        const { raw, caller, now } = await admit(request, 'operate')
        const body = readBody(request, raw, checkReinstate, false)
        return ticketOk(await deps.writes.run(() => service.reinstate(caller, params.ticketId, body.position, now)))
      },
      { parse: 'none', params: ticketParams, detail: reinstateTicketDocs },
    )
    .post(
      `${BASE}/tickets/:ticketId/transfer`,
      async ({ request, params }) => {
        const { raw, caller, now } = await admit(request, 'operate')
        const body = readBody(request, raw, checkTransfer, false)
        return ticketOk(await deps.writes.run(() => service.transfer(caller, params.ticketId, body.serviceId, body.position ?? 'LAST', now, body.note ?? null)))
      },
      { parse: 'none', params: ticketParams, detail: transferTicketDocs },
    )
    .get(
      `${BASE}/queue`,
      ({ request }) => {
        const now = deps.clock.now()
        const caller = admitOperatorCaller(deps, devices, request, Scopes.COUNTER_OPERATE, 'operate', now)
        service.queue.assertQueueUnitActive(caller)
        return json(200, { data: service.overview(caller, now) })
      },
      { detail: readQueueOverviewDocs },
    )
    .get(
      `${BASE}/tickets/:ticketId/events`,
      ({ request, params }) => {
        const now = deps.clock.now()
        const caller = admitOperatorCaller(deps, devices, request, Scopes.COUNTER_OPERATE, 'operate', now)
        service.queue.assertQueueUnitActive(caller)
        return json(200, { data: service.events(caller, params.ticketId) })
      },
      { params: ticketParams, detail: listTicketEventsDocs },
    )
    .post(...simpleAction('recall'))
    .post(...simpleAction('start'))
    .post(...simpleAction('complete'))
    .post(...simpleAction('no-show'))
    .post(...simpleAction('cancel'))
}
