import { jsonOf, request } from './app'

/** `/swagger/json` of the app with every `$ref` replaced by what it points at (the document has no cycles). */
export async function dereferencedDocument(app: { handle(r: Request): Promise<Response> }): Promise<any> {
  const doc = await jsonOf(await request(app, 'GET', '/swagger/json'))
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolve)
    if (node === null || typeof node !== 'object') return node
    const ref = (node as { $ref?: string }).$ref
    if (typeof ref === 'string') {
      const target = ref.slice(2).split('/').reduce((at: any, key) => at[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc)
      return resolve(target)
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolve(v)]))
  }
  return resolve(doc)
}

/** The `error.code` enum of an operation's error responses (all share its `<OperationId>Error` schema). */
export function errorCodeEnum(operation: any, status: string): string[] {
  return operation.responses[status].content['application/json'].schema.properties.error.properties.code.enum
}
