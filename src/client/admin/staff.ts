import type { AdminSetupLink, AdminUser } from '../../contract/wire'
import { api } from '../api'
import { h } from '../dom'
import { commaList, field, FormErrors, select, textInput } from './forms'
import { actionButton, ADMIN_API, answered, panel, problem, qrFigure, secretBox, table, timeCell, when } from './kit'
import type { AdminContext, AdminSection } from './section'
import { SECTION_ROLES } from '../../screens/shared/console-access'
import { fill } from './strings'

/*
 * The Staff section (contract §16, §17; administrators only, managers never see it): add a
 * person — the single-use setup link and its QR code shown once, with Copy and the warning —
 * change role, units or name, disable, reset (a new link, shown the same way).
 */

const ROLES = ['clerk', 'manager', 'admin']

/** The role, units and name fields of the add and change forms. */
function personFields(ctx: AdminContext, errors: FormErrors, user: AdminUser | null) {
  const { t } = ctx
  const role = select(ROLES.map((r) => ({ value: r, label: t.userRoles[r] ?? r })), user?.role ?? 'clerk')
  const units = textInput((user?.queueUnits ?? []).join(', '), { dir: 'ltr', placeholder: 'qu_main' })
  const displayName = textInput(user?.displayName ?? '', { maxlength: '120', autocomplete: 'off' })
  return {
    fields: [field(errors, t.displayName, displayName, '/displayName'), field(errors, t.userRole, role, '/role'), field(errors, t.userUnits, units, '/queueUnits')],
    read: () => ({
      role: role.value,
      ...(displayName.value.trim() === '' ? {} : { displayName: displayName.value.trim() }),
      ...(role.value === 'admin' ? {} : { queueUnits: commaList(units.value) }),
    }),
  }
}

function setupLinkBox(ctx: AdminContext, link: AdminSetupLink): HTMLElement {
  const { t } = ctx
  return secretBox(ctx, fill(t.setupLinkFor, { name: link.username }), link.setupUrl, [
    h('p', null, fill(t.setupSteps, { name: link.username, time: when(ctx, link.expiresAt) })),
    qrFigure(link.qrSvg, link.setupUrl),
  ])
}

export const staffSection: AdminSection = {
  id: 'staff',
  label: (t) => t.sectionStaff,
  roles: SECTION_ROLES.staff,
  render: async (main, ctx) => {
    const { t } = ctx
    const shown = h('div', { class: 'secret-holder' })
    const showLink = (link: AdminSetupLink) => {
      shown.replaceChildren(setupLinkBox(ctx, link))
      shown.querySelector<HTMLElement>('.secret-box')?.focus()
    }

    const general = h('p', { class: 'form-message', role: 'alert', hidden: true })
    const errors = new FormErrors(general)
    const username = textInput('', { dir: 'ltr', maxlength: '64', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false' })
    const person = personFields(ctx, errors, null)
    const submit = h('button', { type: 'submit', class: 'primary' }, t.add)
    const addForm = h('form', { class: 'entity-form', novalidate: true }, general, field(errors, t.username, username, '/username'), ...person.fields, h('div', { class: 'form-actions' }, submit))
    addForm.addEventListener('submit', async (event) => {
      event.preventDefault()
      submit.disabled = true
      const answer = await api<{ data: AdminSetupLink }>('POST', `${ADMIN_API}/users`, { username: username.value.trim(), ...person.read() })
      submit.disabled = false
      if (!answered(answer, errors, t)) return
      addForm.reset()
      showLink(answer!.body!.data)
      await refresh()
    })

    const listHolder = h('div')
    const refresh = async () => {
      const answer = await api<{ data: AdminUser[] }>('GET', `${ADMIN_API}/users`)
      if (answer?.status !== 200) {
        listHolder.replaceChildren(h('p', { class: 'admin-error', role: 'alert' }, problem(answer, t)))
        return
      }
      const rows = answer.body!.data.map((u) => userRow(ctx, u, showLink, refresh))
      listHolder.replaceChildren(table(t.people, [t.name, t.userRole, t.unit, t.state, t.password, t.created, t.actions], rows, ''))
    }

    main.append(panel('h-add-user', t.addUser, addForm, shown), panel('h-people', t.people, listHolder))
    await refresh()
  },
}

function userRow(ctx: AdminContext, u: AdminUser, showLink: (link: AdminSetupLink) => void, refresh: () => Promise<void>): HTMLElement {
  const { t } = ctx
  const label = u.displayName || u.username
  const general = h('p', { class: 'form-message', role: 'alert', hidden: true })
  const errors = new FormErrors(general)
  const person = personFields(ctx, errors, u)
  const save = h('button', { type: 'submit', class: 'primary' }, t.save)
  const form = h('form', { class: 'entity-form', novalidate: true }, general, ...person.fields, h('div', { class: 'form-actions' }, save))
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const answer = await api('PATCH', `${ADMIN_API}/users/${encodeURIComponent(u.username)}`, person.read())
    if (!answered(answer, errors, t)) return
    ctx.announce(t.saved)
    await refresh()
  })
  const change = h('details', { class: 'row-editor' }, h('summary', { 'aria-label': fill(t.changeNamed, { name: label }) }, t.changeButton), form)
  const active = u.state === 'active'
  return h('tr', null,
    h('td', null, h('span', null, label), h('br'), h('span', { class: 'entity-id', dir: 'ltr' }, u.username)),
    h('td', null, t.userRoles[u.role] ?? u.role),
    h('td', { dir: 'ltr' }, u.role === 'admin' ? '—' : u.queueUnits.join(', ')),
    h('td', null, t.states[u.state] ?? u.state),
    h('td', null, u.passwordSet ? t.passwordSet : t.passwordNotSet),
    timeCell(ctx, u.createdAt),
    h('td', { class: 'row-actions' },
      active ? change : null,
      actionButton(t.reset, fill(t.resetNamed, { name: label }), async () => {
        if (!confirm(fill(t.confirmReset, { name: label }))) return
        const answer = await api<{ data: AdminSetupLink }>('POST', `${ADMIN_API}/users/${encodeURIComponent(u.username)}/reset`)
        if (answer?.status === 200 || answer?.status === 201) showLink(answer.body!.data)
        else ctx.announce(problem(answer, t))
        await refresh()
      }),
      active
        ? actionButton(t.disable, fill(t.disableNamed, { name: label }), async () => {
          if (!confirm(fill(t.confirmDisable, { name: label }))) return
          const answer = await api('POST', `${ADMIN_API}/users/${encodeURIComponent(u.username)}/disable`)
          ctx.announce(answer?.status === 200 ? t.saved : problem(answer, t))
          await refresh()
        }, 'danger')
        : null))
}
