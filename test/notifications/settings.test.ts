import { describe, expect, test } from 'bun:test'
import { testContext } from '../support/app'
import { exampleDocument, provision } from '../support/fixtures'
import { applyProvisioning, ProvisioningError } from '../../src/provisioning/service'
import { exportProvisioning } from '../../src/provisioning/export'
import { readChannels } from '../../src/notifications'
import type { NotificationSettings } from '../../src/notifications/model'

/*
 * Contract §25 settings in the provisioning file: secrets kept apart and never exported or
 * audited, templates validated, VAPID keys made once.
 */

const SETTINGS: NotificationSettings = {
  country: 'GB',
  sms: { url: 'https://gateway.example/messages', headers: { authorization: 'Bearer s3cret-token-value', 'content-type': 'application/json' }, body: '{"to":"{to}","text":"{text}"}', inboundSecret: 'inbound-secret-value-0001' },
  email: { host: 'smtp.example', port: 587, security: 'starttls', username: 'lobby', password: 'smtp-pa55word-value', from: 'lobby@branch.example' },
  webPush: { subject: 'mailto:branch@example.com' },
  limits: { smsPerMonth: 500 },
  templates: { en: { called: '{number}: counter {counter}, please.' }, ar: { called: '{number}: الشباك {counter}' } },
}

function withSettings(settings: NotificationSettings = SETTINGS) {
  const doc = exampleDocument()
  doc.workspaces[0]!.notifications = structuredClone(settings)
  return doc
}

const SECRETS = ['s3cret-token-value', 'inbound-secret-value-0001', 'smtp-pa55word-value']

describe('notifications in the provisioning file', () => {
  test('stored with their secrets apart; the export and the audit log hold none of them; applying the export changes nothing', () => {
    const ctx = testContext()
    provision(ctx, withSettings())
    const channels = readChannels(ctx.db, 'ws_demo')!
    expect(channels.secrets).toEqual({ smsHeaders: SETTINGS.sms!.headers, inboundSecret: 'inbound-secret-value-0001', smtpPassword: 'smtp-pa55word-value' })
    expect(channels.limits).toEqual({ smsPerTicket: 3, smsPerNumberPerDay: 10, smsPerMonth: 500 })
    expect(channels.reminderMinutes).toEqual([1440, 60])
    expect(Buffer.from(channels.vapid!.publicKey, 'base64url')).toHaveLength(65)
    expect(Buffer.from(channels.vapid!.privateKey, 'base64url')).toHaveLength(32)
    const exported = exportProvisioning(ctx.db)
    const text = JSON.stringify(exported)
    for (const secret of SECRETS) expect(text).not.toContain(secret)
    expect(exported.workspaces[0]!.notifications!.sms).toEqual({ url: 'https://gateway.example/messages', body: '{"to":"{to}","text":"{text}"}' })
    expect(exported.workspaces[0]!.notifications!.email).not.toHaveProperty('password')
    const audit = JSON.stringify(ctx.db.$client.query('SELECT * FROM audit_log').all())
    expect(audit).toContain('notifications.create')
    for (const secret of SECRETS) expect(audit).not.toContain(secret)
    // The export applied again keeps the secrets and the keys.
    const result = applyProvisioning(ctx.db, exported, ctx.clock.now())
    expect(result.applied.notifications).toEqual({ created: 0, updated: 0, unchanged: 1 })
    expect(readChannels(ctx.db, 'ws_demo')).toEqual(channels)
  })

  test('templates are checked on save: unknown variables and stray braces are refused at their pointer', () => {
    const ctx = testContext()
    const bad = withSettings({ ...SETTINGS, templates: { en: { called: '{number}: {name} please', approaching: 'soon {' }, 'not a tag!': { help: 'x' } } })
    let error: ProvisioningError | undefined
    try {
      applyProvisioning(ctx.db, bad, ctx.clock.now())
    } catch (e) {
      error = e as ProvisioningError
    }
    expect(error).toBeInstanceOf(ProvisioningError)
    expect(error!.details.map((d) => [d.path, (d as { rule?: string }).rule])).toEqual([
      ['/workspaces/0/notifications/templates/en/called', 'template'],
      ['/workspaces/0/notifications/templates/en/approaching', 'template'],
      ['/workspaces/0/notifications/templates/not a tag!', 'languageTag'],
    ])
    expect(ctx.db.$client.query('SELECT count(*) AS n FROM notification_settings').get()).toEqual({ n: 0 })
  })
})
