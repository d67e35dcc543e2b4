/**
 * The bad-input fuzzer's cases, built with fast-check from a seed. Every POST case is invalid by
 * construction: it carries at least one defect that the contract says must be refused, and each
 * defect knows the step of the route's order of checks where it is refused and with which
 * status, so a case's expected statuses are those of its earliest certain defect (and of any
 * uncertain one before it). GET cases vary paths, queries and headers; they may succeed but
 * never store anything. Header values stay Latin-1 without control characters (what `fetch`
 * can send); raw bytes are the hostile scenario's job.
 */
import fc from 'fast-check'
import { gzipSync } from 'node:zlib'
import { makeMonth } from '../prayer/support'
import { DATA_BY_TYPE } from '../widgets/support'
import { IDS, QUEUE, monthsPath, widgetPushPath } from './support'

export interface Defect {
  name: string
  /** Index of the route's step (order of checks) that refuses it. */
  stage: number
  /** Statuses it may produce; one status = certain. */
  statuses: number[]
}

export interface FuzzCase {
  route: string
  method: 'GET' | 'POST'
  path: string
  /** Header values may hold `@NOW`, `@NOW+ms`, `@NOW-ms` and `@NONCE`, filled in at send time. */
  headers: Record<string, string>
  body?: Uint8Array
  defects: Defect[]
  /** Allowed statuses (POST); null: any status below 500 (GET). */
  expect: number[] | null
  /** The X-Correlation-ID sent, when one was. */
  correlationId?: string
}

/** Secrets and seeded state the cases refer to (see the scenario's setup). */
export interface FuzzContext {
  queueKey: string
  workspaceKey: string
  displayToken: string
  /** An Idempotency-Key already used for a ticket with another body. */
  usedTicketKey: string
  /** A nonce already consumed. */
  usedNonce: string
  /** An Idempotency-Key already used on every fuzz widget with other bytes. */
  usedWidgetKey: string
  /** An Idempotency-Key already used for a month with other bytes. */
  usedMonthKey: string
  /** IDs of tickets that exist (for reads). */
  ticketIds: string[]
  /** A period stored for the source. */
  storedPeriod: string
  /** The display queue-state route, when this build serves it. */
  displayQueueState: boolean
}

/** Values that must never come back in a response (contract §2: no echo of submitted values). */
export const MARKER = 'ZQXMARKERZQX'

const MAX_SAFE = Number.MAX_SAFE_INTEGER
const TICKET_LIMIT = 16 * 1024
const WIDGET_LIMIT = 1024 * 1024
const MONTH_LIMIT = 256 * 1024

// ───────────────────────────── building blocks ─────────────────────────────

/** A draft request: a JSON value plus text- and byte-level edits applied when serialised. */
interface Draft {
  headers: Record<string, string | null>
  value: unknown
  /** Raw JSON number literals: a string value `"@RAW:n@"` is replaced by `raw[n]` in the text. */
  raw: string[]
  textOps: ((text: string) => string)[]
  byteOps: ((bytes: Uint8Array) => Uint8Array)[]
  defects: Defect[]
}

type Op = (d: Draft) => void

/**
 * An op and what it changes. A case takes at most one op per target, so a later op cannot undo an
 * earlier one's defect (two values for one header, a duplicated key then removed).
 */
interface Targeted {
  target: string
  op: Op
}

const on = (target: string, arbitrary: fc.Arbitrary<Op>): fc.Arbitrary<Targeted> => arbitrary.map((op) => ({ target, op }))

/** One to three ops with distinct targets. */
const chooseOps = (ops: fc.Arbitrary<Targeted>[]) =>
  fc.uniqueArray(fc.oneof(...ops), { minLength: 1, maxLength: 3, selector: (t) => t.target }).map((ts) => ts.map((t) => t.op))

const enc = new TextEncoder()
const latin1Char = fc.oneof(
  fc.integer({ min: 0x21, max: 0x7e }),
  fc.integer({ min: 0xa1, max: 0xff }),
).map((c) => String.fromCharCode(c))
/** A header-safe string of `min`..`max` characters with no whitespace at either end. */
const headerString = (min: number, max: number) => fc.array(latin1Char, { minLength: min, maxLength: max }).map((cs) => cs.join(''))
const printable = (min: number, max: number) => fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: min, maxLength: max })
/** Any Unicode text, lone surrogates included. */
const anyText = (max: number) => fc.string({ unit: 'binary', maxLength: max })

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** The object at `path` (created along the way only when `create`), or undefined. */
function at(root: unknown, path: (string | number)[]): Record<string, unknown> | unknown[] | undefined {
  let node: unknown = root
  for (const key of path) {
    if (!isObject(node) && !Array.isArray(node)) return undefined
    node = (node as Record<string | number, unknown>)[key]
  }
  return isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>) : undefined
}

/** Sets `path` to `value` when its parent exists; reports whether it did. */
function set(d: Draft, path: (string | number)[], value: unknown): boolean {
  const parent = at(d.value, path.slice(0, -1))
  if (parent === undefined) return false
  ;(parent as Record<string | number, unknown>)[path[path.length - 1]!] = value
  return true
}

function remove(d: Draft, path: (string | number)[]): boolean {
  const parent = at(d.value, path.slice(0, -1))
  const key = path[path.length - 1]!
  if (!isObject(parent) || !(key in parent)) return false
  delete parent[key]
  return true
}

/** A JSON literal the serialiser cannot write (1e400, 9007199254740993, -0.0e0…). */
function rawNumber(d: Draft, literal: string): string {
  d.raw.push(literal)
  return `@RAW:${d.raw.length - 1}@`
}

function defect(d: Draft, name: string, stage: number, ...statuses: number[]): void {
  d.defects.push({ name, stage, statuses })
}

/** An op that sets a field to one of `values` and records the defect when the field's parent exists. */
function setField(name: string, stage: number, status: number, path: (string | number)[], values: fc.Arbitrary<unknown>): fc.Arbitrary<Op> {
  return values.map((value) => (d: Draft) => {
    if (set(d, path, value)) defect(d, `${name}`, stage, status)
  })
}

/** An op that deletes a required field. */
function removeField(name: string, stage: number, status: number, path: (string | number)[]): fc.Arbitrary<Op> {
  return fc.constant((d: Draft) => {
    if (remove(d, path)) defect(d, name, stage, status)
  })
}

/** Unknown property names, including ones that matter to JavaScript objects. */
const unknownName = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' ', 'x', 'ID', 'Id'),
  anyText(20).map((s) => `x_${s}`),
)

function unknownField(name: string, stage: number, status: number, path: (string | number)[]): fc.Arbitrary<Op> {
  return fc.tuple(unknownName, fc.jsonValue({ maxDepth: 2 })).map(([key, value]) => (d: Draft) => {
    const target = path.length === 0 ? d.value : at(d.value, path)
    if (!isObject(target)) return
    // A computed own property, so '__proto__' becomes a key of the JSON text, not a prototype.
    Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true })
    defect(d, `${name} (${JSON.stringify(key).slice(0, 20)})`, stage, status)
  })
}

/** JSON-level defects every route shares: the body is not JSON, or not the JSON it looks like. */
function jsonDefects(stage: number): fc.Arbitrary<Op> {
  return fc.oneof(
    fc.constant((d: Draft) => {
      d.byteOps.push((b) => new Uint8Array([0xef, 0xbb, 0xbf, ...b]))
      defect(d, 'byte-order mark', stage, 400)
    }),
    fc.tuple(fc.constantFrom([0xc3, 0x28], [0xff], [0xfe], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80]), fc.nat()).map(([bad, pos]) => (d: Draft) => {
      // Inside the first string value, so the rest stays JSON-shaped.
      d.byteOps.push((b) => {
        const quote = b.indexOf(0x22)
        const i = quote < 0 ? pos % (b.length + 1) : quote + 1
        return new Uint8Array([...b.subarray(0, i), ...bad, ...b.subarray(i)])
      })
      defect(d, 'invalid UTF-8', stage, 400)
    }),
    fc.nat().map((cut) => (d: Draft) => {
      d.byteOps.push((b) => b.subarray(0, b.length === 0 ? 0 : cut % b.length))
      // A cut body is almost never JSON; when it is (`42` → `4`), it is not the right shape either.
      defect(d, 'truncated body', stage, 400, 422)
    }),
    fc.constant((d: Draft) => {
      d.byteOps.push(() => new Uint8Array(0))
      defect(d, 'empty body', stage, 400)
    }),
    fc.constantFrom(
      "{'locationId':'loc_hall'}", '{"a":1,}', '{"a":NaN}', '{"a":Infinity}', '{"a":undefined}', '{a:1}', '{"a":1} // c', '/* c */ {}',
      '{"a":"\\x41"}', '{"a":"\\u12"}', '{"a":01}', '{"a":.5}', '{"a":+1}', '{"a":0x10}', '{"a":"tab\there"}', '{"a":1}}', '[', '}{', 'null null',
      'locationId=loc_hall&serviceId=svc_accounts', '<?xml version="1.0"?><a/>', '\u0000', '{"a":"\u0000"',
    ).map((text) => (d: Draft) => {
      d.byteOps.push(() => enc.encode(text))
      defect(d, 'malformed JSON', stage, 400)
    }),
    fc.constant((d: Draft) => {
      // UTF-16 with BOM: NUL bytes everywhere, not JSON in UTF-8.
      d.byteOps.push((b) => new Uint8Array(Buffer.from('\ufeff' + Buffer.from(b).toString('utf8'), 'utf16le')))
      defect(d, 'UTF-16 body', stage, 400)
    }),
    fc.constant((d: Draft) => {
      d.byteOps.push((b) => new Uint8Array(gzipSync(b)))
      defect(d, 'gzip bytes', stage, 400)
    }),
  )
}

/** A body that is valid JSON but not an object, or an object nested absurdly deep. */
function shapeDefects(jsonStage: number, schemaStage: number, schemaStatus: number): fc.Arbitrary<Op> {
  return fc.oneof(
    fc.constantFrom<unknown>([], [1, 2], 'text', 42, null, true, false, 0).map((value) => (d: Draft) => {
      d.value = value
      defect(d, `body is ${JSON.stringify(value)}`, schemaStage, schemaStatus)
    }),
    fc.tuple(fc.integer({ min: 200, max: 60_000 }), fc.boolean()).map(([depth, arrays]) => (d: Draft) => {
      const open = arrays ? '[' : '{"a":'
      const close = arrays ? ']' : '}'
      d.textOps.push(() => open.repeat(depth) + '1' + close.repeat(depth))
      defect(d, `nested ${depth} deep`, jsonStage, 400, schemaStatus)
    }),
  )
}

/** Duplicate keys: the same property twice, the last occurrence invalid (JSON.parse keeps the last). */
function duplicateKey(stage: number, status: number, key: string, invalid: fc.Arbitrary<unknown>, valid: unknown): fc.Arbitrary<Op> {
  return invalid.map((bad) => (d: Draft) => {
    if (!isObject(d.value) || !(key in d.value)) return
    d.value[key] = bad
    d.textOps.push((text) => (text.startsWith('{') ? `{${JSON.stringify(key)}:${JSON.stringify(valid)},${text.slice(1)}` : text))
    defect(d, `duplicate "${key}", the last invalid`, stage, status)
  })
}

// ───────────────────────────── noise (never a defect) ─────────────────────────────

const correlationIds = fc.oneof(
  fc.constant(undefined),
  fc.stringMatching(/^[A-Za-z0-9_.:-]{1,120}$/),
  fc.constantFrom('', 'a'.repeat(121), 'has space', 'slash/inside', 'semi;colon', `${MARKER}é`, 'ü'.repeat(10)),
)

interface Noise {
  correlationId: string | undefined
  extra: [string, string][]
}

const noise: fc.Arbitrary<Noise> = fc.record({
  correlationId: correlationIds,
  extra: fc.array(fc.tuple(fc.stringMatching(/^x-fuzz-[a-z0-9-]{1,20}$/), headerString(1, 200)), { maxLength: 4 }),
})

function applyNoise(d: Draft, n: Noise): string | undefined {
  for (const [name, value] of n.extra) d.headers[name] = value
  if (n.correlationId !== undefined) {
    d.headers['x-correlation-id'] = n.correlationId
    return n.correlationId
  }
  return undefined
}

function finish(route: string, method: 'GET' | 'POST', path: string, d: Draft, limit: number, correlationId: string | undefined): FuzzCase {
  let body: Uint8Array | undefined
  if (method === 'POST') {
    let text = d.value === undefined ? '' : JSON.stringify(d.value)
    for (const op of d.textOps) text = op(text)
    text = text.replace(/"@RAW:(\d+)@"/g, (_, i) => d.raw[Number(i)]!)
    let bytes: Uint8Array = enc.encode(text)
    for (const op of d.byteOps) bytes = op(bytes)
    if (bytes.byteLength > limit) d.defects.push({ name: 'body over the limit', stage: 0, statuses: [413] })
    body = bytes
  }
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(d.headers)) if (v !== null) headers[k] = v
  return { route, method, path, headers, body, defects: d.defects, expect: method === 'POST' ? expected(d.defects) : null, correlationId }
}

/** The statuses a case may get: its defects in check order, up to and including the first certain one. */
export function expected(defects: Defect[]): number[] {
  const sorted = [...defects].sort((a, b) => a.stage - b.stage)
  const out = new Set<number>()
  for (const x of sorted) {
    for (const s of x.statuses) out.add(s)
    if (x.statuses.length === 1) break
  }
  return [...out]
}

// ───────────────────────────── ticket issue ─────────────────────────────

const T = { size: 0, auth: 1, headers: 3, window: 4, nonce: 5, json: 6, schema: 7, idempotency: 8, target: 9 }

function ticketCase(ctx: FuzzContext): fc.Arbitrary<FuzzCase> {
  const badTimestamps = fc.oneof(
    fc.constantFrom('', 'now', 'yesterday', '2026-13-01T00:00:00Z', '2026-02-30T10:00:00Z', '2026-11-25 10:00:00Z', '2026-11-25T24:00:00Z',
      '2026-11-25T10:00:00', '2026-11-25', '1795648735', '1795648735000', 'Wed, 25 Nov 2026 10:00:00 GMT', '2026-11-25T10:00:00+25:00',
      '+002026-11-25T10:00:00Z', '2026-W48-3T10:00:00Z', `${MARKER}`),
    headerString(1, 40).filter((s) => !/^\d{4}-\d{2}-\d{2}[Tt]/.test(s)),
  )
  const ops: fc.Arbitrary<Targeted>[] = [
    // headers step
    on('content-type', fc.constantFrom<string | null>(null, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jso', 'json', 'text/json', 'application/xml').map((ct) => (d: Draft) => {
      d.headers['content-type'] = ct
      defect(d, `Content-Type ${ct}`, T.headers, 400)
    })),
    on('timestamp', fc.oneof(fc.constant<string | null>(null), badTimestamps).map((ts) => (d: Draft) => {
      d.headers['x-request-timestamp'] = ts
      defect(d, `X-Request-Timestamp ${JSON.stringify(ts)?.slice(0, 30)}`, T.headers, 400)
    })),
    on('nonce', fc.oneof(fc.constant<string | null>(null), fc.constant(''), headerString(1, 11), headerString(161, 400)).map((nonce) => (d: Draft) => {
      d.headers['x-request-nonce'] = nonce
      defect(d, `X-Request-Nonce of ${nonce?.length ?? 'no'} characters`, T.headers, 400)
    })),
    on('idempotency-key', fc.oneof(fc.constant<string | null>(null), fc.constant(''), headerString(161, 500)).map((key) => (d: Draft) => {
      d.headers['idempotency-key'] = key
      defect(d, `Idempotency-Key of ${key?.length ?? 'no'} characters`, T.headers, 400)
    })),
    // window and nonce
    // At least 2 s past the window: the server's clock reads later than the client's by the time the request arrives.
    on('timestamp', fc.tuple(fc.integer({ min: 302_000, max: 86_400_000 * 30 }), fc.boolean()).map(([ms, ahead]) => (d: Draft) => {
      d.headers['x-request-timestamp'] = `@NOW${ahead ? '+' : '-'}${ms}`
      defect(d, `timestamp ${ahead ? 'ahead' : 'behind'} by ${ms} ms`, T.window, 400)
    })),
    on('nonce', fc.constant((d: Draft) => {
      d.headers['x-request-nonce'] = ctx.usedNonce
      defect(d, 'nonce already used', T.nonce, 409)
    })),
    // body
    on('bytes', jsonDefects(T.json)),
    on('bytes', shapeDefects(T.json, T.schema, 422)),
    ...(['locationId', 'serviceId'] as const).flatMap((field) => [
      // one op on the two IDs: a duplicated key then removed, or a pair set over it, would be valid again
      setField(`${field} of the wrong type`, T.schema, 422, [field], fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.object({ maxDepth: 1 }))),
      fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '9007199254740993', '-0', '1e-400').map((literal) => (d: Draft) => {
        if (set(d, [field], rawNumber(d, literal))) defect(d, `${field} = ${literal}`, T.schema, 422)
      }),
      removeField(`no ${field}`, T.schema, 422, [field]),
      fc.string({ minLength: 161, maxLength: 4000 }).map((s) => `${MARKER}${s}`).map((s) => (d: Draft) => {
        if (set(d, [field], s)) defect(d, `${field} of ${s.length} characters`, T.schema, 422)
      }),
      duplicateKey(T.schema, 422, field, fc.oneof(fc.integer(), fc.constant(null), fc.constant(''), fc.constant(['loc_hall'])), field === 'locationId' ? IDS.hall : IDS.accounts),
    ].map((arbitrary) => on('field:ids', arbitrary))),
    on('field:externalReference', setField('externalReference of the wrong type', T.schema, 422, ['externalReference'], fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string(), { maxLength: 2 }), fc.object({ maxDepth: 1 })))),
    on('field:externalReference', setField('empty externalReference', T.schema, 422, ['externalReference'], fc.constant(''))),
    on('field:externalReference', fc.string({ minLength: 256, maxLength: 3000 }).map((s) => `${MARKER}${s}`).map((s) => (d: Draft) => {
      if (set(d, ['externalReference'], s)) defect(d, `externalReference of ${s.length} characters`, T.schema, 422)
    })),
    on('unknown', unknownField('unknown property', T.schema, 422, [])),
    // idempotency and target
    // The used key's ticket had externalReference "fuzz-seed", which no generated body has: another payload.
    on('idempotency-key', fc.constant((d: Draft) => {
      d.headers['idempotency-key'] = ctx.usedTicketKey
      defect(d, 'Idempotency-Key reused with another payload', T.idempotency, 409)
    })),
    on('field:ids', fc.oneof(
      fc.constantFrom(['loc_nowhere', IDS.accounts], ['loc_other', IDS.accounts], [IDS.annex, IDS.loans], [IDS.hall, 'svc_other'], [IDS.hall, 'svc_nowhere'], [IDS.hall.toUpperCase(), IDS.accounts], [` ${IDS.hall}`, IDS.accounts], [`${IDS.hall}\u0000`, IDS.accounts], ['\ud800', IDS.accounts]),
      fc.tuple(anyText(30).map((s) => `${MARKER}${s}`), fc.constantFrom(IDS.accounts, IDS.loans)),
    ).map(([locationId, serviceId]) => (d: Draft) => {
      if (!isObject(d.value)) return
      d.value.locationId = locationId
      d.value.serviceId = serviceId
      defect(d, `no such location/service pair (${JSON.stringify(locationId).slice(0, 20)}, ${serviceId})`, T.target, 422)
    })),
    on('authorization', fc.constantFrom<string | null>(null, 'Bearer lbq_wrong', 'Basic Zm9vOmJhcg==', '', `Bearer ${ctx.workspaceKey}`).map((authorization) => (d: Draft) => {
      d.headers.authorization = authorization
      defect(d, `credential ${authorization?.slice(0, 12) ?? 'absent'}`, T.auth, 401)
    })),
  ]
  return fc.tuple(
    chooseOps(ops),
    noise,
    fc.constantFrom(IDS.hall, IDS.annex),
    fc.oneof(fc.constant(undefined), anyText(60).filter((s) => s.length > 0 && s !== 'fuzz-seed')),
    headerString(1, 160),
  ).map(([chosen, n, location, reference, key]) => {
    const d: Draft = {
      headers: {
        authorization: `Bearer ${ctx.queueKey}`,
        'content-type': 'application/json',
        'x-request-timestamp': '@NOW',
        'x-request-nonce': '@NONCE',
        'idempotency-key': `fz-${key}`.slice(0, 160),
      },
      value: reference === undefined ? { locationId: location, serviceId: IDS.accounts } : { locationId: location, serviceId: IDS.accounts, externalReference: reference },
      raw: [],
      textOps: [],
      byteOps: [],
      defects: [],
    }
    for (const op of chosen) op(d)
    if (d.defects.length === 0) unknownFieldFallback(d, T.schema, 422)
    const correlationId = applyNoise(d, n)
    return finish('POST queue/tickets', 'POST', `${QUEUE}/tickets`, d, TICKET_LIMIT, correlationId)
  })
}

/** When every chosen op found nothing to change (e.g. the body was replaced by an array first), one certain defect. */
function unknownFieldFallback(d: Draft, stage: number, status: number) {
  d.value = { ...(isObject(d.value) ? d.value : {}), [`x_${MARKER}`]: 1 }
  d.byteOps.length = 0
  d.textOps.length = 0
  defect(d, 'unknown property (fallback)', stage, status)
}

// ───────────────────────────── widget push ─────────────────────────────

const W = { size: 0, contentType: 1, credential: 2, access: 3, keyFormat: 5, keyReuse: 6, json: 7, schema: 8, sequence: 9 }
type WidgetType = keyof typeof IDS.fuzzWidgets
const WIDGET_TYPES = Object.keys(IDS.fuzzWidgets) as WidgetType[]
const MAX_ITEMS: Record<WidgetType, number> = { ANNOUNCEMENTS: 200, TODAYS_SCHEDULE: 500, EVENTS: 500, TRANSPORT_BOARD: 1000 }
/** A text field (≤200) of the first item, per type: where HTML and overlong text go. */
const ITEM_TEXT: Record<WidgetType, string[]> = {
  ANNOUNCEMENTS: ['title', 'id', 'category'],
  TODAYS_SCHEDULE: ['title', 'id', 'location', 'host'],
  EVENTS: ['title', 'id', 'location', 'organizer'],
  TRANSPORT_BOARD: ['id', 'destination', 'platform'],
}
const ITEM_DATE: Record<WidgetType, string> = { ANNOUNCEMENTS: 'startsAt', TODAYS_SCHEDULE: 'startAt', EVENTS: 'startAt', TRANSPORT_BOARD: 'scheduledAt' }
const badDateTimes = fc.constantFrom('2026-11-25T10:00:00', '2026-11-25 10:00:00+01:00', '2026-11-25t10:00:00z', '2026-02-30T10:00:00Z', '2026-11-25T24:00:00Z',
  '2026-11-25T10:00:60Z', '2026-11-25T10:00:00+0100', 'tomorrow', '', '1795648735', '2026-11-25T10:00:00.1234567890Z', `${MARKER}`)
const html = fc.tuple(fc.constantFrom('<b>', '</p>', '<!--', '<?php', '<script>', '<img src=x onerror=alert(1)>', '<a href="x">', '<svg/onload=1>'), anyText(10))
  .map(([tag, tail]) => `${MARKER} ${tag}${tail}`)

function widgetCase(ctx: FuzzContext): fc.Arbitrary<FuzzCase> {
  return fc.constantFrom(...WIDGET_TYPES).chain((type) => {
    const item = ['data', 'items', 0]
    const ops: fc.Arbitrary<Targeted>[] = ([
      ['content-type', fc.constantFrom<string | null>(null, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/jso', 'text/json', '').map((ct) => (d: Draft) => {
        d.headers['content-type'] = ct
        defect(d, `Content-Type ${ct}`, W.contentType, 415)
      })],
      ['idempotency-key', fc.oneof(fc.constant(''), headerString(1, 7), headerString(181, 600)).map((key) => (d: Draft) => {
        d.headers['idempotency-key'] = key
        defect(d, `Idempotency-Key of ${key.length} characters`, W.keyFormat, 400)
      })],
      // The used key's snapshot had sequence 2^53 − 1 and one item: other bytes than any generated body.
      ['idempotency-key', fc.constant((d: Draft) => {
        d.headers['idempotency-key'] = ctx.usedWidgetKey
        defect(d, 'Idempotency-Key reused with other bytes', W.keyReuse, 409)
      })],
      ['credential', fc.constant((d: Draft) => {
        d.headers.authorization = `Bearer ${ctx.workspaceKey}`
        d.headers['x-service-api-key'] = ctx.workspaceKey
        defect(d, 'both credential headers', W.credential, 400)
      })],
      ['bytes', jsonDefects(W.json)],
      ['bytes', shapeDefects(W.json, W.schema, 422)],
      setField('pushVersion', W.schema, 422, ['pushVersion'], fc.constantFrom<unknown>(0, 2, -1, 1.5, '1', null, true, [1], {})),
      fc.constantFrom('1e400', '1.0000001', '2e0', '-1e400').map((literal) => (d: Draft) => {
        if (set(d, ['pushVersion'], rawNumber(d, literal))) defect(d, `pushVersion = ${literal}`, W.schema, 422)
      }),
      setField('widgetType of another type', W.schema, 422, ['widgetType'], fc.constantFrom(...WIDGET_TYPES.filter((t) => t !== type))),
      setField('widgetType unsupported', W.schema, 422, ['widgetType'], fc.oneof(fc.constantFrom('CLOCK', 'announcements', '', 'ANNOUNCEMENTS ', 7, null), anyText(20).map((s) => `${MARKER}${s}`))),
      setField('writeMode', W.schema, 422, ['writeMode'], fc.constantFrom<unknown>('PATCH', 'replace_snapshot', '', null, 1, 'MERGE')),
      setField('data.schemaVersion', W.schema, 422, ['data', 'schemaVersion'], fc.constantFrom<unknown>(1, 3, '2', 2.5, null, 0)),
      ...['pushVersion', 'widgetType', 'writeMode', 'data'].map((f) => removeField(`no ${f}`, W.schema, 422, [f])),
      removeField('no data.schemaVersion', W.schema, 422, ['data', 'schemaVersion']),
      removeField('no data.items', W.schema, 422, ['data', 'items']),
      removeField('no item id', W.schema, 422, [...item, 'id']),
      setField('data is not an object', W.schema, 422, ['data'], fc.constantFrom<unknown>([], 'data', 1, null)),
      setField('items is not an array', W.schema, 422, ['data', 'items'], fc.constantFrom<unknown>({}, 'items', 1, null)),
      setField('an item is not an object', W.schema, 422, [...item], fc.constantFrom<unknown>([], 'item', 1, null, true)),
      unknownField('unknown envelope property', W.schema, 422, []),
      unknownField('unknown data property', W.schema, 422, ['data']),
      unknownField('unknown item property', W.schema, 422, item),
      unknownField('unknown source property', W.schema, 422, ['source']),
      fc.tuple(fc.constantFrom(...ITEM_TEXT[type]), html).map(([field, value]) => (d: Draft) => {
        if (set(d, [...item, field], value)) defect(d, `HTML in items/0/${field}`, W.schema, 422)
      }),
      fc.tuple(fc.constantFrom(...ITEM_TEXT[type]), fc.string({ minLength: 201, maxLength: 3000 })).map(([field, s]) => (d: Draft) => {
        if (set(d, [...item, field], `${MARKER}${s}`)) defect(d, `items/0/${field} over 200 characters`, W.schema, 422)
      }),
      setField('empty item id', W.schema, 422, [...item, 'id'], fc.constant('')),
      badDateTimes.map((value) => (d: Draft) => {
        if (set(d, [...item, ITEM_DATE[type]], value)) defect(d, `items/0/${ITEM_DATE[type]} = ${JSON.stringify(value)}`, W.schema, 422)
      }),
      fc.constant((d: Draft) => {
        const items = at(d.value, ['data', 'items'])
        if (!Array.isArray(items) || items.length === 0) return
        const first = items[0]
        const over = MAX_ITEMS[type] + 1
        ;(at(d.value, ['data']) as Record<string, unknown>).items = Array.from({ length: over }, (_, i) => (isObject(first) ? { ...first, id: `i-${i}` } : first))
        defect(d, `${over} items`, W.schema, 422)
      }),
      fc.constant((d: Draft) => {
        const items = at(d.value, ['data', 'items'])
        if (!Array.isArray(items) || items.length < 2 || !isObject(items[0]) || !isObject(items[1])) return
        items[1].id = items[0].id
        defect(d, 'duplicate item ids', W.schema, 422)
      }),
      setField('source.sequence', W.schema, 422, ['source', 'sequence'], fc.constantFrom<unknown>(-1, 1.5, '5', null, true, MAX_SAFE + 1, 2 ** 64)),
      fc.constantFrom('1e400', '9007199254740993', '-0.5').map((literal) => (d: Draft) => {
        if (set(d, ['source', 'sequence'], rawNumber(d, literal))) defect(d, `source.sequence = ${literal}`, W.schema, 422)
      }),
      setField('source.eventId', W.schema, 422, ['source', 'eventId'], fc.oneof(fc.constant(''), html, fc.string({ minLength: 201, maxLength: 500 }).map((s) => `${MARKER}${s}`))),
      setField('source.generatedAt', W.schema, 422, ['source', 'generatedAt'], badDateTimes),
      setField('source is not an object', W.schema, 422, ['source'], fc.constantFrom<unknown>('src', 1, [], null)),
      ...(type === 'ANNOUNCEMENTS'
        ? [
            setField('imageUrl', W.schema, 422, [...item, 'imageUrl'], fc.constantFrom('http://example.org/a.png', 'ftp://x/y', '//x/y', 'https://', 'javascript:alert(1)', `https://ex.org/${MARKER}é`)),
            setField('displaySeconds', W.schema, 422, [...item, 'displaySeconds'], fc.constantFrom<unknown>(4, 301, 10.5, '10', -1)),
            setField('priority', W.schema, 422, [...item, 'priority'], fc.constantFrom('CRITICAL', 'normal', '', 'LOW ')),
            fc.constant((d: Draft) => {
              if (set(d, [...item, 'startsAt'], '2026-11-25T10:00:00Z') && set(d, [...item, 'endsAt'], '2026-11-25T09:59:59.999Z')) defect(d, 'endsAt before startsAt', W.schema, 422)
            }),
            setField('item body over 1000', W.schema, 422, [...item, 'body'], fc.string({ minLength: 1001, maxLength: 2000 }).map((s) => `${MARKER}${s}`)),
          ]
        : []),
      ...(type === 'TODAYS_SCHEDULE'
        ? [
            setField('date', W.schema, 422, ['data', 'date'], fc.constantFrom('2026-02-30', '2026-13-01', '25-11-2026', '2026-11-25T00:00:00Z', '', '2026-1-5')),
            fc.constant((d: Draft) => {
              if (set(d, [...item, 'endAt'], '2026-11-25T09:00:00+01:00') && set(d, [...item, 'startAt'], '2026-11-25T10:00:00+01:00')) defect(d, 'endAt before startAt', W.schema, 422)
            }),
            setField('status', W.schema, 422, [...item, 'status'], fc.constantFrom('DONE', 'scheduled', '', 'POSTPONED')),
          ]
        : []),
      ...(type !== 'ANNOUNCEMENTS'
        ? [setField('timezone', W.schema, 422, ['data', 'timezone'], fc.constantFrom('+02:00', 'GMT+2', 'UTC+1', 'Mars/Olympus', '', 'Europe/Berlin/Extra', `${MARKER}`))]
        : [setField('timezone', W.schema, 422, ['data', 'timezone'], fc.constantFrom('+02:00', 'GMT+2', 'Mars/Olympus', ''))]),
      setField('locale', W.schema, 422, ['data', 'locale'], fc.constantFrom('en_US', '', '123', 'en-', '--', `${MARKER}`)),
      ...(type === 'TRANSPORT_BOARD'
        ? [
            fc.constant((d: Draft) => {
              if (!set(d, [...item, 'status'], 'DELAYED')) return
              remove(d, [...item, 'estimatedAt'])
              defect(d, 'DELAYED without estimatedAt', W.schema, 422)
            }),
            fc.constant((d: Draft) => {
              if (set(d, [...item, 'direction'], 'ARRIVAL')) defect(d, 'ARRIVAL without origin', W.schema, 422)
            }),
            setField('line colour', W.schema, 422, [...item, 'line', 'color'], fc.constantFrom('red', '#FFF', '#GGGGGG', 'DA291C', '#DA291C00')),
            removeField('no line.shortName', W.schema, 422, [...item, 'line', 'shortName']),
          ]
        : []),
    ] as ([string, fc.Arbitrary<Op>] | fc.Arbitrary<Op>)[]).map((x, i) => (Array.isArray(x) ? on(x[0], x[1]) : on(`body:${i}`, x)))
    return fc.tuple(
      chooseOps(ops),
      noise,
      fc.integer({ min: 0, max: MAX_SAFE }),
      fc.oneof(fc.constant(null), headerString(8, 180)),
      fc.boolean(),
    ).map(([chosen, n, sequence, key, viaHeader]) => {
      const d: Draft = {
        headers: { 'content-type': 'application/json', ...(viaHeader ? { 'x-service-api-key': ctx.workspaceKey } : { authorization: `Bearer ${ctx.workspaceKey}` }), 'idempotency-key': key },
        value: {
          pushVersion: 1,
          widgetType: type,
          writeMode: 'REPLACE_SNAPSHOT',
          // Every widget was seeded with sequence 2^53 − 1: a case without a defect would still be 409 STALE_SOURCE_SEQUENCE.
          source: { eventId: 'fuzz', sequence },
          data: DATA_BY_TYPE[type](2),
        },
        raw: [],
        textOps: [],
        byteOps: [],
        defects: [{ name: 'stale sequence (the safety net)', stage: W.sequence, statuses: [409] }],
      }
      for (const op of chosen) op(d)
      if (d.defects.length === 1) unknownFieldFallback(d, W.schema, 422)
      const correlationId = applyNoise(d, n)
      return finish(`POST widgets/${type}`, 'POST', widgetPushPath(IDS.fuzzWidgets[type]), d, WIDGET_LIMIT, correlationId)
    })
  })
}

// ───────────────────────────── prayer month push ─────────────────────────────

const P = { size: 0, contentType: 1, sourcePattern: 2, credential: 3, access: 4, keyFormat: 6, keyReuse: 7, json: 8, schema: 9 }
const PRAYERS = ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'] as const
const periods = fc.tuple(fc.integer({ min: 2025, max: 2027 }), fc.integer({ min: 1, max: 12 })).map(([y, m]) => `${y}-${String(m).padStart(2, '0')}`)

function monthCase(ctx: FuzzContext): fc.Arbitrary<FuzzCase> {
  const day = fc.integer({ min: 0, max: 27 })
  const ops: fc.Arbitrary<Targeted>[] = ([
    ['content-type', fc.constantFrom<string | null>(null, 'text/plain', 'application/x-www-form-urlencoded', 'text/json', '').map((ct) => (d: Draft) => {
      d.headers['content-type'] = ct
      defect(d, `Content-Type ${ct}`, P.contentType, 400)
    })],
    ['idempotency-key', fc.oneof(fc.constant<string | null>(null), fc.constant(''), printable(1, 11), printable(161, 400),
      fc.tuple(printable(6, 20), fc.constantFrom('é', '\t', 'ÿ', '\u00a0'), printable(6, 20)).map(([a, b, c]) => a + b + c)).map((key) => (d: Draft) => {
      d.headers['idempotency-key'] = key
      defect(d, `Idempotency-Key ${JSON.stringify(key)?.slice(0, 24)}`, P.keyFormat, 400)
    })],
    // The used key's month is of a period no generated body has: other bytes.
    ['idempotency-key', fc.constant((d: Draft) => {
      d.headers['idempotency-key'] = ctx.usedMonthKey
      defect(d, 'Idempotency-Key reused with other bytes', P.keyReuse, 409)
    })],
    ['credential', fc.constant((d: Draft) => {
      d.headers.authorization = `Bearer ${ctx.workspaceKey}`
      d.headers['x-service-api-key'] = ctx.workspaceKey
      defect(d, 'both credential headers', P.credential, 400)
    })],
    ['bytes', jsonDefects(P.json)],
    ['bytes', shapeDefects(P.json, P.schema, 422)],
    setField('period', P.schema, 422, ['period'], fc.constantFrom<unknown>('2026-13', '1899-12', '2101-01', '26-11', '2026-1', '2026-00', '', 202611, null)),
    setField('timezone', P.schema, 422, ['timezone'], fc.constantFrom<unknown>('Europe/Paris', 'europe/london', '', 'UTC', '+00:00', null)),
    ...['period', 'timezone', 'days'].map((f) => removeField(`no ${f}`, P.schema, 422, [f])),
    setField('days is not an array', P.schema, 422, ['days'], fc.constantFrom<unknown>({}, 'days', null, 30)),
    fc.constantFrom('drop the last day', 'add a day', 'no days', 'swap two days').map((how) => (d: Draft) => {
      const days = at(d.value, ['days'])
      if (!Array.isArray(days) || days.length < 2) return
      if (how === 'drop the last day') days.pop()
      if (how === 'add a day') days.push({ ...(days[days.length - 1] as object) })
      if (how === 'no days') days.length = 0
      if (how === 'swap two days') [days[0], days[1]] = [days[1], days[0]]
      defect(d, how, P.schema, 422)
    }),
    fc.tuple(day, fc.constantFrom(...PRAYERS), fc.constantFrom<unknown>('24:00', '7:05', '12:60', '', '1200', 1200, null, '12:00:00', '12h00')).map(([i, prayer, value]) => (d: Draft) => {
      if (set(d, ['days', i, prayer], value)) defect(d, `days/${i}/${prayer} = ${JSON.stringify(value)}`, P.schema, 422)
    }),
    fc.tuple(day, fc.integer({ min: 0, max: 4 })).map(([i, k]) => (d: Draft) => {
      const entry = at(d.value, ['days', i])
      if (!isObject(entry)) return
      const a = PRAYERS[k]!
      const b = PRAYERS[k + 1]!
      ;[entry[a], entry[b]] = [entry[b], entry[a]]
      defect(d, `days/${i}: ${a} after ${b}`, P.schema, 422)
    }),
    fc.tuple(day, fc.constantFrom('before its adhan', 'missing isha')).map(([i, how]) => (d: Draft) => {
      const iqamah = at(d.value, ['days', i, 'iqamah'])
      if (!isObject(iqamah)) return
      if (how === 'before its adhan') iqamah.dhuhr = '00:01'
      else delete iqamah.isha
      defect(d, `days/${i}/iqamah ${how}`, P.schema, 422)
    }),
    fc.constant((d: Draft) => {
      const days = at(d.value, ['days'])
      if (!Array.isArray(days)) return
      const i = days.findIndex((x) => isObject(x) && !('jumuah' in x))
      if (i < 0 || !isObject(days[i])) return
      ;(days[i] as Record<string, unknown>).jumuah = [{ iqamah: '13:00' }]
      defect(d, `jumuah on a non-Friday (days/${i})`, P.schema, 422)
    }),
    fc.constant((d: Draft) => {
      const days = at(d.value, ['days'])
      if (!Array.isArray(days)) return
      const i = days.findIndex((x) => isObject(x) && 'jumuah' in x)
      if (i < 0) return
      ;(days[i] as Record<string, unknown>).jumuah = [{ iqamah: '13:00' }, { iqamah: '13:30' }, { iqamah: '14:00' }, { iqamah: '14:30' }]
      defect(d, 'four jumuah sessions', P.schema, 422)
    }),
    fc.tuple(day, fc.constantFrom<[string, unknown]>(['year', 1200], ['month', 13], ['day', 31], ['day', 0], ['year', '1448'], ['month', 1.5])).map(([i, [field, value]]) => (d: Draft) => {
      if (set(d, ['days', i, 'hijri', field], value)) defect(d, `days/${i}/hijri/${field} = ${JSON.stringify(value)}`, P.schema, 422)
    }),
    fc.constantFrom<[string, unknown]>(['fajrAngle', 0], ['fajrAngle', 31], ['ishaAngle', '18'], ['hijriAdjustmentDays', 3], ['ishaIntervalMinutes', 301], ['ishaIntervalMinutes', 1.5],
      ['asrSchool', 'SHAFI'], ['method', ''], ['method', 'x'.repeat(65)], ['method', 'M<b>'], ['highLatitudeRule', ' ANGLE']).map(([field, value]) => (d: Draft) => {
      if (set(d, ['calculation', field], value)) defect(d, `calculation/${field} = ${JSON.stringify(value).slice(0, 20)}`, P.schema, 422)
    }),
    unknownField('unknown top-level property', P.schema, 422, []),
    fc.tuple(day, unknownName).map(([i, key]) => (d: Draft) => {
      const entry = at(d.value, ['days', i])
      if (!isObject(entry)) return
      Object.defineProperty(entry, key, { value: 1, enumerable: true, configurable: true, writable: true })
      defect(d, `unknown property in days/${i}`, P.schema, 422)
    }),
    unknownField('unknown calculation property', P.schema, 422, ['calculation']),
    removeField('no date in days/0', P.schema, 422, ['days', 0, 'date']),
    fc.string({ minLength: 1, maxLength: 40 }).map((s) => (d: Draft) => {
      if (set(d, ['days', 3, 'date'], `${MARKER}${s}`)) defect(d, 'days/3/date not a date', P.schema, 422)
    }),
  ] as ([string, fc.Arbitrary<Op>] | fc.Arbitrary<Op>)[]).map((x, i) => (Array.isArray(x) ? on(x[0], x[1]) : on(`body:${i}`, x)))
  return fc.tuple(
    chooseOps(ops),
    noise,
    periods,
    printable(12, 160),
    fc.oneof(
      { weight: 9, arbitrary: fc.constant<string | null>(null) },
      { weight: 1, arbitrary: fc.oneof(
        fc.constantFrom('psrc_short', 'src_reliability-0001-central', 'psrc_reliability_0001_central', 'psrc_' + 'a'.repeat(19), 'psrc_%C3%A9' + 'a'.repeat(20), '%00', 'psrc_reliability-0001-central%2F..'),
        fc.stringMatching(/^psrc_[A-Za-z0-9-]{20,40}$/),
      ) },
    ),
  ).map(([chosen, n, period, key, source]) => {
    const d: Draft = {
      headers: { authorization: `Bearer ${ctx.workspaceKey}`, 'content-type': 'application/json', 'idempotency-key': key },
      value: makeMonth(period),
      raw: [],
      textOps: [],
      byteOps: [],
      defects: [],
    }
    for (const op of chosen) op(d)
    let path = monthsPath(IDS.source)
    if (source !== null) {
      path = `/api/public/v1/prayer-schedules/sources/${source}/months`
      if (/^psrc_[A-Za-z0-9-]{20,}$/.test(source)) defect(d, 'unknown source', P.access, 403)
      else defect(d, `source ID ${source.slice(0, 30)}`, P.sourcePattern, 400)
    }
    if (d.defects.length === 0) unknownFieldFallback(d, P.schema, 422)
    const correlationId = applyNoise(d, n)
    return finish('POST prayer months', 'POST', path, d, MONTH_LIMIT, correlationId)
  })
}

// ───────────────────────────── reads ─────────────────────────────

/** Percent-encodes every UTF-8 byte (lone surrogates included, which encodeURIComponent refuses). */
const pct = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('')

const pathSegment = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
  anyText(30).filter((s) => s.length > 0).map(pct),
  fc.constantFrom('..', '.', '%2e%2e', '%2F', '%00', '%ff%fe', 'tkt_', 'a'.repeat(2000), '%E0%A4%A', '%', '%%', '%zz', ';', '$', '%22'),
)

function readCase(ctx: FuzzContext): fc.Arbitrary<FuzzCase> {
  const queueAuth = { authorization: `Bearer ${ctx.queueKey}` }
  const workspaceAuth = { authorization: `Bearer ${ctx.workspaceKey}` }
  const displayAuth = { authorization: `Bearer ${ctx.displayToken}` }
  const targets: fc.Arbitrary<[string, string, Record<string, string>]>[] = [
    fc.constant(['GET queue/services', `${QUEUE}/services`, queueAuth]),
    fc.constant(['GET queue/state', `${QUEUE}/state`, queueAuth]),
    fc.oneof(fc.constantFrom(...ctx.ticketIds), pathSegment).map((id) => ['GET queue/tickets/{id}', `${QUEUE}/tickets/${id}`, queueAuth]),
    fc.tuple(fc.oneof(fc.constant(IDS.source), pathSegment), fc.oneof(fc.constant(ctx.storedPeriod), periods, pathSegment))
      .map(([source, period]) => ['GET prayer months/{period}', `/api/public/v1/prayer-schedules/sources/${source}/months/${period}`, workspaceAuth]),
    fc.oneof(fc.constantFrom(...Object.values(IDS.fuzzWidgets)), pathSegment).map((id) => ['GET display widgets/{id}', `/api/display/v1/widgets/${id}`, displayAuth]),
    fc.tuple(fc.oneof(fc.constant(IDS.source), pathSegment), fc.oneof(fc.constant(ctx.storedPeriod), pathSegment))
      .map(([source, period]) => ['GET display months/{period}', `/api/display/v1/prayer-schedules/sources/${source}/months/${period}`, displayAuth]),
    fc.oneof(fc.constant(IDS.source), pathSegment).map((source) => ['GET display today', `/api/display/v1/prayer-schedules/sources/${source}/today`, displayAuth]),
    ...(ctx.displayQueueState
      ? [fc.oneof(fc.constant(IDS.unit), pathSegment).map((id): [string, string, Record<string, string>] => ['GET display queue state', `/api/display/v1/queue-units/${id}/state`, displayAuth])]
      : []),
  ]
  const query = fc.oneof(
    fc.constant(''),
    fc.array(fc.tuple(anyText(10), anyText(30)), { maxLength: 4 }).map((pairs) => '?' + pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&')),
    fc.constantFrom('?location=loc_hall', '?token=', '?token=lbd_wrong', '?%zz=1', '?a=%E0%A4%A', '?' + 'q'.repeat(4000), '?x=1&x=2&x=3'),
  )
  return fc.tuple(
    fc.oneof(...targets),
    query,
    noise,
    fc.oneof(fc.constant(undefined), fc.constantFrom('*', '"x"', 'W/"1"', '', '"' + 'e'.repeat(500) + '"')),
    fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  ).map(([[route, path, auth], q, n, ifNoneMatch, dropAuth]) => {
    const d: Draft = { headers: { ...(dropAuth ? {} : auth), ...(ifNoneMatch !== undefined ? { 'if-none-match': ifNoneMatch } : {}) }, value: undefined, raw: [], textOps: [], byteOps: [], defects: [] }
    const correlationId = applyNoise(d, n)
    return finish(route, 'GET', path + q, d, Infinity, correlationId)
  })
}

/** The seeded cases: ticket issue 30 %, widget push 30 %, month push 20 %, reads 20 %. */
export function fuzzCases(ctx: FuzzContext, seed: number, count: number): FuzzCase[] {
  const arbitrary = fc.oneof(
    { weight: 3, arbitrary: ticketCase(ctx) },
    { weight: 3, arbitrary: widgetCase(ctx) },
    { weight: 2, arbitrary: monthCase(ctx) },
    { weight: 2, arbitrary: readCase(ctx) },
  )
  return fc.sample(arbitrary, { seed, numRuns: count })
}
