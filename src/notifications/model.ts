import { Type, type Static } from '@sinclair/typebox'
import type { NotificationKind } from './tables'

/*
 * Contract §25: a workspace's `notifications`, as a provisioning file (and the console, which
 * applies its edits as provisioning documents) writes it. Secrets (`sms.headers`,
 * `sms.inboundSecret`, `email.password`) are kept apart and never exported: a file without them
 * keeps the stored ones, so applying an export changes nothing.
 */

const closed = { additionalProperties: false } as const

/** The kinds a template can be written for (`help` answers an SMS reply; `test` is the console's test send). */
export const TEMPLATE_KINDS = ['approaching', 'called', 'no_show', 'confirmed', 'reminder', 'cancelled', 'moved', 'help'] as const satisfies readonly NotificationKind[]
export type TemplateKind = (typeof TEMPLATE_KINDS)[number]

/** The variables each kind's template may name (`{number}`); anything else is refused on save. */
export const TEMPLATE_VARIABLES: Record<TemplateKind, readonly string[]> = {
  approaching: ['number', 'ahead', 'service', 'location', 'link'],
  called: ['number', 'counter', 'service', 'location', 'link'],
  no_show: ['number', 'minutes', 'location', 'link'],
  confirmed: ['code', 'service', 'location', 'date', 'time', 'link'],
  reminder: ['code', 'service', 'location', 'date', 'time', 'link'],
  cancelled: ['code', 'service', 'location', 'date', 'time'],
  moved: ['code', 'service', 'location', 'date', 'time', 'link'],
  help: ['number'],
}

export const MAX_TEMPLATE_LENGTH = 480
export const DEFAULT_LIMITS = { smsPerTicket: 3, smsPerNumberPerDay: 10, smsPerMonth: 1000 } as const
export const DEFAULT_REMINDER_MINUTES = [1440, 60] as const

const HeaderName = Type.String({ pattern: '^[A-Za-z0-9!#$%&\'*+.^_`|~-]{1,100}$' })

export const SmsGateway = Type.Object({
  url: Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2048, description: 'the gateway\'s endpoint; `{to}`, `{text}` and `{messageId}` are replaced (URL-encoded)' }),
  method: Type.Optional(Type.Union([Type.Literal('POST'), Type.Literal('PUT'), Type.Literal('GET')], { description: 'default POST' })),
  headers: Type.Optional(Type.Record(HeaderName, Type.String({ maxLength: 2000 }), { maxProperties: 20, description: 'secret: kept, never exported or shown (tokens go here)' })),
  body: Type.Optional(Type.String({ maxLength: 4000, description: 'the request body template; `{to}`, `{text}`, `{messageId}` are replaced, JSON-escaped when the Content-Type header is JSON, form-encoded when it is a form' })),
  inboundSecret: Type.Optional(Type.String({ minLength: 16, maxLength: 200, description: 'secret: the HMAC key of inbound replies (X-Lobby-Signature)' })),
}, closed)

export const SmtpServer = Type.Object({
  host: Type.String({ minLength: 1, maxLength: 253 }),
  port: Type.Integer({ minimum: 1, maximum: 65535 }),
  security: Type.Union([Type.Literal('starttls'), Type.Literal('tls'), Type.Literal('none')]),
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'secret' })),
  from: Type.String({ minLength: 3, maxLength: 320, pattern: '@' }),
}, closed)

export const WebPush = Type.Object({
  subject: Type.String({ pattern: '^(mailto:[^\\s]+|https://[^\\s]+)$', maxLength: 320, description: 'RFC 8292 `sub`: a mailto: or https: contact of the branch' }),
  allowPrivateEndpoints: Type.Optional(Type.Boolean({ description: 'a push relay inside the branch (or a test): loopback, private and link-local endpoints allowed' })),
}, closed)

const Template = Type.String({ minLength: 1, maxLength: MAX_TEMPLATE_LENGTH })

export const NotificationSettings = Type.Object({
  /** ISO 3166 alpha-2: numbers typed in local form are read as this country's (contract §25: the location's country; one per branch box). */
  country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
  sms: Type.Optional(SmsGateway),
  email: Type.Optional(SmtpServer),
  webPush: Type.Optional(WebPush),
  limits: Type.Optional(Type.Object({
    smsPerTicket: Type.Optional(Type.Integer({ minimum: 0, maximum: 20 })),
    smsPerNumberPerDay: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    smsPerMonth: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
  }, closed)),
  /** Minutes before an appointment its reminders go (default 1440 and 60). */
  reminderMinutes: Type.Optional(Type.Array(Type.Integer({ minimum: 5, maximum: 10_080 }), { maxItems: 4, uniqueItems: true })),
  /** Per language (BCP 47), per kind: the text, with `{variables}` (checked on save). */
  templates: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 35 }), Type.Partial(Type.Object(Object.fromEntries(TEMPLATE_KINDS.map((k) => [k, Template])) as Record<TemplateKind, typeof Template>, closed)), { maxProperties: 20 })),
}, closed)
export type NotificationSettings = Static<typeof NotificationSettings>

/** The secret parts of the settings, stored apart (`notification_settings.secrets`). */
export interface NotificationSecrets {
  smsHeaders?: Record<string, string>
  inboundSecret?: string
  smtpPassword?: string
}

/** Splits provisioned settings into what is exported and what is secret. */
export function splitSecrets(settings: NotificationSettings, stored: NotificationSecrets): { open: NotificationSettings; secrets: NotificationSecrets } {
  const open: NotificationSettings = structuredClone(settings)
  const secrets: NotificationSecrets = {}
  if (open.sms !== undefined) {
    const { headers, inboundSecret, ...sms } = open.sms
    open.sms = sms
    const smsHeaders = headers ?? stored.smsHeaders
    if (smsHeaders !== undefined) secrets.smsHeaders = smsHeaders
    const inbound = inboundSecret ?? stored.inboundSecret
    if (inbound !== undefined) secrets.inboundSecret = inbound
  }
  if (open.email !== undefined) {
    const { password, ...email } = open.email
    open.email = email
    const smtpPassword = password ?? stored.smtpPassword
    if (smtpPassword !== undefined) secrets.smtpPassword = smtpPassword
  }
  return { open, secrets }
}

/** The default texts, in the languages Lobby ships (contract §25: English and Arabic). */
export const DEFAULT_TEMPLATES: Record<string, Record<TemplateKind, string>> = {
  en: {
    approaching: '{number}: your turn is near ({ahead} ahead) at {location}. {link}',
    called: '{number}: please go to {counter}.',
    no_show: '{number}: you missed your turn. Please speak to a member of staff within {minutes} minutes.',
    confirmed: 'Your appointment for {service} at {location} is booked: {date} {time}. Booking code {code}. {link}',
    reminder: 'Reminder: {service} at {location}, {date} {time}. Booking code {code}. {link}',
    cancelled: 'Your appointment for {service} at {location} on {date} {time} is cancelled.',
    moved: 'Your appointment for {service} at {location} is now {date} {time}. Booking code {code}. {link}',
    help: '{number}: reply 1 to leave the queue, 2 for more time.',
  },
  ar: {
    approaching: '{number}: اقترب دورك ({ahead} قبلك) في {location}. {link}',
    called: '{number}: يرجى التوجه إلى {counter}.',
    no_show: '{number}: فاتك دورك. يرجى التحدث إلى أحد الموظفين خلال {minutes} دقيقة.',
    confirmed: 'تم حجز موعدك لخدمة {service} في {location}: {date} {time}. رمز الحجز {code}. {link}',
    reminder: 'تذكير: {service} في {location}، {date} {time}. رمز الحجز {code}. {link}',
    cancelled: 'تم إلغاء موعدك لخدمة {service} في {location} يوم {date} {time}.',
    moved: 'تم نقل موعدك لخدمة {service} في {location} إلى {date} {time}. رمز الحجز {code}. {link}',
    help: '{number}: أرسل 1 لمغادرة الدور، أو 2 لطلب وقت إضافي.',
  },
}

/** The words a reply may use to leave or ask for more time, per language (besides "1" and "2"). */
export const REPLY_WORDS: Record<string, { leave: string[]; later: string[] }> = {
  en: { leave: ['leave', 'stop', 'cancel'], later: ['later', 'more time', 'wait'] },
  ar: { leave: ['مغادرة', 'الغاء', 'إلغاء'], later: ['لاحقا', 'لاحقاً', 'وقت'] },
}

/** One problem of a template: the English message and the console's rule params (src/platform/detail-rules.ts `template`). */
export interface TemplateProblem {
  message: string
  params: { problem: 'variable' | 'brace' | 'blank'; variable?: string; allowed?: string[] }
}

/** The problems of one template (empty: good): unknown variables, a stray brace, a blank text. */
export function templateProblems(kind: TemplateKind, text: string): TemplateProblem[] {
  const problems: TemplateProblem[] = []
  if (text.trim() === '') problems.push({ message: 'must not be blank', params: { problem: 'blank' } })
  const allowed = [...TEMPLATE_VARIABLES[kind]]
  const stripped = text.replace(/\{([a-z_]+)\}/g, (whole: string, name: string) => {
    if (!allowed.includes(name)) problems.push({ message: `unknown variable ${whole} (this message knows ${allowed.map((v) => `{${v}}`).join(', ')})`, params: { problem: 'variable', variable: name, allowed } })
    return ''
  })
  if (/[{}]/.test(stripped)) problems.push({ message: 'a { or } that is not part of a {variable}', params: { problem: 'brace' } })
  return problems
}

/** `text` with its `{variables}` replaced (unknown ones, which validation refuses, stay as written). */
export function renderTemplate(text: string, vars: Record<string, string | number>): string {
  return text.replace(/\{([a-z_]+)\}/g, (whole, name: string) => (vars[name] === undefined ? whole : String(vars[name]))).replace(/\s+$/, '')
}

/** The template of `kind` in `language`: the workspace's, else the default text, else English. */
export function templateFor(settings: NotificationSettings, kind: TemplateKind, language: string): string {
  const base = language.split('-')[0]!
  return settings.templates?.[language]?.[kind] ?? settings.templates?.[base]?.[kind] ?? DEFAULT_TEMPLATES[base]?.[kind] ?? settings.templates?.en?.[kind] ?? DEFAULT_TEMPLATES.en![kind]
}
