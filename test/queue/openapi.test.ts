import { describe, expect, test } from 'bun:test'
import { testContext } from '../support/app'
import { dereferencedDocument, errorCodeEnum } from '../support/openapi'
import { QueueCodes } from '../../src/queue/errors'

describe('OpenAPI for the Queue endpoints', () => {
  test('documents all four routes with queueBearer security, their success bodies and every error status', async () => {
    const { app } = testContext()
    const doc = await dereferencedDocument(app)
    const expected: [string, string, string, string[]][] = [
      ['/api/public/v1/queue/services', 'get', '200', ['401', '403', '429']],
      ['/api/public/v1/queue/tickets', 'post', '201', ['400', '401', '403', '409', '413', '422', '429']],
      ['/api/public/v1/queue/tickets/{ticketId}', 'get', '200', ['401', '403', '404', '429']],
      ['/api/public/v1/queue/state', 'get', '200', ['401', '403', '429']],
    ]
    for (const [path, method, success, errors] of expected) {
      const op = doc.paths[path]?.[method]
      expect(op).toBeDefined()
      expect(op.security).toEqual([{ queueBearer: [] }])
      expect(Object.keys(op.responses).sort()).toEqual([success, ...errors, '500', ...(method === 'post' ? ['503'] : [])].sort())
      expect(op.responses[success].content['application/json'].schema.properties.data).toBeDefined()
      for (const status of errors) {
        expect(errorCodeEnum(op, status)).toContain('INTERNAL_ERROR')
        // One example per code of the status, each an envelope with that code.
        const examples = op.responses[status].content['application/json'].examples
        for (const [code, example] of Object.entries(examples)) expect((example as any).value.error.code).toBe(code)
      }
    }
  })

  test('the issue operation documents its body, its headers and each error code by status', async () => {
    const { app } = testContext()
    const op = (await dereferencedDocument(app)).paths['/api/public/v1/queue/tickets'].post
    const body = op.requestBody.content['application/json'].schema
    expect(body.required).toEqual(['locationId', 'serviceId'])
    expect(body.additionalProperties).toBe(false)
    expect(body.properties.locationId.maxLength).toBe(160)
    const headers = op.parameters.filter((p: { in: string }) => p.in === 'header').map((p: { name: string; required: boolean }) => `${p.name.toLowerCase()}:${p.required}`)
    expect(headers).toEqual(expect.arrayContaining(['x-request-timestamp:true', 'x-request-nonce:true', 'idempotency-key:true', 'x-correlation-id:false']))
    expect(op.responses['201'].headers['Idempotent-Replayed']).toBeDefined()
    const codes = (status: string) => op.responses[status].description
    expect(codes('400')).toContain(QueueCodes.REQUEST_TIMESTAMP_OUT_OF_WINDOW)
    expect(codes('403')).toContain(QueueCodes.LOCATION_FORBIDDEN)
    expect(codes('409')).toContain(QueueCodes.QUEUE_UNIT_EDGE_MANAGED)
    expect(codes('409')).toContain(QueueCodes.NONCE_REPLAYED)
    expect(codes('409')).toContain(QueueCodes.IDEMPOTENCY_KEY_REUSED)
  })
})
