import { Elysia } from 'elysia'
import { Type } from '@sinclair/typebox'
import type { CounterDeps } from './deps'
import type { Credential } from '../platform/credentials'
import { KiB, parseJsonBytes, readBodyLimited } from '../platform/body'
import { json } from '../platform/http'
import { assertSchema, compile } from '../platform/validation'
import { Scopes, type AdmissionPlugin, type RateBucket } from '../access'
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
export function counterRoutes(deps: CounterDeps, { counters: service, access }: { counters: CounterService; access: AdmissionPlugin }) {

  /** Body size → credential → scope → rate limit, in the public issue's order (admission, before the body is read). */
  const admit = (bucket: RateBucket) => ({ scope: Scopes.COUNTER_OPERATE, bucket, body: MAX_OPERATOR_BODY })
  const read = (request: Request) => readBodyLimited(request, MAX_OPERATOR_BODY)

  const ticketOk = (row: Parameters<typeof trackedTicketJson>[0]) => json(200, { data: trackedTicketJson(row) })

  /** recall · start · complete · no-show · cancel: one route each, the same shape. */
  const simpleAction = (action: SimpleAction) => [
    `${BASE}/tickets/:ticketId/${action}`,
    async ({ request, params, principal: caller, now }: { request: Request; params: { ticketId: string }; principal: Credential; now: number }) => {
      const raw = await read(request)
      readBody(request, raw, checkNoBody, true)
      return ticketOk(await deps.writes.run(() => service.transition(caller, params.ticketId, action, now)))
    },
    {
      parse: 'none',
      params: ticketParams,
      admitOperator: admit('operate'),
      detail: simpleActionDocs[action],
    },
  ] as const

  return new Elysia({ name: 'lobby.counters' })
    .use(access)
    .post(
      `${BASE}/counters/:counterId/open`,
      async ({ request, params, principal: caller, now }) => {
        const raw = await read(request)
        readBody(request, raw, checkNoBody, true)
        return json(200, { data: await deps.writes.run(() => service.openCounter(caller, params.counterId, now)) })
      },
      { parse: 'none', admitOperator: admit('operate'), params: counterParams, detail: openCounterDocs },
    )
    .post(
      `${BASE}/counters/:counterId/close`,
      async ({ request, params, principal: caller, now }) => {
        const raw = await read(request)
        const body = readBody(request, raw, checkClose, true)
        return json(200, { data: await deps.writes.run(() => service.closeCounter(caller, params.counterId, now, body.reason ?? null)) })
      },
      { parse: 'none', admitOperator: admit('operate'), params: counterParams, detail: closeCounterDocs },
    )
    .post(
      `${BASE}/counters/:counterId/call-next`,
      async ({ request, params, principal: caller, now }) => {
        const raw = await read(request)
        readBody(request, raw, checkNoBody, true)
        return ticketOk(await deps.writes.run(() => service.callNext(caller, params.counterId, now)))
      },
      { parse: 'none', admitOperator: admit('operate'), params: counterParams, detail: callNextTicketDocs },
    )
    .post(
      `${BASE}/tickets`,
      async ({ request, principal: caller, now }) => {
        const raw = await read(request)
        const { idempotencyKey } = readWalkInHeaders(request)
        const body = parseJsonBytes(raw)
        assertSchema(checkWalkIn, body, CounterCodes.VALIDATION_FAILED)
        const outcome = await deps.writes.run(() => service.walkIn(caller, idempotencyKey, body, now))
        return json(outcome.status, outcome.body, outcome.replayed ? { ...outcome.headers, 'idempotent-replayed': 'true' } : outcome.headers)
      },
      { parse: 'none', admitOperator: admit('issue'), detail: issueWalkInTicketDocs },
    )
    .post(
      `${BASE}/tickets/:ticketId/call`,
      async ({ request, params, principal: caller, now }) => {
        const raw = await read(request)
        const body = readBody(request, raw, checkCall, false)
        return ticketOk(await deps.writes.run(() => service.callTicket(caller, params.ticketId, body.counterId, now)))
      },
      { parse: 'none', admitOperator: admit('operate'), params: ticketParams, detail: callTicketDocs },
    )
    .post(
      `${BASE}/tickets/:ticketId/requeue`,
      async ({ request, params, principal: caller, now }) => {
        const raw = await read(request)
        const body = readBody(request, raw, checkRequeue, false)
        return ticketOk(await deps.writes.run(() => service.requeue(caller, params.ticketId, body.position, now)))
      },
      { parse: 'none', admitOperator: admit('operate'), params: ticketParams, detail: requeueTicketDocs },
    )
    .post(
      `${BASE}/tickets/:ticketId/reinstate`,
      async ({ request, params, principal: caller, now }) => {
        const raw = await read(request)
        const body = readBody(request, raw, checkReinstate, false)
        return ticketOk(await deps.writes.run(() => service.reinstate(caller, params.ticketId, body.position, now)))
      },
      { parse: 'none', admitOperator: admit('operate'), params: ticketParams, detail: reinstateTicketDocs },
    )
    .post(
      `${BASE}/tickets/:ticketId/transfer`,
      async ({ request, params, principal: caller, now }) => {
        const raw = await read(request)
        const body = readBody(request, raw, checkTransfer, false)
        return ticketOk(await deps.writes.run(() => service.transfer(caller, params.ticketId, body.serviceId, body.position ?? 'LAST', now, body.note ?? null)))
      },
      { parse: 'none', admitOperator: admit('operate'), params: ticketParams, detail: transferTicketDocs },
    )
    .get(
      `${BASE}/queue`,
      ({ principal: caller, now }) => {
        service.queue.assertQueueUnitActive(caller)
        return json(200, { data: service.overview(caller, now) })
      },
      { admitOperator: { scope: Scopes.COUNTER_OPERATE, bucket: 'operate' }, detail: readQueueOverviewDocs },
    )
    .get(
      `${BASE}/tickets/:ticketId/events`,
      ({ params, principal: caller }) => {
        service.queue.assertQueueUnitActive(caller)
        return json(200, { data: service.events(caller, params.ticketId) })
      },
      { params: ticketParams, admitOperator: { scope: Scopes.COUNTER_OPERATE, bucket: 'operate' }, detail: listTicketEventsDocs },
    )
    .post(...simpleAction('recall'))
    .post(...simpleAction('start'))
    .post(...simpleAction('complete'))
    .post(...simpleAction('no-show'))
    .post(...simpleAction('cancel'))
}
