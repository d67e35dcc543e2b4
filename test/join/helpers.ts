import { ClientAddresses, type Client } from '../../src/platform/client-address'
import type { ProvisioningFile } from '../../src/provisioning/model'
import { queueContext, mainUnit, type QueueTestContext } from '../queue/helpers'

export const JOIN = '/join/loc_hall'
export const ORIGIN = 'http://localhost'

/**
 * The peer address of a request handed to the app directly (no Bun server): the test names it
 * in `x-test-peer`, and the real attribution rule runs on it (trusted proxies and all).
 */
export class TestPeers extends ClientAddresses {
  override of(request: Request): Client {
    return this.attribute(request, request.headers.get('x-test-peer'))
  }
}

/**
 * The example document with joining on at the main hall (English and Arabic names), and
 * `edit` after that; client addresses from `x-test-peer`.
 */
export function joinContext(edit: (doc: ProvisioningFile) => void = () => {}, trustedProxies: ClientAddresses['trustedProxies'] = [], publicOrigin?: string): QueueTestContext {
  return queueContext((doc) => {
    const unit = mainUnit(doc)
    unit.name = { en: 'Main branch', ar: 'الفرع الرئيسي' }
    unit.defaultLanguage = 'en'
    unit.languages = ['en', 'ar']
    unit.locations![0]!.name = { en: 'Main hall', ar: 'القاعة الرئيسية' }
    unit.locations![0]!.remoteJoin = { enabled: true }
    unit.services![0]!.name = { en: 'Accounts', ar: 'الحسابات' }
    unit.services![1]!.name = { en: 'Loans', ar: 'القروض' }
    edit(doc)
  }, { clients: new TestPeers(trustedProxies), ...(publicOrigin === undefined ? {} : { publicOrigin }) })
}

export interface JoinPostOptions {
  origin?: string | null
  peer?: string
  cookie?: string
  json?: boolean
  headers?: Record<string, string>
  path?: string
}

/** The join page's form POST (or its JSON form), from this server's page and an address. */
export function joinPost(ctx: QueueTestContext, fields: Record<string, string>, options: JoinPostOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': options.json ? 'application/json' : 'application/x-www-form-urlencoded',
    'x-test-peer': options.peer ?? '192.0.2.10',
    ...options.headers,
  }
  if (options.origin !== null) headers.origin = options.origin ?? ORIGIN
  if (options.cookie !== undefined) headers.cookie = options.cookie
  const body = options.json ? JSON.stringify(fields) : new URLSearchParams(fields).toString()
  return ctx.app.handle(new Request(`${ORIGIN}${options.path ?? JOIN}`, { method: 'POST', headers, body }))
}

export function joinGet(ctx: QueueTestContext, path = JOIN, headers: Record<string, string> = {}): Promise<Response> {
  return ctx.app.handle(new Request(`${ORIGIN}${path}`, { headers: { 'x-test-peer': '192.0.2.10', ...headers } }))
}

/** The `name=value` of a response's Set-Cookie, for the next request's Cookie header. */
export function cookieOf(response: Response): string {
  const header = response.headers.get('set-cookie')
  if (header === null) throw new Error('no Set-Cookie')
  return header.split(';')[0]!
}

/** The `data-code` a refusal page names. */
export function pageCode(html: string): string | null {
  return /data-code="([A-Z_]+)"/.exec(html)?.[1] ?? null
}

export const ticketRows = (ctx: QueueTestContext) =>
  ctx.db.$client.query('SELECT id, source, credential_id AS credentialId, tracking_code AS trackingCode, language, status FROM tickets ORDER BY created_at, id').all() as
    { id: string; source: string; credentialId: string | null; trackingCode: string; language: string | null; status: string }[]
