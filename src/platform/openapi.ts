import { Elysia, type AnyElysia, type DocumentDecoration } from 'elysia'
import swaggerBundlePath from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }
import swaggerCssPath from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' }
import { CommonCodes, CommonErrorExamples, type ErrorDetail } from './errors'
import { DETAIL_RULES } from './detail-rules'
import { keptResponse } from './http'
import { keptBody, type KeptBody } from './compression'

/*
 * The OpenAPI document (contract §15). Route files say what a route is through `routeDetail`
 * (operationId, headers, bodies and responses with their names and examples, error codes by
 * status); `buildDocument` turns Elysia's generated paths into the document an integrator codes
 * against: named component schemas, one error schema per operation whose `error.code` is the
 * enum of exactly the codes the route declares, documented headers merged over Elysia's
 * parameters, and the websocket moved out of `paths` into `x-websockets`.
 */

const ASSETS = '/swagger/assets'
const LOBBY = 'x-lobby'

/** Names of the security schemes; routes reference them in `detail.security`. */
export const Security: Record<'queueBearer' | 'operator' | 'workspace' | 'displayToken' | 'display' | 'deviceCookie' | 'sessionCookie' | 'operatorOrSession' | 'metrics' | 'hqSession', Record<string, string[]>[]> = {
  queueBearer: [{ queueBearer: [] }],
  /** The operator API: a Queue key, or a paired desk's cookie (contract §7). */
  operator: [{ queueBearer: [] }, { deviceCookie: [] }],
  workspace: [{ workspaceBearer: [] }, { workspaceHeader: [] }],
  displayToken: [{ displayToken: [] }],
  /**
   * Display feeds: a display token (as a bearer, or as `?token=` for screens and websockets that
   * cannot set a header), or a paired display's (or desk's) cookie (contract §7).
   */
  display: [{ displayToken: [] }, { displayTokenQuery: [] }, { deviceCookie: [] }],
  deviceCookie: [{ deviceCookie: [] }],
  /** A signed-in person's browser (contract §16). */
  sessionCookie: [{ sessionCookie: [] }],
  /** The operator API's credentials or a signed-in manager's or admin's browser (the staff report, contract §16). */
  operatorOrSession: [{ queueBearer: [] }, { deviceCookie: [] }, { sessionCookie: [] }],
  /** `/metrics`: loopback callers need nothing, others the metrics token. */
  metrics: [{}, { metricsToken: [] }],
  /** Head office (contract §26): a signed-in HQ user's browser; only in the `hq serve` document. */
  hqSession: [{ hqSessionCookie: [] }],
}

/** The request headers each scheme reads (CORS preflight lists them). */
export const SECURITY_HEADERS: Record<string, string> = {
  queueBearer: 'authorization',
  workspaceBearer: 'authorization',
  workspaceHeader: 'x-service-api-key',
  displayToken: 'authorization',
  metricsToken: 'authorization',
}

const errorDetailSchema = {
  type: 'object',
  required: ['path', 'message'],
  additionalProperties: false,
  properties: {
    path: { type: 'string', description: 'JSON Pointer into the request body, or a header or parameter name' },
    message: { type: 'string', description: 'The rule broken, in English, for a person reading the API' },
    rule: {
      type: 'string',
      enum: [...DETAIL_RULES],
      description: 'Which rule the value breaks, machine-readable (a page says it in its own language, contract §24); absent where none is named',
    },
    params: {
      type: 'object',
      description: 'The rule\'s particulars: bounds (`min`, `max`), the value refused (`value`, `tag`), the allowed values (`allowed`), the kind of thing referred to (`kind`), a pattern\'s form (`format`); never a JSON Pointer',
      additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'array', items: { type: 'string' } }] },
    },
  },
}

/** The error envelope of contract §2 with `code` as a given schema (a string, or an operation's enum). */
function envelopeSchema(code: unknown, description: string, extra: Record<string, unknown> = {}) {
  return {
    type: 'object',
    description,
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        additionalProperties: false,
        properties: {
          code,
          message: { type: 'string', description: 'Human-readable; may change. Branch on `code`.' },
          details: { type: 'array', items: { $ref: '#/components/schemas/ErrorDetail' } },
          correlationId: { type: 'string', description: 'The X-Correlation-ID of the request; quote it when reporting a problem' },
          ...extra,
        },
      },
    },
  }
}


/** An example error of a code: its message, and `details` when the code lists failing fields. */
export type ErrorExample = string | { message: string; details?: ErrorDetail[] }
/** Example errors by code: each feature keeps one table beside its codes (`errors.ts`). */
export type ErrorExamples = Readonly<Record<string, ErrorExample>>

/** A header, path or query parameter as the route reads it. */
export interface ParameterDoc {
  description: string
  /** A realistic value; Swagger UI fills it in for "Try it out". */
  example: string | number
  /** Headers and queries: true exactly when the server refuses a request without it (path parameters always are). */
  required?: boolean
  schema?: Record<string, unknown>
}

/** One documented response: its description, and its JSON body (a named schema with an example) and headers if any. */
export interface ResponseDoc {
  description: string
  /** The body's media type; JSON unless said. Several when the server sends one of them (each listed with the same schema). */
  mediaType?: string | readonly string[]
  /** The example of each media type when there are several (else `example`). */
  examples?: Record<string, unknown>
  /** The component name of the body schema. */
  name?: string
  schema?: unknown
  example?: unknown
  headers?: Record<string, { description: string; schema: Record<string, unknown>; required?: boolean }>
}

/** What a route file says about a route; `routeDetail` turns it into Elysia's `detail`. */
export interface RouteDoc {
  /** lowerCamelCase verb phrase (`issueTicket`): generated clients name their functions after it, so it never changes. */
  operationId: string
  summary: string
  description?: string
  tags: string[]
  security?: keyof typeof Security
  /** No credential at all (an explicit empty security requirement). */
  public?: boolean
  params?: Record<string, ParameterDoc>
  query?: Record<string, ParameterDoc>
  headers?: Record<string, ParameterDoc>
  /** A JSON request body (required unless `required: false`), its component name and at least one example. */
  body?: {
    name: string
    schema: unknown
    required?: boolean
    description?: string
    examples: Record<string, { summary: string; value: unknown }>
  }
  /** Success (and other non-error) responses by status. */
  responses?: Record<number, ResponseDoc>
  /** Error statuses and the codes each may carry: all answered in the operation's error envelope. */
  errors?: Record<number, readonly string[]>
  /** The example message (and details) of each code in `errors`: the feature's table in its errors.ts. */
  errorExamples?: ErrorExamples
  /** Shapes inside the bodies that get their own component name (the ticket, a widget payload, a prayer day…). */
  schemas?: Record<string, unknown>
  /** More members of the error object than code, message, details and correlationId (an edit conflict's `current`). */
  errorProperties?: Record<string, unknown>
}

/** What `routeDetail` hands the document builder beside the operation (removed from the document). */
interface LobbyExtension {
  parameters: Record<string, unknown>[]
  schemas: Record<string, unknown>
  errorSchema: { name: string; codes: string[]; extra?: Record<string, unknown> }
  websocket?: WebsocketDoc
}

const OPERATION_ID = /^[a-z][a-zA-Z0-9]*$/
const pascal = (operationId: string) => operationId[0]!.toUpperCase() + operationId.slice(1)
/** The component name of an operation's error envelope. */
export const errorSchemaName = (operationId: string) => `${pascal(operationId)}Error`

const correlationHeader = {
  description: 'The caller\'s X-Correlation-ID when valid, else a generated one; also in the logs',
  schema: { type: 'string' },
}
const CORRELATION_EXAMPLE = 'c0ffee-2026-11-25-0930'

function parameter(where: 'header' | 'path' | 'query', name: string, doc: ParameterDoc) {
  return {
    name,
    in: where,
    required: where === 'path' ? true : doc.required === true,
    description: doc.description,
    schema: doc.schema ?? { type: 'string' },
    example: doc.example,
  }
}

/** The envelope an error example shows. */
function errorExampleValue(code: string, example: ErrorExample) {
  const { message, details } = typeof example === 'string' ? { message: example, details: undefined } : example
  return { error: { code, message, ...(details === undefined ? {} : { details }), correlationId: CORRELATION_EXAMPLE } }
}

/**
 * A property of `target` whose value `make` builds when it is first read (then an ordinary
 * property, at the same place among the keys); writing it first just sets it.
 */
function lazyProperty(target: object, key: string | symbol, make: () => unknown): void {
  const settle = (value: unknown) => Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true })
  Object.defineProperty(target, key, {
    get() {
      const value = make()
      settle(value)
      return value
    },
    set(value: unknown) {
      settle(value)
    },
    enumerable: true,
    configurable: true,
  })
}

/**
 * What a route file got wrong in its doc, thrown when its module loads (as the detail itself
 * once was): an operationId that is not lowerCamelCase, a response body without a component
 * name, an error code without an example.
 */
function checkRouteDoc(doc: RouteDoc): void {
  if (!OPERATION_ID.test(doc.operationId)) throw new Error(`operationId must be lowerCamelCase: ${doc.operationId}`)
  for (const status in doc.responses) {
    const response = doc.responses[status as unknown as number]!
    if (response.schema !== undefined && response.name === undefined) throw new Error(`${doc.operationId} ${status}: a response body needs a component name`)
  }
  for (const status in doc.errors) {
    // 500 is always INTERNAL_ERROR (and 503 SERVER_BUSY with a body), whose examples are the platform's.
    if (status === '500' || (status === '503' && doc.body !== undefined)) continue
    for (const code of doc.errors[status as unknown as number]!) {
      if (code === CommonCodes.INTERNAL_ERROR || code === CommonCodes.SERVER_BUSY) continue
      if (doc.errorExamples?.[code] === undefined) throw new Error(`${doc.operationId}: no example for error code ${code} (add it to the feature's errors.ts table)`)
    }
  }
}

/** The `responses` of a route's detail and what it hands the document builder (`LOBBY`). */
function documentParts(doc: RouteDoc): { responses: Record<string, unknown>; extension: LobbyExtension } {
  const schemas: Record<string, unknown> = { ...doc.schemas }
  const responses: Record<string, unknown> = {}
  for (const [status, response] of Object.entries(doc.responses ?? {})) {
    if (response.schema !== undefined) schemas[response.name!] = response.schema
    responses[status] = {
      description: response.description,
      headers: { 'X-Correlation-ID': correlationHeader, ...response.headers },
      ...(response.schema === undefined ? {} : {
        content: Object.fromEntries([response.mediaType ?? 'application/json'].flat().map((mediaType) => {
          const example = response.examples?.[mediaType] ?? response.example
          return [mediaType, { schema: response.schema, ...(example === undefined ? {} : { example }) }]
        })),
      }),
    }
  }

  const codes: string[] = []
  const errorName = errorSchemaName(doc.operationId)
  // Any route can fail unexpectedly (contract §2): 500 INTERNAL_ERROR is one of every operation's
  // codes. A route that reads a body can also be 503 SERVER_BUSY (the process's body budget).
  const errors: Record<number, readonly string[]> = { ...doc.errors, 500: [CommonCodes.INTERNAL_ERROR] }
  if (doc.body !== undefined) errors[503] = [CommonCodes.SERVER_BUSY]
  for (const [status, statusCodes] of Object.entries(errors)) {
    const examples: Record<string, { summary: string; value: unknown }> = {}
    for (const code of statusCodes) {
      const example = code === CommonCodes.INTERNAL_ERROR || code === CommonCodes.SERVER_BUSY ? CommonErrorExamples[code] : doc.errorExamples![code]!
      examples[code] = { summary: code, value: errorExampleValue(code, example) }
      if (!codes.includes(code)) codes.push(code)
    }
    responses[status] = {
      description: `${statusCodes.join(', ')}`,
      headers: {
        'X-Correlation-ID': correlationHeader,
        ...(status === '429' || status === '503' ? { 'Retry-After': { description: 'seconds until a retry can succeed', required: true, schema: { type: 'integer', minimum: 1 } } } : {}),
      },
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorName}` }, examples } },
    }
  }

  const body = doc.body
  if (body !== undefined) schemas[body.name] = body.schema
  const parameters = [
    ...Object.entries(doc.params ?? {}).map(([name, p]) => parameter('path', name, p)),
    ...Object.entries(doc.query ?? {}).map(([name, p]) => parameter('query', name, p)),
    ...Object.entries(doc.headers ?? {}).map(([name, p]) => parameter('header', name, p)),
  ]
  return { responses, extension: { parameters, schemas, errorSchema: { name: errorName, codes, ...(doc.errorProperties === undefined ? {} : { extra: doc.errorProperties }) } } }
}

/**
 * The OpenAPI `detail` of a route: every route file documents its routes through this one helper.
 * Its `responses` (every status with its examples) and the builder's extension are made when the
 * document is first built (/swagger/json, the CORS table), not when the route files load: making
 * them for all ~100 routes took 20–60 ms of every start (issue 37). The detail reads the same
 * either way, keys in the same order.
 */
export function routeDetail(doc: RouteDoc): DocumentDecoration {
  checkRouteDoc(doc)
  const body = doc.body
  const detail = {
    operationId: doc.operationId,
    summary: doc.summary,
    ...(doc.description === undefined ? {} : { description: doc.description }),
    tags: doc.tags,
    // Security's entries are OpenAPI security requirements; Elysia types them more narrowly.
    ...(doc.security === undefined ? {} : { security: Security[doc.security] as unknown as NonNullable<DocumentDecoration['security']> }),
    ...(doc.public === true ? { security: [] } : {}),
    ...(body === undefined ? {} : {
      requestBody: {
        required: body.required ?? true,
        ...(body.description === undefined ? {} : { description: body.description }),
        content: { 'application/json': { schema: body.schema as never, examples: body.examples } },
      },
    }),
  }
  let parts: ReturnType<typeof documentParts> | undefined
  const built = () => (parts ??= documentParts(doc))
  lazyProperty(detail, 'responses', () => built().responses)
  lazyProperty(detail, LOBBY, () => built().extension)
  return detail as DocumentDecoration
}

/** A JSON body in OpenAPI `content` (TypeBox schemas are JSON Schema already). */
export function jsonContent(schema: unknown) {
  return { 'application/json': { schema: schema as never } }
}

/** `GET /health` (contract §2): no credential. */
export const healthDetail = routeDetail({
  operationId: 'checkHealth',
  summary: 'Liveness',
  description: 'Answers 200 while the server runs; no credential.',
  tags: ['Platform'],
  public: true,
  responses: {
    200: {
      description: 'the server is up',
      name: 'HealthResponse',
      schema: { type: 'object', required: ['status'], additionalProperties: false, properties: { status: { type: 'string', enum: ['ok'] } } },
      example: { status: 'ok' },
    },
  },
})

/** A websocket route: described in the document's `x-websockets`, never as an operation in `paths` (contract §15). */
export interface WebsocketDoc {
  summary: string
  description: string
  tags: string[]
  security: keyof typeof Security
  query: Record<string, ParameterDoc>
  /** Messages each way: JSON Schemas with examples. */
  clientMessages: Record<string, { schema: unknown; example: unknown }>
  serverMessages: Record<string, { schema: unknown; example: unknown }>
  closeCodes: Record<number, string>
}

export function websocketDetail(doc: WebsocketDoc): DocumentDecoration {
  return { [LOBBY]: { parameters: [], schemas: {}, errorSchema: { name: '', codes: [] }, websocket: doc } } as DocumentDecoration
}

// ---------------------------------------------------------------- the document

type Json = Record<string, unknown>
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

/** A plain JSON copy: TypeBox's symbol keys and undefined values gone. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value))

/**
 * Replaces every schema in `node` that equals a named schema (same JSON, keys in any order)
 * by a `$ref` to its component. Works bottom-up, so a named schema inside another is matched
 * first and the outer one is compared in its reduced form. `self` is not replaced at the top.
 */
class SchemaNamer {
  private readonly byCanon = new Map<string, string>()
  readonly components: Record<string, unknown> = {}

  constructor(named: Record<string, unknown>) {
    // Smaller first: a named schema can only contain smaller ones.
    const entries = Object.entries(named).map(([name, schema]) => [name, plain(schema)] as const)
    entries.sort((a, b) => JSON.stringify(a[1]).length - JSON.stringify(b[1]).length)
    for (const [name, schema] of entries) {
      const [reduced, canon] = this.reduce(schema, true)
      const taken = this.byCanon.get(canon)
      if (taken !== undefined && taken !== name) throw new Error(`component schemas ${taken} and ${name} are the same shape: name it once`)
      this.byCanon.set(canon, name)
      this.components[name] = reduced
    }
  }

  /** [the node with named schemas replaced, its canonical JSON (before its own replacement)]. */
  reduce(node: unknown, top = false): [unknown, string] {
    if (node === null || typeof node !== 'object') return [node, JSON.stringify(node)]
    if (Array.isArray(node)) {
      const parts = node.map((item) => this.reduce(item))
      return [parts.map((p) => p[0]), `[${parts.map((p) => p[1]).join(',')}]`]
    }
    const out: Json = {}
    const canonParts: string[] = []
    for (const key of Object.keys(node).sort()) {
      const value = (node as Json)[key]
      if (key === 'example' || key === 'examples') {
        out[key] = value
        canonParts.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`)
        continue
      }
      const [reduced, canon] = this.reduce(value)
      out[key] = reduced
      canonParts.push(`${JSON.stringify(key)}:${canon}`)
    }
    const canon = `{${canonParts.join(',')}}`
    const name = top ? undefined : this.byCanon.get(canon)
    return [name === undefined ? out : { $ref: `#/components/schemas/${name}` }, canon]
  }
}

const TAGS = [
  { name: 'Queue', description: 'Public Queue API: services, ticket issue and read, live state (Queue key `lbq_…`).' },
  { name: 'Widgets', description: 'Widget data push: whole snapshots of a widget (workspace key `lbw_…`).' },
  { name: 'Prayer schedules', description: 'Prayer-schedule month push and read (workspace key `lbw_…`).' },
  { name: 'Operator', description: 'Counters and ticket transitions at the branch (Queue key with `counter:operate`).' },
  { name: 'Display feeds', description: 'Read-only feeds for screens (display token `lbd_…`); the live websocket is under `x-websockets`.' },
  { name: 'Devices', description: 'Pairing a browser as a device, and what a paired device reads (device cookie `lobby_device`).' },
  { name: 'Kiosk', description: 'A paired kiosk: its services and ticket issue (device cookie `lobby_device`, contract §9).' },
  { name: 'Phone', description: 'A ticket followed on a phone by its tracking code (no credential: the code is the capability, contract §10).' },
  { name: 'Join', description: 'Joining the queue from a phone at a location with `remoteJoin` (no credential: the public join page, its form and its poster, contract §20).' },
  { name: 'Reports', description: 'Daily figures per location, service and counter (Queue key with `reports:read`, or a paired reports device).' },
  { name: 'Appointments', description: 'Bookable slots, bookings, cancellation and check-in (contract §21): a Queue key with `appointments:write`, a paired desk, or a manager\'s or admin\'s session.' },
  { name: 'Auth', description: 'Staff sign-in: sessions (cookie `lobby_session`) and setting a password with a setup link (contract §16).' },
  { name: 'Live floor', description: 'The manager\'s live view of lines and counters (contract §22): a signed-in manager\'s or admin\'s session cookie; its websocket is under `x-websockets`.' },
  { name: 'Admin', description: 'The administration console\'s API (contract §17): a queue unit\'s configuration and the audit log, by a signed-in admin or manager (cookie `lobby_session` only). Bodies are entities as a provisioning file writes them, with `revision` for optimistic concurrency.' },
  { name: 'Notifications', description: 'SMS, e-mail and web push to customers who opted in (contract §25): the SMS gateway\'s signed replies. The phone page\'s opt-in is under Phone, the settings under Admin.' },
  { name: 'Platform', description: 'Liveness and metrics.' },
  { name: 'Webhooks', description: 'What Lobby sends to a subscribed endpoint (under `webhooks`, not `paths`): ticket events, signed with the endpoint\'s `lbh_…` secret.' },
]

/**
 * What the document holds besides the routes: the OpenAPI 3.1 `webhooks` (requests Lobby
 * sends, described by their feature and handed in by the app) and the named schemas they use.
 */
export interface DocumentExtras {
  webhooks?: Record<string, unknown>
  schemas?: Record<string, unknown>
  /** Another server's document (`hq serve`, contract §26): its own title, description, tags and security schemes. */
  info?: { title: string; description: string }
  tags?: { name: string; description: string }[]
  securitySchemes?: Record<string, unknown>
}

const DESCRIPTION = `Queue API, widget data push, prayer-schedule month push, operator API and display feeds of a Lobby branch server.

Every error is \`{"error": {"code", "message", "details"?, "correlationId"}}\`; each operation's error schema
(\`<OperationId>Error\`) lists exactly the codes it answers with, so a client can branch on \`error.code\` exhaustively.
Every response carries \`X-Correlation-ID\`. The display websocket (\`/api/display/v1/live\`) is described in
\`x-websockets\` at the root of this document, not as an operation.

**Try it out**: click *Authorize* and paste a key. On ticket issue, leave the example values of
X-Request-Timestamp, X-Request-Nonce and Idempotency-Key as they are: this page replaces them with a
fresh timestamp, nonce and key when it sends the request (another client must send fresh values itself).`

/** Builds the document from the app's routes. */
export function buildDocument(app: AnyElysia, version: string, extras: DocumentExtras = {}): Json {
  // Required here, not imported at the top: the generator is needed by the first document
  // built (/swagger/json, the CORS table), not by every start (~0.8 MiB and ~3 ms; issue 37).
  const { toOpenAPISchema } = require('@elysiajs/openapi') as typeof import('@elysiajs/openapi')
  const generated = toOpenAPISchema(app, { paths: [/^\/swagger/] }, undefined, undefined, '3.1.0') as unknown as { paths: Record<string, Json> }
  const paths: Record<string, Json> = {}
  const named: Record<string, unknown> = {}
  const errorSchemas: Record<string, unknown> = {}
  const websockets: Record<string, unknown> = {}

  for (const [path, item] of Object.entries(generated.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      const operation = { ...(raw as Json) }
      const extension = operation[LOBBY] as LobbyExtension | undefined
      delete operation[LOBBY]
      if (extension?.websocket !== undefined) {
        websockets[path] = websocketEntry(extension.websocket)
        continue
      }
      if (!HTTP_METHODS.has(method)) continue
      if (extension !== undefined) {
        Object.assign(named, extension.schemas)
        // Documented parameters replace the ones Elysia generated from the route's schemas.
        const documented = extension.parameters as { name: string; in: string }[]
        const key = (p: { name: string; in: string }) => `${p.in}:${p.name.toLowerCase()}`
        const keys = new Set(documented.map(key))
        const kept = ((operation.parameters as { name: string; in: string }[] | undefined) ?? []).filter((p) => !keys.has(key(p)))
        const parameters = [...documented, ...kept]
        if (parameters.length > 0) operation.parameters = parameters
        else delete operation.parameters
        {
          errorSchemas[extension.errorSchema.name] = envelopeSchema(
            { type: 'string', enum: extension.errorSchema.codes, description: `Every code ${operation.operationId} answers with; branch on it` },
            `The errors of ${operation.operationId}: the envelope of contract §2 with \`code\` one of these.`,
            extension.errorSchema.extra,
          )
        }
      }
      ;(paths[path] ??= {})[method] = operation
    }
  }

  Object.assign(named, extras.schemas)
  const namer = new SchemaNamer(named)
  const reducedPaths = namer.reduce(plain(paths), true)[0] as Json
  const reducedSockets = namer.reduce(plain(websockets), true)[0] as Json
  const reducedWebhooks = namer.reduce(plain(extras.webhooks ?? {}), true)[0] as Json
  return {
    openapi: '3.1.0',
    info: {
      title: extras.info?.title ?? 'Lobby API',
      version,
      description: extras.info?.description ?? DESCRIPTION,
    },
    servers: [{ url: '/', description: 'this Lobby server' }],
    tags: extras.tags ?? TAGS,
    paths: reducedPaths,
    ...(Object.keys(reducedWebhooks).length > 0 ? { webhooks: reducedWebhooks } : {}),
    components: {
      securitySchemes: extras.securitySchemes ?? {
        queueBearer: { type: 'http', scheme: 'bearer', description: 'Queue API key (lbq_…)' },
        workspaceBearer: { type: 'http', scheme: 'bearer', description: 'Workspace API key (lbw_…)' },
        workspaceHeader: { type: 'apiKey', in: 'header', name: 'x-service-api-key', description: 'Workspace API key (lbw_…); never together with Authorization' },
        displayToken: { type: 'http', scheme: 'bearer', description: 'Read-only display token (lbd_…) as Authorization: Bearer' },
        displayTokenQuery: { type: 'apiKey', in: 'query', name: 'token', description: 'Read-only display token (lbd_…) as `?token=`, for screens and websockets that cannot set a header' },
        deviceCookie: { type: 'apiKey', in: 'cookie', name: 'lobby_device', description: 'A paired device (lbv_…), set by POST /api/devices/v1/pair; state-changing requests need this server\'s Origin' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'lobby_session', description: 'A signed-in person (lbs_…), set by POST /api/auth/v1/sessions; state-changing requests need this server\'s Origin' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'The `--metrics-token` (only for callers other than loopback)' },
      },
      schemas: sortKeys({ ErrorDetail: errorDetailSchema, ...namer.components, ...errorSchemas }),
    },
    'x-websockets': reducedSockets,
  }
}

function sortKeys(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)))
}

function websocketEntry(doc: WebsocketDoc) {
  return {
    summary: doc.summary,
    description: doc.description,
    tags: doc.tags,
    security: Security[doc.security],
    parameters: Object.entries(doc.query).map(([name, p]) => parameter('query', name, p)),
    clientMessages: doc.clientMessages,
    serverMessages: doc.serverMessages,
    closeCodes: doc.closeCodes,
  }
}

const documents = new WeakMap<AnyElysia, { routes: number; document: Json }>()

/** The document of the app `plugin` belongs to, built once its routes are all there (cached). */
export function documentOf(plugin: AnyElysia, version: string, extras: DocumentExtras = {}): Json {
  // The routes of the whole app this plugin was added to (Elysia keeps them protected; @elysiajs/openapi reads them the same way).
  const routes = (plugin as unknown as { getGlobalRoutes(): unknown[] }).getGlobalRoutes().length
  const cached = documents.get(plugin)
  if (cached !== undefined && cached.routes === routes) return cached.document
  const document = buildDocument(plugin, version, extras)
  documents.set(plugin, { routes, document })
  return document
}

// ---------------------------------------------------------------- Swagger UI

/**
 * Headers whose documented example Swagger UI replaces with a fresh value when it sends a
 * request: a ticket issue needs a current timestamp and a new nonce every time.
 */
export const FRESH_HEADER_EXAMPLES = {
  'X-Request-Timestamp': '2026-11-25T09:30:00Z',
  'X-Request-Nonce': 'replaced-by-swagger-ui-0001',
  'Idempotency-Key': 'replaced-by-swagger-ui-0001',
} as const

/** Swagger UI's start: the document, and a request interceptor that fills the fresh headers. */
const swaggerInit = `'use strict';
(function () {
  var FRESH = ${JSON.stringify(FRESH_HEADER_EXAMPLES)};
  function random() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }
  function fresh(name) {
    return name.toLowerCase() === 'x-request-timestamp' ? new Date().toISOString() : random();
  }
  window.addEventListener('load', function () {
    window.ui = SwaggerUIBundle({
      url: '/swagger/json',
      dom_id: '#swagger-ui',
      deepLinking: true,
      persistAuthorization: false,
      requestInterceptor: function (request) {
        var headers = request.headers || {};
        Object.keys(headers).forEach(function (name) {
          Object.keys(FRESH).forEach(function (documented) {
            if (name.toLowerCase() === documented.toLowerCase() && headers[name] === FRESH[documented]) headers[name] = fresh(name);
          });
        });
        return request;
      },
    });
  });
})();
`

const swaggerPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lobby API</title>
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script src="${ASSETS}/swagger-init.js"></script>
</body>
</html>
`

/**
 * Swagger UI's embedded files, read on first use and kept with their compressed forms (the
 * bundle is over 1 MB: compressing it per request would cost tens of milliseconds).
 */
const swaggerFiles: Partial<Record<'bundle' | 'css', Promise<KeptBody>>> = {}
function swaggerFile(name: 'bundle' | 'css', path: string): Promise<KeptBody> {
  return (swaggerFiles[name] ??= Bun.file(path).bytes().then(keptBody))
}

/**
 * OpenAPI 3.1 at /swagger/json and Swagger UI at /swagger, with the UI's script and style
 * served from files embedded in the binary: a branch box has no internet, so no CDN.
 */
export function openapiPlugin(version: string, extras: DocumentExtras = {}) {
  const plugin = new Elysia({ name: 'lobby.openapi' })
  const hidden = { detail: { hide: true } }
  return plugin
    .get(`${ASSETS}/swagger-ui-bundle.js`, async ({ request }) => keptResponse(request, await swaggerFile('bundle', swaggerBundlePath), {
      'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400',
    }), hidden)
    .get(`${ASSETS}/swagger-ui.css`, async ({ request }) => keptResponse(request, await swaggerFile('css', swaggerCssPath), {
      'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=86400',
    }), hidden)
    .get(`${ASSETS}/swagger-init.js`, () => new Response(swaggerInit, {
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' },
    }), hidden)
    // Swagger UI styles itself inline, so its page's CSP says only who may frame it (contract §27).
    .get('/swagger', () => new Response(swaggerPage, { headers: {
      'content-type': 'text/html; charset=utf-8', 'content-security-policy': "frame-ancestors 'self'", 'cross-origin-opener-policy': 'same-origin', 'x-frame-options': 'SAMEORIGIN',
    } }), hidden)
    .get('/swagger/json', () => new Response(JSON.stringify(documentOf(plugin, version, extras)), {
      headers: { 'content-type': 'application/json' },
    }), hidden)
}
