import type { NotificationSecrets, NotificationSettings } from './model'

/*
 * The three ways out (contract §25), each a gateway the branch points at: an HTTP SMS gateway
 * (a request template), an SMTP server (nodemailer), the browser's push service (VAPID, RFC 8292,
 * and the aes128gcm payload of RFC 8291 by `web-push`), both libraries loaded on first use. Each call sends one message and throws
 * `SendError` when it did not go; none of them logs, and no error text carries an address.
 */

export const SEND_TIMEOUT_MS = 10_000

/** A failed send; `gone` is a push subscription the push service says no longer exists (404/410). */
export class SendError extends Error {
  constructor(message: string, readonly gone = false) {
    super(message)
  }
}

/** One message as the senders need it. */
export interface OutgoingMessage {
  messageId: string
  subject: string
  text: string
  calendar: string | null
}

const errorText = (e: unknown) => ((e as Error)?.name === 'TimeoutError' ? 'timeout' : String((e as Error)?.message ?? e).slice(0, 160))

/** `value` placed in a template of this content type: JSON-escaped in JSON, form-encoded in a form, else as is. */
function escapeFor(contentType: string, value: string): string {
  if (/json/i.test(contentType)) return JSON.stringify(value).slice(1, -1)
  if (/x-www-form-urlencoded/i.test(contentType)) return encodeURIComponent(value)
  return value
}

/** The gateway request of one SMS: `{to}`, `{text}`, `{messageId}` replaced in the URL (encoded) and the body. */
export function smsRequest(sms: NonNullable<NotificationSettings['sms']>, secrets: NotificationSecrets, to: string, message: OutgoingMessage): { url: string; init: RequestInit } {
  const vars: Record<string, string> = { to, text: message.text, messageId: message.messageId }
  const headers: Record<string, string> = { ...secrets.smsHeaders }
  const method = sms.method ?? 'POST'
  let contentType = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1]
  if (contentType === undefined && method !== 'GET' && sms.body !== undefined) {
    // No Content-Type given: a body that opens like JSON is JSON, any other is a form (what gateways take).
    contentType = /^\s*[[{]/.test(sms.body) ? 'application/json' : 'application/x-www-form-urlencoded'
    headers['content-type'] = contentType
  }
  const url = sms.url.replace(/\{(to|text|messageId)\}/g, (_, name: string) => encodeURIComponent(vars[name]!))
  const body = method === 'GET' || sms.body === undefined ? undefined : sms.body.replace(/\{(to|text|messageId)\}/g, (_, name: string) => escapeFor(contentType ?? '', vars[name]!))
  return { url, init: { method, headers: { 'user-agent': 'Lobby-Notifications/1', ...headers }, ...(body === undefined ? {} : { body }), redirect: 'manual' } }
}

export async function sendSms(fetcher: typeof fetch, settings: NotificationSettings, secrets: NotificationSecrets, to: string, message: OutgoingMessage): Promise<void> {
  if (settings.sms === undefined) throw new SendError('SMS gateway not configured')
  const { url, init } = smsRequest(settings.sms, secrets, to, message)
  let response: Response
  try {
    response = await fetcher(url, { ...init, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) })
  } catch (e) {
    throw new SendError(errorText(e))
  }
  await response.body?.cancel().catch(() => {})
  if (response.status < 200 || response.status >= 300) throw new SendError(`gateway answered HTTP ${response.status}`)
}

export async function sendEmail(settings: NotificationSettings, secrets: NotificationSecrets, to: string, message: OutgoingMessage): Promise<void> {
  const smtp = settings.email
  if (smtp === undefined) throw new SendError('SMTP server not configured')
  // Loaded on the first e-mail, off the server's cold start.
  const nodemailer = (await import('nodemailer')).default
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.security === 'tls',
    requireTLS: smtp.security === 'starttls',
    ignoreTLS: smtp.security === 'none',
    ...(smtp.username === undefined ? {} : { auth: { user: smtp.username, pass: secrets.smtpPassword ?? '' } }),
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
    logger: false,
    debug: false,
  })
  try {
    await transport.sendMail({
      from: smtp.from,
      to,
      subject: message.subject,
      text: message.text,
      // The message ID a server or a mailbox can deduplicate a retry on.
      messageId: `<${message.messageId}@lobby.invalid>`,
      ...(message.calendar === null ? {} : { icalEvent: { method: 'PUBLISH', filename: 'appointment.ics', content: message.calendar } }),
    })
  } catch (e) {
    // nodemailer's messages can quote the envelope: keep only its code.
    const code = (e as { code?: string; responseCode?: number }).code ?? 'SMTP'
    const status = (e as { responseCode?: number }).responseCode
    throw new SendError(`SMTP ${code}${status === undefined ? '' : ` ${status}`}`)
  } finally {
    transport.close()
  }
}

export interface PushSubscription {
  endpoint: string
  keys: { p256dh: string; auth: string }
}

/** One web push: the payload encrypted for the subscription (RFC 8291 aes128gcm), signed with the workspace's VAPID keys (RFC 8292). */
export async function sendPush(
  fetcher: typeof fetch, settings: NotificationSettings, vapid: { publicKey: string; privateKey: string } | null, subscription: PushSubscription, message: OutgoingMessage, url: string | null,
): Promise<void> {
  if (settings.webPush === undefined || vapid === null) throw new SendError('web push not configured')
  const payload = JSON.stringify({ title: message.subject, body: message.text, ...(url === null ? {} : { url }), messageId: message.messageId })
  const webpush = (await import('web-push')).default
  const details = webpush.generateRequestDetails(subscription, payload, {
    vapidDetails: { subject: settings.webPush.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    TTL: 3600,
    contentEncoding: 'aes128gcm',
  })
  let response: Response
  try {
    response = await fetcher(details.endpoint, {
      method: details.method,
      headers: details.headers as Record<string, string>,
      body: details.body === null ? null : new Uint8Array(details.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    })
  } catch (e) {
    throw new SendError(errorText(e))
  }
  await response.body?.cancel().catch(() => {})
  if (response.status === 404 || response.status === 410) throw new SendError(`push service answered HTTP ${response.status}: subscription gone`, true)
  if (response.status < 200 || response.status >= 300) throw new SendError(`push service answered HTTP ${response.status}`)
}
