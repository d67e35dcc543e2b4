import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { Formats } from '../../src/widgets/formats'

/*
 * Real responses against the OpenAPI document (contract §15): `capture` wraps an app so every
 * request it answers is recorded, and `ResponseChecker` says, for each recorded exchange,
 * which operation of `/swagger/json` it was and where the response disagrees with it: the
 * status, the media type, a required header, the body (JSON Schema 2020-12, which OpenAPI 3.1
 * schemas are, checked by Ajv), and the credential the request presented (a secret in the
 * query must be a declared security scheme of the operation).
 */

export interface Exchange {
  method: string
  /** Path and query as sent. */
  url: string
  requestHeaders: Headers
  status: number
  headers: Headers
  /** The body as text (a binary body: its bytes as latin-1, only its length matters). */
  body: string
}

type Handler = { handle(r: Request): Promise<Response> }

/** An app whose every answer is recorded in `exchanges` (the caller still gets the whole response). */
export function capture<A extends Handler>(app: A): { app: Handler; exchanges: Exchange[] } {
  const exchanges: Exchange[] = []
  return {
    exchanges,
    app: {
      async handle(request: Request) {
        const url = new URL(request.url)
        const requestHeaders = new Headers(request.headers)
        const response = await app.handle(request)
        const copy = response.clone()
        const bytes = new Uint8Array(await copy.arrayBuffer())
        exchanges.push({
          method: request.method.toLowerCase(),
          url: `${url.pathname}${url.search}`,
          requestHeaders,
          status: response.status,
          headers: response.headers,
          body: new TextDecoder().decode(bytes),
        })
        return response
      },
    },
  }
}

interface Operation {
  operationId: string
  security?: Record<string, string[]>[]
  responses: Record<string, { headers?: Record<string, { required?: boolean }>; content?: Record<string, { schema: unknown }> }>
}

const DOC_ID = 'https://lobby.invalid/swagger.json'

export class ResponseChecker {
  private readonly routes: { method: string; template: string; pattern: RegExp; operation: Operation }[] = []
  private readonly ajv: Ajv2020
  private readonly validators = new Map<unknown, ValidateFunction>()

  constructor(private readonly doc: any) {
    for (const [template, item] of Object.entries<Record<string, Operation>>(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`)
        this.routes.push({ method, template, pattern, operation })
      }
    }
    // Literal paths before templated ones of the same length (`/tickets` before `/{ticketId}`).
    this.routes.sort((a, b) => (a.template.includes('{') ? 1 : 0) - (b.template.includes('{') ? 1 : 0))
    // strict: false — OpenAPI adds keywords JSON Schema does not know (`example`, `discriminator`).
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true })
    addFormats(this.ajv)
    this.ajv.addFormat('binary', true)
    // The formats Lobby's own schemas name (widget payloads), checked as the server checks them.
    for (const format of Object.values(Formats)) this.ajv.addFormat(format.name, { type: 'string', validate: format.check })
    this.ajv.addSchema({ $id: DOC_ID, components: { schemas: doc.components.schemas } })
  }

  /** Every operationId of the document. */
  operationIds(): string[] {
    return this.routes.map((r) => r.operation.operationId).sort()
  }

  /** The operation a request went to, or null (an undocumented path). */
  operationOf(method: string, url: string): { template: string; operation: Operation } | null {
    const path = url.split('?')[0]!
    return this.routes.find((r) => r.method === method && r.pattern.test(path)) ?? null
  }

  /** What is wrong with one exchange ([] when it matches its operation). */
  problems(exchange: Exchange): string[] {
    const found = this.operationOf(exchange.method, exchange.url)
    if (found === null) return [`${exchange.method} ${exchange.url}: no operation in the document`]
    const { operation } = found
    const where = `${operation.operationId} ${exchange.status}`
    const problems: string[] = []
    problems.push(...this.credentialProblems(operation, exchange))
    const response = operation.responses[String(exchange.status)]
    if (response === undefined) return [...problems, `${where}: status not documented (documented: ${Object.keys(operation.responses).join(', ')})`]
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (header.required && !exchange.headers.has(name)) problems.push(`${where}: required header ${name} missing`)
    }
    const contentType = exchange.headers.get('content-type')
    const content = response.content
    if (content === undefined) {
      if (exchange.body !== '') problems.push(`${where}: documented without a body, sent ${exchange.body.length} characters (${contentType})`)
      return problems
    }
    const mediaType = contentType?.split(';')[0]!.trim().toLowerCase() ?? null
    const entry = mediaType === null ? undefined : content[mediaType]
    if (entry === undefined) return [...problems, `${where}: media type ${mediaType} not documented (documented: ${Object.keys(content).join(', ')})`]
    const schema = entry.schema as Record<string, unknown>
    if (schema.format === 'binary') {
      if (exchange.body.length === 0) problems.push(`${where}: empty binary body`)
      return problems
    }
    let value: unknown = exchange.body
    if (mediaType === 'application/json' || mediaType!.endsWith('+json')) {
      try {
        value = JSON.parse(exchange.body)
      } catch {
        return [...problems, `${where}: body is not JSON: ${exchange.body.slice(0, 80)}`]
      }
    }
    const validate = this.validatorOf(schema)
    if (!validate(value)) {
      for (const error of validate.errors ?? []) {
        problems.push(`${where}: body${error.instancePath} ${error.message} ${JSON.stringify(error.params)} (schema ${error.schemaPath})`)
      }
    }
    return problems
  }

  /**
   * A secret the request presented (Authorization, a cookie, an API-key header, `?token=`) must
   * be a way the operation's security requirements name: a client generated from the document
   * only sends what the document declares.
   */
  private credentialProblems(operation: Operation, exchange: Exchange): string[] {
    const requirements = operation.security ?? []
    const schemes = requirements.flatMap((r) => Object.keys(r)).map((name) => this.doc.components.securitySchemes[name])
    const query = new URL(exchange.url, 'http://x').searchParams
    const problems: string[] = []
    for (const name of ['token', 'key', 'api_key', 'access_token']) {
      if (!query.has(name)) continue
      if (!schemes.some((s) => s.type === 'apiKey' && s.in === 'query' && s.name === name)) {
        problems.push(`${operation.operationId}: the request's ?${name}= was accepted (status ${exchange.status}) but no security scheme of the operation reads it`)
      }
    }
    return exchange.status === 401 ? [] : problems
  }

  /** Ajv's complaints about `value` against `schema` (a schema of the document: `$ref`s into it resolve). */
  errorsOf(schema: Record<string, unknown>, value: unknown): string[] {
    const validate = this.validatorOf(schema)
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`)
  }

  private validatorOf(schema: Record<string, unknown>): ValidateFunction {
    let validate = this.validators.get(schema)
    if (validate === undefined) {
      // A `$ref` to a component is resolved inside the document; an inline schema's own `$ref`s too.
      const rooted = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`))
      validate = this.ajv.compile(rooted)
      this.validators.set(schema, validate)
    }
    return validate
  }
}
