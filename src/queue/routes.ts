import { Elysia } from 'elysia'
import { Type } from '@sinclair/typebox'
import type { QueueDeps } from './deps'
import { KiB, parseJsonBytes, readBodyLimited } from '../platform/body'
import { json, jsonHeaders } from '../platform/http'
import { keptBytes, negotiateEncoding, type Encoding } from '../platform/compression'
import { assertSchema, compile } from '../platform/validation'
import { QueueCodes } from './errors'
import { IssueTicketRequest, Scopes } from './model'
import { credentialScope, type AdmissionPlugin } from '../access'
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
export function queueRoutes(deps: QueueDeps, { queue, reads, access }: { queue: QueueService; reads: QueueReadModel; access: AdmissionPlugin }) {
  // The three reads answer from memory, built again after each change (src/queue/read-model.ts): `reads`.

  return new Elysia({ name: 'lobby.queue' })
    .use(access)
    .get(
      `${BASE}/services`,
      ({ request, principal: caller, now }) => {
        const language = reads.language(caller, request.headers.get('accept-language'))
        const body = reads.servicesBody(caller, now, language)
        const encoding = encodingFor(request)
        const bytes = keptBytes(body, encoding)
        return new Response(bytes, { headers: jsonHeaders(request, languageHeaders(language), bytes === body.plain ? null : encoding) })
      },
      {
        admitKey: { scope: Scopes.SERVICES_READ, bucket: 'read' },
        detail: listServicesDocs,
      },
    )
    .post(
      `${BASE}/tickets`,
      async ({ request, principal: caller, now }) => {
        // Credential, scope and rate limit need only the headers (admitKey): with a declared size
        // they run before the body is read, so an unauthorized issue holds no memory.
        const raw = await readBodyLimited(request, MAX_ISSUE_BODY)
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
        admitKey: { scope: Scopes.TICKETS_WRITE, bucket: 'issue', body: MAX_ISSUE_BODY },
        detail: issueTicketDocs,
      },
    )
    .get(
      `${BASE}/tickets/:ticketId`,
      ({ request, params, principal: caller }) => {
        const body = reads.ticketBody(caller, params.ticketId)
        const encoding = encodingFor(request)
        const bytes = keptBytes(body, encoding)
        return new Response(bytes, { headers: jsonHeaders(request, VARY_ENCODING, bytes === body.plain ? null : encoding) })
      },
      {
        params: Type.Object({ ticketId: Type.String({ description: 'the ticket ID (tkt_…)' }) }),
        admitKey: { scope: Scopes.TICKETS_READ, bucket: 'read' },
        detail: readTicketDocs,
      },
    )
    .get(
      `${BASE}/state`,
      ({ request, principal: caller, now }) => {
        const language = reads.language(caller, request.headers.get('accept-language'))
        const body = reads.stateBody(caller, now, language)
        const encoding = encodingFor(request)
        const bytes = keptBytes(body, encoding)
        return new Response(bytes, { headers: jsonHeaders(request, languageHeaders(language), bytes === body.plain ? null : encoding) })
      },
      {
        admitKey: { scope: Scopes.STATE_READ, bucket: 'read' },
        detail: readLiveStateDocs,
      },
    )
}

