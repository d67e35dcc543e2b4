import type { AdminCreatedWebhook, AdminDelivery, AdminKey, AdminSecret, AdminUnitView, AdminWebhook } from '../../contract/wire'
import { api } from '../api'
import { h } from '../dom'
import { checkbox, commaList, field, FormErrors, numberInput, numberOf, select, textInput } from './forms'
import { actionButton, ADMIN_API, answered, panel, problem, secretBox, table, timeCell, when } from './kit'
import type { AdminContext, AdminSection } from './section'
import { SECTION_ROLES } from '../../screens/shared/console-access'
import { fill } from './strings'

/*
 * The Keys and webhooks section (contract §17; administrators only): keys and display tokens
 * — create (the secret shown once, with Copy), rotate with a grace period, revoke — then the
 * webhook endpoints (add with its signing secret shown once, change, disable, Send a test) and
 * the failed deliveries with Redeliver.
 */


export const keysSection: AdminSection = {
  id: 'keys',
  label: (t) => t.sectionKeys,
  roles: SECTION_ROLES.keys,
  render: async (main, ctx) => {
    const { t } = ctx
    const units = (await api<{ data: AdminUnitView[] }>('GET', `${ADMIN_API}/queue-units`))?.body?.data ?? []
    const shown = h('div', { class: 'secret-holder' })
    const showSecret = (label: string, secret: string, extra: (Node | null)[] = []) => {
      shown.replaceChildren(secretBox(ctx, label, secret, extra))
      shown.querySelector<HTMLElement>('.secret-box')?.focus()
    }

    // Create a key.
    const general = h('p', { class: 'form-message', role: 'alert', hidden: true })
    const errors = new FormErrors(general)
    const kind = select(['queue', 'workspace', 'display'].map((k) => ({ value: k, label: t.keyKinds[k] ?? k })), 'queue')
    const owner = textInput(units[0]?.id ?? '', { dir: 'ltr', maxlength: '160' })
    kind.addEventListener('change', () => {
      owner.value = kind.value === 'queue' ? (units[0]?.id ?? '') : (units[0]?.workspaceId ?? '')
    })
    const name = textInput('', { dir: 'ltr', maxlength: '80', autocomplete: 'off' })
    const create = h('button', { type: 'submit', class: 'primary' }, t.create)
    const form = h('form', { class: 'entity-form', novalidate: true }, general,
      field(errors, t.keyKind, kind, '/kind'), field(errors, t.keyOwner, owner, '/owner'), field(errors, t.keyName, name, '/name'),
      h('div', { class: 'form-actions' }, create))
    form.addEventListener('submit', async (event) => {
      event.preventDefault()
      create.disabled = true
      const answer = await api<{ data: AdminSecret }>('POST', `${ADMIN_API}/keys`, { kind: kind.value, owner: owner.value.trim(), name: name.value.trim() })
      create.disabled = false
      if (!answered(answer, errors, t)) return
      const made = answer!.body!.data
      name.value = ''
      showSecret(fill(t.secretFor, { name: made.name }), made.secret)
      await refreshKeys()
    })

    const keysHolder = h('div')
    const refreshKeys = async () => {
      const answer = await api<{ data: AdminKey[] }>('GET', `${ADMIN_API}/keys`)
      if (answer?.status !== 200) return keysHolder.replaceChildren(h('p', { class: 'admin-error', role: 'alert' }, problem(answer, t)))
      const rows = answer.body!.data.map((k) => {
        const label = `${k.owner}/${k.name}`
        const who = { kind: k.kind, owner: k.owner, name: k.name }
        const grace = numberInput(undefined, 0, 365 * 86_400)
        grace.placeholder = '0'
        const rotateErrors = new FormErrors(h('p', { class: 'form-message', role: 'alert', hidden: true }))
        const rotate = h('button', { type: 'submit' }, t.rotate)
        const rotateForm = h('form', { class: 'inline-form', novalidate: true }, rotateErrors.general, field(rotateErrors, t.graceSeconds, grace, '/graceSeconds'), rotate)
        rotateForm.addEventListener('submit', async (event) => {
          event.preventDefault()
          const seconds = numberOf(grace)
          const answer = await api<{ data: AdminSecret }>('POST', `${ADMIN_API}/keys/rotate`, { ...who, ...(seconds === undefined ? {} : { graceSeconds: seconds }) })
          if (!answered(answer, rotateErrors, t)) return
          const made = answer!.body!.data
          showSecret(fill(t.secretFor, { name: label }), made.secret, made.previousWorksUntil === null ? [] : [h('p', null, fill(t.previousWorksUntil, { time: when(ctx, made.previousWorksUntil) }))])
          await refreshKeys()
        })
        const live = k.state === 'active' && k.kind !== 'webhook'
        return h('tr', null,
          h('td', null, t.keyKinds[k.kind] ?? k.kind),
          h('td', { dir: 'ltr' }, label),
          h('td', null, t.states[k.state] ?? k.state),
          timeCell(ctx, k.created), timeCell(ctx, k.lastUsed),
          k.expires === null ? h('td', null, '—') : timeCell(ctx, k.expires),
          h('td', { class: 'row-actions' }, live
            ? [h('details', { class: 'row-editor' }, h('summary', { 'aria-label': fill(t.rotateNamed, { name: label }) }, t.rotate), rotateForm),
              actionButton(t.revoke, fill(t.revokeNamed, { name: label }), async () => {
                if (!confirm(fill(t.confirmRevoke, { name: label }))) return
                const answer = await api('POST', `${ADMIN_API}/keys/revoke`, who)
                ctx.announce(answer?.status === 200 ? fill(t.revokedDone, { name: label }) : problem(answer, t))
                await refreshKeys()
              }, 'danger')]
            : null))
      })
      keysHolder.replaceChildren(table(t.keys, [t.keyKind, t.name, t.state, t.created, t.lastUsed, t.expires, t.actions], rows, t.noKeys))
    }

    main.append(panel('h-create-key', t.createKey, form, shown), panel('h-keys', t.keys, keysHolder))
    const webhooks = webhooksPanels(ctx, units, showSecret)
    main.append(...webhooks.panels)
    await Promise.all([refreshKeys(), webhooks.refresh()])
  },
}

function webhooksPanels(ctx: AdminContext, units: AdminUnitView[], showSecret: (label: string, secret: string) => void) {
  const { t } = ctx
  const general = h('p', { class: 'form-message', role: 'alert', hidden: true })
  const errors = new FormErrors(general)
  const unit = select(units.map((u) => ({ value: u.id, label: u.id })), units[0]?.id ?? '')
  const id = textInput('', { dir: 'ltr', maxlength: '160', autocomplete: 'off' })
  const url = textInput('', { dir: 'ltr', type: 'url', placeholder: 'https://crm.example/lobby' })
  const events = textInput('ticket.created, ticket.called', { dir: 'ltr' })
  const add = h('button', { type: 'submit', class: 'primary' }, t.add)
  const form = h('form', { class: 'entity-form', novalidate: true }, general,
    field(errors, t.unit, unit, '/queueUnitId'), field(errors, t.webhookId, id, '/id'), field(errors, t.url, url, '/url'), field(errors, t.events, events, '/events'),
    h('div', { class: 'form-actions' }, add))
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const answer = await api<{ data: AdminCreatedWebhook }>('POST', `${ADMIN_API}/webhooks`, { queueUnitId: unit.value, id: id.value.trim(), url: url.value.trim(), events: commaList(events.value) })
    if (!answered(answer, errors, t)) return
    const made = answer!.body!.data
    id.value = ''
    url.value = ''
    showSecret(fill(t.signingSecret, { name: made.id }), made.signingSecret ?? '')
    await refresh()
  })

  const endpointsHolder = h('div')
  const failedHolder = h('div')
  const refresh = async () => {
    const [endpoints, failed] = await Promise.all([
      api<{ data: AdminWebhook[] }>('GET', `${ADMIN_API}/webhooks`),
      api<{ data: AdminDelivery[] }>('GET', `${ADMIN_API}/webhooks/deliveries`),
    ])
    if (endpoints?.status !== 200) endpointsHolder.replaceChildren(h('p', { class: 'admin-error', role: 'alert' }, problem(endpoints, t)))
    else endpointsHolder.replaceChildren(table(t.webhooks, [t.webhookId, t.url, t.events, t.state, t.actions], endpoints.body!.data.map((e) => endpointRow(ctx, e, refresh)), t.noWebhooks))
    if (failed?.status !== 200) failedHolder.replaceChildren(h('p', { class: 'admin-error', role: 'alert' }, problem(failed, t)))
    else failedHolder.replaceChildren(table(t.failedDeliveries, [t.delivery, t.webhookId, t.event, t.attempts, t.lastError, t.created, t.actions], failed.body!.data.map((d) => h('tr', null,
      h('td', { dir: 'ltr', class: 'entity-id' }, d.id),
      h('td', { dir: 'ltr' }, d.webhookId),
      h('td', { dir: 'ltr' }, d.event),
      h('td', null, String(d.attempts)),
      h('td', { dir: 'ltr' }, d.lastError ?? '—'),
      timeCell(ctx, d.createdAt),
      h('td', null, actionButton(t.redeliver, fill(t.redeliverNamed, { name: d.id }), async () => {
        const answer = await api('POST', `${ADMIN_API}/webhooks/deliveries/${encodeURIComponent(d.id)}/redeliver`)
        ctx.announce(answer !== null && answer.status < 300 ? t.redelivered : problem(answer, t))
        await refresh()
      })))), t.noFailed))
  }
  return {
    panels: [panel('h-add-webhook', t.addWebhook, form), panel('h-webhooks', t.webhooks, endpointsHolder), panel('h-failed', t.failedDeliveries, failedHolder)],
    refresh,
  }
}

function endpointRow(ctx: AdminContext, e: AdminWebhook, refresh: () => Promise<void>): HTMLElement {
  const { t } = ctx
  const errors = new FormErrors(h('p', { class: 'form-message', role: 'alert', hidden: true }))
  const url = textInput(e.url, { dir: 'ltr', type: 'url' })
  const events = textInput(e.events.join(', '), { dir: 'ltr' })
  const active = checkbox(errors, t.webhookActive, e.active, '/active')
  const form = h('form', { class: 'entity-form', novalidate: true }, errors.general, field(errors, t.url, url, '/url'), field(errors, t.events, events, '/events'), active.root,
    h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary' }, t.save)))
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const answer = await api('PATCH', `${ADMIN_API}/webhooks/${encodeURIComponent(e.id)}`, { url: url.value.trim(), events: commaList(events.value), active: active.input.checked })
    if (!answered(answer, errors, t)) return
    ctx.announce(t.saved)
    await refresh()
  })
  return h('tr', null,
    h('td', { dir: 'ltr' }, e.id),
    h('td', { dir: 'ltr', class: 'wrap' }, e.url),
    h('td', { dir: 'ltr', class: 'wrap' }, e.events.join(', ')),
    h('td', null, e.active ? t.states.active! : t.states.disabled!),
    h('td', { class: 'row-actions' },
      h('details', { class: 'row-editor' }, h('summary', { 'aria-label': fill(t.changeNamed, { name: e.id }) }, t.changeButton), form),
      e.active
        ? actionButton(t.sendTest, fill(t.sendTestNamed, { name: e.id }), async () => {
          const answer = await api('POST', `${ADMIN_API}/webhooks/${encodeURIComponent(e.id)}/test`)
          ctx.announce(answer?.status === 202 ? fill(t.testQueued, { name: e.id }) : problem(answer, t))
        })
        : null,
      e.active
        ? actionButton(t.disable, fill(t.disableNamed, { name: e.id }), async () => {
          const answer = await api('POST', `${ADMIN_API}/webhooks/${encodeURIComponent(e.id)}/disable`)
          ctx.announce(answer?.status === 200 ? t.saved : problem(answer, t))
          await refresh()
        }, 'danger')
        : null))
}
