import { Elysia } from 'elysia'
import { Type } from '@sinclair/typebox'
import type { QueueDeps } from './deps'
import { KiB, parseJsonBytes, readBodyAfterChecks } from '../platform/body'
import { json, jsonHeaders } from '../platform/http'
import { keptBytes, negotiateEncoding, type Encoding } from '../platform/compression'
import { assertSchema, compile } from '../platform/validation'
import { QueueCodes } from './errors'
import { IssueTicketRequest, Scopes } from './model'
import { admitQueueCaller, credentialScope } from './access'
import { assertFreshRequest, readIssueHeaders } from './replay'
import type { QueueService } from './service'
import type { QueueReadModel } from './read-model'
import { issueTicketDocs, listServicesDocs, readLiveStateDocs, readTicketDocs } from './docs'

const BASE = '/api/public/v1/queue'

/** public-api.md Limits: the ticket issue body is at most 16 KB (16,384 bytes, contract §3). */
export const MAX_ISSUE_BODY = 16 * KiB

const checkIssue = compile(IssueTicketRequest)

const VARY_LANGUAGE = { vary: 'Accept-Language, Accept-Encoding' }
const VARY_ENCODING = { vary: 'Accept-Encoding' }

/** Contract §18: names in an asked language say so; every answer may differ by `Accept-Language` (and, §27, by `Accept-Encoding`). */
function languageHeaders(language: string | null): Record<string, string> {
  return language === null ? VARY_LANGUAGE : { vary: 'Accept-Language, Accept-Encoding', 'content-language': language }
}

/** The encoding a hot read answers with (contract §27): null for the plain bytes. */
function encodingFor(request: Request): Encoding | null {
  return negotiateEncoding(request.headers.get('accept-encoding'))
}

/*
 * The three reads end in `return new Response(…)` so that Elysia sees they are synchronous: it
 * guesses from a handler's source, and any `return f(…)` or `=> f(…)` reads as "may return a
 * promise", which makes the route's whole handler async (a promise and a microtask per
 * request). test/queue/hot-reads.test.ts checks the composed handlers stay synchronous.
 * Each picks its body's compressed form (`keptBytes`: made once per body, kept beside it) and
 * says so in its headers: `Content-Encoding` exactly when the bytes are not the plain ones.
 */

/** The four public Queue endpoints (public-api.md endpoints 1–4, contract §3). */
export function queueRoutes(deps: QueueDeps, { queue, reads }: { queue: QueueService; reads: QueueReadModel }) {
  // The three reads answer from memory, built again after each change (src/queue/read-model.ts): `reads`.

  return new Elysia({ name: 'lobby.queue' })
    .get(
      `${BASE}/services`,
      ({ request }) => {
        const now = deps.clock.now()
        const caller = admitQueueCaller(deps, request, Scopes.SERVICES_READ, 'read', now)
        const language = reads.language(caller, request.headers.get('accept-language'))
        const body = reads.servicesBody(caller, now, language)
        const encoding = encodingFor(request)
        const bytes = keptBytes(body, encoding)
        return new Response(bytes, { headers: jsonHeaders(request, languageHeaders(language), bytes === body.plain ? null : encoding) })
      },
      {
        detail: listServicesDocs,
      },
    )
    .post(
      `${BASE}/tickets`,
      async ({ request }) => {
        // Credential, scope and rate limit need only the headers: with a declared size they run
        // before the body is read, so an unauthorized issue holds no memory.
        const now = deps.clock.now()
        const { raw, checked: caller } = await readBodyAfterChecks(request, MAX_ISSUE_BODY, () => admitQueueCaller(deps, request, Scopes.TICKETS_WRITE, 'issue', now))
        const headers = readIssueHeaders(request)
        assertFreshRequest(deps.nonces, credentialScope(caller), headers, now)
        const body = parseJsonBytes(raw)
        assertSchema(checkIssue, body, QueueCodes.VALIDATION_FAILED)
        // Group commit: issues arriving together share one transaction and one fsync; this
        // answers once the ticket is committed (see WriteBatcher).
        const outcome = await deps.writes.run(() => queue.issueIdempotent(caller, headers.idempotencyKey, body, now))
        return json(outcome.status, outcome.body, outcome.replayed ? { ...outcome.headers, 'idempotent-replayed': 'true' } : outcome.headers)
      },
      {
        parse: 'none',
        detail: issueTicketDocs,
      },
    )
    .get(
      `${BASE}/tickets/:ticketId`,
      ({ request, params }) => {
        const caller = admitQueueCaller(deps, request, Scopes.TICKETS_READ, 'read', deps.clock.now())
        const body = reads.ticketBody(caller, params.ticketId)
        const encoding = encodingFor(request)
        const bytes = keptBytes(body, encoding)
        return new Response(bytes, { headers: jsonHeaders(request, VARY_ENCODING, bytes === body.plain ? null : encoding) })
      },
      {
        params: Type.Object({ ticketId: Type.String({ description: 'the ticket ID (tkt_…)' }) }),
        detail: readTicketDocs,
      },
    )
    .get(
      `${BASE}/state`,
      ({ request }) => {
        const now = deps.clock.now()
        const caller = admitQueueCaller(deps, request, Scopes.STATE_READ, 'read', now)
        const language = reads.language(caller, request.headers.get('accept-language'))
        const body = reads.stateBody(caller, now, language)
        const encoding = encodingFor(request)
        const bytes = keptBytes(body, encoding)
        return new Response(bytes, { headers: jsonHeaders(request, languageHeaders(language), bytes === body.plain ? null : encoding) })
      },
      {
        detail: readLiveStateDocs,
      },
    )
}

