import type { AdminNotificationMessage, AdminNotifications, AdminNotificationSettings, AdminTestNotification, AdminWorkspaceView, ErrorEnvelope } from '../../contract/wire'
import { api } from '../api'
import { withPageDigits } from '../../screens/shared/digits'
import { h } from '../dom'
import { checkbox, commaList, field, FormErrors, numberInput, numberOf, select, textInput } from './forms'
import { ADMIN_API, answered, panel, problem, table, when } from './kit'
import type { AdminContext, AdminSection } from './section'
import { SECTION_ROLES } from '../../screens/shared/console-access'
import { fill, type Strings } from './strings'

/*
 * The Notifications section (contract §25; administrators only): per workspace, the SMS
 * gateway, the SMTP server and web push, the limits, the reminders and the templates per
 * language, saved as one document through `PUT /api/admin/v1/workspaces/{id}/notifications`
 * (the provisioning file's schema; errors at the fields its pointers name). Secrets — the
 * gateway's headers, the inbound secret, the SMTP password — are never shown again: the form
 * says which are set, and an empty secret field keeps the stored one. Then the month's SMS
 * count against its cap, a test send, and the recent deliveries and failures.
 */


/** The kinds a template is written for (src/notifications/model.ts `TEMPLATE_KINDS`). */
const KINDS = ['approaching', 'called', 'no_show', 'confirmed', 'reminder', 'cancelled', 'moved', 'help'] as const
/** The languages the console offers templates in (contract §25: English and Arabic); a file may add others, kept as written. */
const TEMPLATE_LANGUAGES = ['en', 'ar'] as const
/** Share of the monthly cap from which the count is shown as a warning. */
const WARN_SHARE = 0.9

const path = (workspaceId: string, rest = '') => `${ADMIN_API}/workspaces/${encodeURIComponent(workspaceId)}/notifications${rest}`

export const notificationsSection: AdminSection = {
  id: 'notifications',
  label: (t) => t.sectionNotifications,
  roles: SECTION_ROLES.notifications,
  render: async (main, ctx) => {
    const { t } = ctx
    const workspaces = await api<{ data: AdminWorkspaceView[] }>('GET', `${ADMIN_API}/workspaces`)
    if (workspaces?.status !== 200 || workspaces.body === null) return void main.append(h('p', { class: 'admin-error', role: 'alert' }, problem(workspaces, t)))
    const list = workspaces.body.data
    if (list.length === 0) return void main.append(h('p', { class: 'empty-note' }, t.notifyNoWorkspace))
    const holder = h('div')
    const show = async (workspaceId: string) => {
      const answer = await api<{ data: AdminNotifications }>('GET', path(workspaceId))
      if (answer?.status !== 200 || answer.body === null) return holder.replaceChildren(h('p', { class: 'admin-error', role: 'alert' }, problem(answer, t)))
      holder.replaceChildren(...await workspaceParts(ctx, answer.body.data, () => show(workspaceId)))
    }
    if (list.length > 1) {
      const choice = select(list.map((w) => ({ value: w.id, label: w.name })), list[0]!.id)
      choice.id = 'notify-workspace'
      choice.addEventListener('change', () => void show(choice.value))
      main.append(h('div', { class: 'field' }, h('label', { for: choice.id }, t.workspace), choice))
    }
    main.append(holder)
    await show(list[0]!.id)
  },
}

async function workspaceParts(ctx: AdminContext, view: AdminNotifications, refresh: () => Promise<void>): Promise<HTMLElement[]> {
  const messages = h('div')
  let usage = usagePanel(ctx, view)
  // After a test send: its row in the list, and the month's count (a test SMS counts too).
  const afterTest = async () => {
    await loadMessages(ctx, view.workspaceId, messages, false)
    const answer = await api<{ data: AdminNotifications }>('GET', path(view.workspaceId))
    if (answer?.status !== 200 || answer.body === null) return
    const fresh = usagePanel(ctx, answer.body.data)
    usage.replaceWith(fresh)
    usage = fresh
  }
  const parts = [usage, settingsPanel(ctx, view, refresh), testPanel(ctx, view, afterTest), panel('h-notify-recent', ctx.t.notifyRecent, messages)]
  await loadMessages(ctx, view.workspaceId, messages, false)
  return parts
}

/** The month's SMS against the cap; a warning when the cap stopped SMS, or when it is near. */
function usagePanel(ctx: AdminContext, view: AdminNotifications): HTMLElement {
  const { t } = ctx
  const usage = view.usage
  if (usage === null) return panel('h-notify-usage', t.notifyUsage, h('p', { class: 'empty-note' }, t.notifyNotSetUp))
  const count = fill(t.notifySmsCount, { n: number(ctx, usage.smsThisMonth), cap: number(ctx, usage.smsPerMonth) })
  const warning = usage.capReached
    ? h('p', { class: 'form-message', role: 'alert', id: 'notify-cap' }, t.notifyCapReached)
    : usage.smsPerMonth > 0 && usage.smsThisMonth >= usage.smsPerMonth * WARN_SHARE ? h('p', { class: 'note', id: 'notify-cap' }, t.notifyCapNear) : null
  return panel('h-notify-usage', t.notifyUsage, h('p', { id: 'notify-count' }, count), warning)
}

function number(ctx: AdminContext, n: number): string {
  return new Intl.NumberFormat(withPageDigits(ctx.locale)).format(n)
}

/** `Name: value` lines → headers (empty text: none given, the stored ones stay). */
function headersOf(text: string): Record<string, string> | null {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '')
  if (lines.length === 0) return null
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[colon < 0 ? line : line.slice(0, colon).trim()] = colon < 0 ? '' : line.slice(colon + 1).trim()
  }
  return headers
}

function secretHint(t: Strings, set: boolean): string {
  return set ? t.notifySecretSet : t.notifySecretNotSet
}

function settingsPanel(ctx: AdminContext, view: AdminNotifications, refresh: () => Promise<void>): HTMLElement {
  const { t } = ctx
  const s = view.settings ?? {}
  const general = h('p', { class: 'form-message', role: 'alert', hidden: true })
  const errors = new FormErrors(general)
  const ltr = { dir: 'ltr', autocomplete: 'off', spellcheck: 'false' }

  const country = textInput(s.country ?? '', { ...ltr, maxlength: '2', size: '3' })
  // SMS gateway
  const smsUrl = textInput(s.sms?.url ?? '', { ...ltr, type: 'url', maxlength: '2048' })
  const smsMethod = select(['POST', 'PUT', 'GET'].map((m) => ({ value: m, label: m })), s.sms?.method ?? 'POST')
  const smsBody = h('textarea', { ...ltr, rows: '3', maxlength: '4000' })
  smsBody.value = s.sms?.body ?? ''
  const smsHeaders = h('textarea', { ...ltr, rows: '2', maxlength: '8000', placeholder: 'Authorization: Bearer …' })
  const inbound = textInput('', { ...ltr, type: 'password', maxlength: '200', autocomplete: 'new-password' })
  const headerNames = view.secretsSet.smsHeaders
  // SMTP
  const host = textInput(s.email?.host ?? '', { ...ltr, maxlength: '253' })
  const port = numberInput(s.email?.port, 1, 65535)
  port.setAttribute('dir', 'ltr')
  const security = select([{ value: 'starttls', label: t.notifyStarttls }, { value: 'tls', label: t.notifyTls }, { value: 'none', label: t.notifyPlain }], s.email?.security ?? 'starttls')
  const username = textInput(s.email?.username ?? '', { ...ltr, maxlength: '320' })
  const password = textInput('', { ...ltr, type: 'password', maxlength: '1000', autocomplete: 'new-password' })
  const from = textInput(s.email?.from ?? '', { ...ltr, maxlength: '320' })
  // Web push
  const subject = textInput(s.webPush?.subject ?? '', { ...ltr, maxlength: '320', placeholder: 'mailto:it@branch.example' })
  const privateEndpoints = checkbox(errors, t.notifyPrivateEndpoints, s.webPush?.allowPrivateEndpoints === true, '/webPush/allowPrivateEndpoints')
  // Limits and reminders
  const perTicket = numberInput(s.limits?.smsPerTicket, 0, 20)
  const perNumber = numberInput(s.limits?.smsPerNumberPerDay, 0, 100)
  const perMonth = numberInput(s.limits?.smsPerMonth, 0, 10_000_000)
  const reminders = textInput((s.reminderMinutes ?? []).join(', '), { ...ltr, placeholder: '1440, 60' })
  // Templates, per language and kind (empty: the default text).
  const languages = [...new Set([...TEMPLATE_LANGUAGES, ...Object.keys(s.templates ?? {})])]
  const templates = new Map<string, HTMLTextAreaElement>()
  const templateSets = languages.map((lang) => h('details', { class: 'notify-templates' },
    h('summary', null, fill(t.notifyTemplatesIn, { lang: languageName(ctx, lang) })),
    h('p', { class: 'field-hint' }, t.notifyTemplateHint),
    ...KINDS.map((kind) => {
      const area = h('textarea', { rows: '2', maxlength: '480', dir: 'auto', lang })
      area.value = s.templates?.[lang]?.[kind] ?? ''
      templates.set(`${lang}/${kind}`, area)
      return field(errors, fill(t.notifyTemplateOf, { kind: t.notifyKinds[kind] ?? kind, lang: languageName(ctx, lang) }), area, `/templates/${lang}/${kind}`)
    })))

  const save = h('button', { type: 'submit', class: 'primary' }, t.save)
  const saved = h('p', { class: 'saved-message', role: 'status' })
  const form = h('form', { class: 'entity-form notify-form', novalidate: true }, general,
    field(errors, t.notifyCountry, country, '/country', t.notifyCountryHint),
    h('fieldset', { class: 'notify-group' }, h('legend', null, t.notifySms),
      field(errors, t.notifySmsUrl, smsUrl, '/sms/url', t.notifySmsUrlHint),
      field(errors, t.notifySmsMethod, smsMethod, '/sms/method'),
      field(errors, t.notifySmsBody, smsBody, '/sms/body', t.notifySmsBodyHint),
      field(errors, t.notifySmsHeaders, smsHeaders, '/sms/headers', headerNames.length === 0 ? t.notifyHeadersNone : fill(t.notifyHeadersSet, { names: headerNames.join(', ') })),
      field(errors, t.notifyInbound, inbound, '/sms/inboundSecret', secretHint(t, view.secretsSet.inboundSecret))),
    h('fieldset', { class: 'notify-group' }, h('legend', null, t.notifyEmail),
      field(errors, t.notifyHost, host, '/email/host'),
      field(errors, t.notifyPort, port, '/email/port'),
      field(errors, t.notifySecurity, security, '/email/security'),
      field(errors, t.notifyUsername, username, '/email/username'),
      field(errors, t.notifyPassword, password, '/email/password', secretHint(t, view.secretsSet.smtpPassword)),
      field(errors, t.notifyFrom, from, '/email/from')),
    h('fieldset', { class: 'notify-group' }, h('legend', null, t.notifyPush),
      field(errors, t.notifySubject, subject, '/webPush/subject', t.notifySubjectHint),
      privateEndpoints.root,
      view.pushKey === null ? null : h('p', { class: 'field-hint' }, t.notifyPushKey, ' ', h('code', { dir: 'ltr', class: 'push-key' }, view.pushKey))),
    h('fieldset', { class: 'notify-group' }, h('legend', null, t.notifyLimits),
      field(errors, t.notifyPerTicket, perTicket, '/limits/smsPerTicket', t.notifyDefault3),
      field(errors, t.notifyPerNumber, perNumber, '/limits/smsPerNumberPerDay', t.notifyDefault10),
      field(errors, t.notifyPerMonth, perMonth, '/limits/smsPerMonth', t.notifyDefault1000),
      field(errors, t.notifyReminders, reminders, '/reminderMinutes', t.notifyRemindersHint)),
    h('fieldset', { class: 'notify-group' }, h('legend', null, t.notifyTemplates), ...templateSets),
    h('div', { class: 'form-actions' }, save), saved)

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    errors.clear()
    saved.textContent = ''
    const doc: AdminNotificationSettings = {}
    if (country.value.trim() !== '') doc.country = country.value.trim().toUpperCase()
    if (smsUrl.value.trim() !== '') {
      doc.sms = { url: smsUrl.value.trim(), method: smsMethod.value as 'POST' }
      if (smsBody.value.trim() !== '') doc.sms.body = smsBody.value
      const headers = headersOf(smsHeaders.value)
      if (headers !== null) doc.sms.headers = headers
      if (inbound.value !== '') doc.sms.inboundSecret = inbound.value
    }
    if (host.value.trim() !== '' || from.value.trim() !== '') {
      doc.email = { host: host.value.trim(), port: numberOf(port) ?? 587, security: security.value as 'starttls', from: from.value.trim() }
      if (username.value.trim() !== '') doc.email.username = username.value.trim()
      if (password.value !== '') doc.email.password = password.value
    }
    if (subject.value.trim() !== '') doc.webPush = { subject: subject.value.trim(), ...(privateEndpoints.input.checked ? { allowPrivateEndpoints: true } : {}) }
    const limits = { smsPerTicket: numberOf(perTicket), smsPerNumberPerDay: numberOf(perNumber), smsPerMonth: numberOf(perMonth) }
    if (Object.values(limits).some((v) => v !== undefined)) doc.limits = JSON.parse(JSON.stringify(limits)) as AdminNotificationSettings['limits']
    const minutes = commaList(reminders.value)
    if (minutes.length > 0) doc.reminderMinutes = minutes.map(Number)
    for (const [key, area] of templates) {
      if (area.value.trim() === '') continue
      const [lang, kind] = key.split('/') as [string, (typeof KINDS)[number]]
      ;((doc.templates ??= {})[lang] ??= {})[kind] = area.value
    }
    save.disabled = true
    const answer = await api<{ data: AdminNotifications }>('PUT', path(view.workspaceId), doc)
    save.disabled = false
    if (!answered(answer, errors, t)) return
    ctx.announce(t.saved)
    await refresh()
    document.getElementById('notify-saved')?.focus()
  })
  const heading = panel('h-notify-settings', t.notifySettings, form)
  if (view.settings !== null) saved.id = 'notify-saved'
  return heading
}

/** One SMS or e-mail now, through the saved settings; the outcome said in words. */
function testPanel(ctx: AdminContext, view: AdminNotifications, reload: () => Promise<void>): HTMLElement {
  const { t } = ctx
  const general = h('p', { class: 'form-message', role: 'alert', hidden: true })
  const errors = new FormErrors(general)
  const channel = select([{ value: 'sms', label: t.notifyChannelSms }, { value: 'email', label: t.notifyChannelEmail }], view.settings?.sms === undefined && view.settings?.email !== undefined ? 'email' : 'sms')
  const to = textInput('', { dir: 'ltr', maxlength: '254', autocomplete: 'off' })
  const send = h('button', { type: 'submit' }, t.notifyTestSend)
  const result = h('p', { class: 'saved-message', role: 'status', id: 'notify-test-result' })
  const form = h('form', { class: 'entity-form', novalidate: true }, general,
    field(errors, t.notifyChannel, channel, '/channel'),
    field(errors, t.notifyTestTo, to, '/to'),
    h('div', { class: 'form-actions' }, send), result)
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    errors.clear()
    result.textContent = ''
    result.className = 'saved-message'
    if (to.value.trim() === '') return void errors.show([{ path: '/to', message: t.notifyTestToMissing, words: t.notifyTestToMissing }], t.invalid)
    send.disabled = true
    const answer = await api<{ data: AdminTestNotification }>('POST', path(view.workspaceId, '/test'), { channel: channel.value, to: to.value.trim() })
    send.disabled = false
    if (answer?.status === 422 && answer.code === 'CHANNEL_NOT_CONFIGURED') return void errors.show([{ path: '/channel', message: '', words: channel.value === 'sms' ? t.notifyNoGateway : t.notifyNoSmtp }], t.invalid)
    if (answer?.status === 422) {
      const details = (answer.body as ErrorEnvelope | null)?.error?.details ?? []
      if (details.some((d) => d.path === '/to')) return void errors.show([{ path: '/to', message: '', words: channel.value === 'sms' ? t.notifyBadNumber : t.notifyBadAddress }], t.invalid)
    }
    if (!answered(answer, errors, t)) return
    const outcome = answer!.body!.data
    result.className = outcome.sent ? 'saved-message' : 'form-message'
    result.textContent = outcome.sent ? t.notifyTestSent : fill(t.notifyTestFailed, { error: outcome.error ?? '' })
    await reload()
  })
  return panel('h-notify-test', t.notifyTest, h('p', { class: 'field-hint' }, t.notifyTestHint), form)
}

async function loadMessages(ctx: AdminContext, workspaceId: string, holder: HTMLElement, failedOnly: boolean): Promise<void> {
  const { t } = ctx
  const answer = await api<{ data: AdminNotificationMessage[] }>('GET', path(workspaceId, `/messages${failedOnly ? '?failed=true' : ''}`))
  if (answer?.status !== 200 || answer.body === null) return void holder.replaceChildren(h('p', { class: 'admin-error', role: 'alert' }, problem(answer, t)))
  const filter = h('input', { type: 'checkbox', id: 'notify-failed-only' })
  filter.checked = failedOnly
  filter.addEventListener('change', () => void loadMessages(ctx, workspaceId, holder, filter.checked).then(() => document.getElementById('notify-failed-only')?.focus()))
  const rows = answer.body.data.map((m) => h('tr', { class: `notify-${m.status.toLowerCase()}` },
    h('td', null, h('time', { datetime: new Date(m.createdAt).toISOString() }, when(ctx, new Date(m.createdAt).toISOString()))),
    h('td', null, t.notifyKinds[m.kind] ?? m.kind),
    h('td', null, m.channel === 'sms' ? t.notifyChannelSms : m.channel === 'email' ? t.notifyChannelEmail : t.notifyChannelPush),
    h('td', null, t.notifyStatuses[m.status] ?? m.status),
    h('td', null, number(ctx, m.attempts)),
    h('td', { dir: 'auto' }, m.lastError ?? '')))
  holder.replaceChildren(
    h('div', { class: 'field field-check' }, filter, h('label', { for: filter.id }, t.notifyFailedOnly)),
    table(t.notifyRecent, [t.notifyWhen, t.notifyKind, t.notifyChannel, t.notifyStatus, t.notifyAttempts, t.notifyError], rows, failedOnly ? t.notifyNoFailures : t.notifyNoMessages))
}

/** "ar" → "Arabic (ar)" in the page's language. */
function languageName(ctx: AdminContext, lang: string): string {
  try {
    const name = new Intl.DisplayNames([ctx.lang], { type: 'language' }).of(lang)
    return name === undefined || name === lang ? lang : `${name} (${lang})`
  } catch {
    return lang
  }
}
