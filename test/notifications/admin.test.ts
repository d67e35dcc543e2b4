import { afterEach, describe, expect, test } from 'bun:test'
import { AdminCodes as C } from '../../src/admin/errors'
import { auditOf, call, everythingWritten, expectError, expectOk, sectionContext } from '../admin/section-helpers'
import { smsGateway, smtpServer } from './servers'

/*
 * Contract §25's console section: settings applied as a provisioning document (secrets never
 * shown again, templates checked with their pointers), recent deliveries, a test send.
 */

const stops: (() => unknown)[] = []
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop()
})

describe('console: Notifications', () => {
  test('set, read without secrets, templates refused in words, test sends through the SMTP server and the gateway; admins only', async () => {
    const ctx = await sectionContext()
    const smtp = await smtpServer()
    const gateway = smsGateway({ refuse: 1 })
    stops.push(smtp.stop, gateway.stop)
    const path = '/workspaces/ws_demo/notifications'
    expect((await expectOk(await call(ctx, ctx.admin, 'GET', path))).data).toMatchObject({ workspaceId: 'ws_demo', settings: null, usage: null })
    await expectError(await call(ctx, ctx.manager, 'GET', path), 403, C.ROLE_FORBIDDEN)
    const settings = {
      country: 'GB',
      sms: { url: `${gateway.url}/sms`, headers: { authorization: 'Bearer console-secret-token' }, body: 'To={to}&Body={text}', inboundSecret: 'console-inbound-secret-1' },
      email: { host: '127.0.0.1', port: smtp.port, security: 'none', username: 'lobby', password: 'console-smtp-password', from: 'lobby@branch.example' },
      templates: { ar: { called: '{number}: الشباك {counter}' } },
    }
    const saved = (await expectOk(await call(ctx, ctx.admin, 'PUT', path, { body: settings }))).data
    expect(saved.secretsSet).toEqual({ smsHeaders: ['authorization'], inboundSecret: true, smtpPassword: true })
    expect(saved.usage).toEqual({ smsThisMonth: 0, smsPerMonth: 1000, capReached: false })
    const refused = await expectError(await call(ctx, ctx.admin, 'PUT', path, { body: { ...settings, templates: { en: { called: '{number} {who}' } } } }), 422, C.VALIDATION_FAILED)
    expect(refused.error.details).toEqual([{ path: '/templates/en/called', message: 'unknown variable {who} (this message knows {number}, {counter}, {service}, {location}, {link})', rule: 'template', params: { problem: 'variable', variable: 'who', allowed: ['number', 'counter', 'service', 'location', 'link'] } }])

    // The e-mail reaches the SMTP server; the gateway refuses its first request and the answer says so.
    const mail = (await expectOk(await call(ctx, ctx.admin, 'POST', `${path}/test`, { body: { channel: 'email', to: 'branch.phone@example.com' } }))).data
    expect(mail).toEqual({ sent: true, error: null })
    expect(smtp.mails.map((m) => m.to)).toEqual([['branch.phone@example.com']])
    const sms1 = (await expectOk(await call(ctx, ctx.admin, 'POST', `${path}/test`, { body: { channel: 'sms', to: '07400 123456' } }))).data
    expect(sms1).toEqual({ sent: false, error: 'gateway answered HTTP 503' })
    const sms2 = (await expectOk(await call(ctx, ctx.admin, 'POST', `${path}/test`, { body: { channel: 'sms', to: '07400 123456' } }))).data
    expect(sms2).toEqual({ sent: true, error: null })
    expect(new URLSearchParams(gateway.requests[1]!.body).get('To')).toBe('+447400123456')
    const messages = (await expectOk(await call(ctx, ctx.admin, 'GET', `${path}/messages`))).data
    expect(messages.map((m: any) => [m.kind, m.channel, m.status])).toEqual([['test', 'sms', 'SENT'], ['test', 'sms', 'FAILED'], ['test', 'email', 'SENT']])
    const failures = (await expectOk(await call(ctx, ctx.admin, 'GET', `${path}/messages?failed=true`))).data
    expect(failures.map((m: any) => m.lastError)).toEqual(['gateway answered HTTP 503'])

    expect(auditOf(ctx).map((e) => e.action)).toContain('notifications.create')
    const written = everythingWritten(ctx)
    for (const secret of ['console-secret-token', 'console-inbound-secret-1', 'console-smtp-password', '7400123456', 'branch.phone@example.com']) {
      expect({ secret, found: written.includes(secret) || JSON.stringify(ctx.logs).includes(secret) }).toEqual({ secret, found: false })
    }
  })

  test('a merge patch changes what it names and nothing else: templates, the other channel and every secret keep their values (contract §24)', async () => {
    const ctx = await sectionContext()
    const path = '/workspaces/ws_demo/notifications'
    const settings = {
      country: 'GB',
      sms: { url: 'http://127.0.0.1:9/sms', headers: { authorization: 'Bearer patch-secret-token' }, body: 'To={to}&Body={text}', inboundSecret: 'patch-inbound-secret-1' },
      email: { host: '127.0.0.1', port: 9, security: 'none', username: 'lobby', password: 'patch-smtp-password', from: 'lobby@branch.example' },
      templates: { en: { called: '{number}: please go to {counter}' }, ar: { called: '{number}: الشباك {counter}' } },
    }
    const before = (await expectOk(await call(ctx, ctx.admin, 'PUT', path, { body: settings }))).data
    const patched = (await expectOk(await call(ctx, ctx.admin, 'PATCH', path, { body: { limits: { smsPerMonth: 2000 } } }))).data
    expect(patched.settings).toEqual({ ...before.settings, limits: { ...before.settings.limits, smsPerMonth: 2000 } })
    expect(patched.settings.templates).toEqual(settings.templates)
    expect(patched.secretsSet).toEqual({ smsHeaders: ['authorization'], inboundSecret: true, smtpPassword: true })
    expect(patched.usage.smsPerMonth).toBe(2000)
    // null removes what it names: the SMS gateway goes, e-mail and the templates stay.
    const noSms = (await expectOk(await call(ctx, ctx.admin, 'PATCH', path, { body: { sms: null } }))).data
    expect(noSms.settings.sms).toBeUndefined()
    expect(noSms.settings.email).toEqual(before.settings.email)
    expect(noSms.settings.templates).toEqual(settings.templates)
    expect(noSms.secretsSet.smtpPassword).toBe(true)
    // A refused patch changes nothing, and says where at the patch's own pointer.
    const refused = await expectError(await call(ctx, ctx.admin, 'PATCH', path, { body: { templates: { en: { called: '{number} {who}' } } } }), 422, C.VALIDATION_FAILED)
    expect(refused.error.details.map((d: { path: string }) => d.path)).toEqual(['/templates/en/called'])
    expect((await expectOk(await call(ctx, ctx.admin, 'GET', path))).data.settings).toEqual(noSms.settings)
    await expectError(await call(ctx, ctx.manager, 'PATCH', path, { body: { limits: { smsPerMonth: 1 } } }), 403, C.ROLE_FORBIDDEN)
  })
})
