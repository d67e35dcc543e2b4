import { generateKeyPairSync } from 'node:crypto'
import type { Database } from 'bun:sqlite'
import type { Db } from '../db/open'
import type { ErrorDetail } from '../platform/errors'
import { ruled } from '../platform/detail-rules'
import { canonicalLanguageTag } from '../platform/names'
import { DEFAULT_LIMITS, DEFAULT_REMINDER_MINUTES, splitSecrets, templateProblems, type NotificationSecrets, type NotificationSettings, type TemplateKind } from './model'

/*
 * A workspace's notification settings: read, written by provisioning (src/provisioning calls
 * `writeNotificationSettings` inside its transaction), exported without secrets.
 */

interface SettingsRow {
  settings: string
  secrets: string
  vapidPublicKey: string | null
  vapidPrivateKey: string | null
  capReachedMonth: string | null
}

/** Everything the senders need for one workspace (secrets included: never hand it to a page or a log). */
export interface WorkspaceChannels {
  workspaceId: string
  settings: NotificationSettings
  secrets: NotificationSecrets
  vapid: { publicKey: string; privateKey: string } | null
  capReachedMonth: string | null
  limits: { smsPerTicket: number; smsPerNumberPerDay: number; smsPerMonth: number }
  reminderMinutes: number[]
}

const SELECT = `SELECT settings, secrets, vapid_public_key AS vapidPublicKey, vapid_private_key AS vapidPrivateKey, cap_reached_month AS capReachedMonth
  FROM notification_settings WHERE workspace_id = ?1`

/** The workspace's channels, or null when it has no `notifications`. */
export function readChannels(db: Db, workspaceId: string): WorkspaceChannels | null {
  return readChannelsOn(db.$client, workspaceId)
}

/** `readChannels` on the raw connection (the outbox reads inside its writer's transaction). */
export function readChannelsOn(client: Database, workspaceId: string): WorkspaceChannels | null {
  const row = client.query<SettingsRow, [string]>(SELECT).get(workspaceId)
  if (row === null) return null
  const settings = JSON.parse(row.settings) as NotificationSettings
  return {
    workspaceId,
    settings,
    secrets: JSON.parse(row.secrets) as NotificationSecrets,
    vapid: row.vapidPublicKey !== null && row.vapidPrivateKey !== null ? { publicKey: row.vapidPublicKey, privateKey: row.vapidPrivateKey } : null,
    capReachedMonth: row.capReachedMonth,
    limits: { ...DEFAULT_LIMITS, ...settings.limits },
    reminderMinutes: [...(settings.reminderMinutes ?? DEFAULT_REMINDER_MINUTES)],
  }
}

/** The settings as exported (no secret), or null. */
export function exportedSettings(db: Db, workspaceId: string): NotificationSettings | null {
  const row = db.$client.query<{ settings: string }, [string]>('SELECT settings FROM notification_settings WHERE workspace_id = ?1').get(workspaceId)
  return row === null ? null : (JSON.parse(row.settings) as NotificationSettings)
}

/** Problems of a workspace's settings beyond its schema (templates, languages), at `path`. */
export function settingsProblems(settings: NotificationSettings, path: string): ErrorDetail[] {
  const problems: ErrorDetail[] = []
  for (const [language, kinds] of Object.entries(settings.templates ?? {})) {
    if (canonicalLanguageTag(language) === null) problems.push(ruled(`${path}/templates/${language}`, 'not a BCP 47 language tag', 'languageTag', { value: language }))
    for (const [kind, text] of Object.entries(kinds ?? {})) {
      for (const problem of templateProblems(kind as TemplateKind, text as string)) problems.push(ruled(`${path}/templates/${language}/${kind}`, problem.message, 'template', problem.params))
    }
  }
  return problems
}

/**
 * Writes a workspace's settings inside the caller's transaction: a secret absent from the file
 * keeps the stored one; the VAPID key pair is made the first time (RFC 8292, P-256). Returns
 * whether anything changed.
 */
export function writeNotificationSettings(db: Db, workspaceId: string, settings: NotificationSettings, now: number): boolean {
  const row = db.$client.query<SettingsRow, [string]>(SELECT).get(workspaceId)
  const stored = row === null ? {} : (JSON.parse(row.secrets) as NotificationSecrets)
  const { open, secrets } = splitSecrets(settings, stored)
  const openText = JSON.stringify(open)
  const secretsText = JSON.stringify(secrets)
  if (row !== null && row.settings === openText && row.secrets === secretsText) return false
  if (row === null) {
    const keys = newVapidKeys()
    db.$client.query(`INSERT INTO notification_settings (workspace_id, settings, secrets, vapid_public_key, vapid_private_key, created_at, updated_at)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)`).run(workspaceId, openText, secretsText, keys.publicKey, keys.privateKey, now)
  } else {
    db.$client.query('UPDATE notification_settings SET settings = ?2, secrets = ?3, updated_at = ?4 WHERE workspace_id = ?1').run(workspaceId, openText, secretsText, now)
  }
  return true
}

/**
 * A VAPID key pair (RFC 8292: ECDSA P-256) as web push uses it: the public key the uncompressed
 * point (65 bytes), the private key the 32-byte scalar, both base64url.
 */
export function newVapidKeys(): { publicKey: string; privateKey: string } {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'jwk' })
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')])
  return { publicKey: point.toString('base64url'), privateKey: jwk.d! }
}

/** Makes the VAPID key pair of every workspace that has settings but no keys (first start after an upgrade). Returns how many. */
export function ensureVapidKeys(db: Db): number {
  const missing = db.$client.query<{ workspaceId: string }, []>('SELECT workspace_id AS workspaceId FROM notification_settings WHERE vapid_public_key IS NULL').all()
  for (const { workspaceId } of missing) {
    const keys = newVapidKeys()
    db.$client.query('UPDATE notification_settings SET vapid_public_key = ?2, vapid_private_key = ?3 WHERE workspace_id = ?1 AND vapid_public_key IS NULL').run(workspaceId, keys.publicKey, keys.privateKey)
  }
  return missing.length
}
