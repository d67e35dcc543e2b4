import type { AdminAuditEntry, AdminAuditPage } from '../../../contract/wire'
import { api } from '../api'
import { h } from '../dom'
import { select, textInput, uid } from './forms'
import type { AdminSection } from './sections'
import { SECTION_ROLES } from './access'
import { fill } from './strings'

/*
 * The Audit log section (contract §17): every change, newest first, filtered by entity type,
 * action and a start date, a page at a time ("Older entries" follows the answer's `next`).
 * Each entry's before and after are shown on demand, as the JSON the log holds.
 */

const TYPES = ['queueUnit', 'location', 'service', 'counter', 'workspace', 'webhook', 'queueKey', 'workspaceKey', 'displayToken', 'widget', 'prayerSource']
const PAGE = 50

export const auditSection: AdminSection = {
  id: 'audit',
  label: (t) => t.sectionAudit,
  roles: SECTION_ROLES.audit,
  render: (main, ctx) => {
    const { t, locale } = ctx
    const type = select([{ value: '', label: t.anyType }, ...TYPES.map((v) => ({ value: v, label: v }))], '')
    type.id = uid('type')
    const action = textInput('', { dir: 'ltr', maxlength: '60', id: uid('action') })
    const since = h('input', { type: 'date', id: uid('since') })
    const show = h('button', { type: 'submit', class: 'primary' }, t.apply)
    const form = h('form', { class: 'audit-filters', 'aria-label': t.auditFilters },
      h('div', { class: 'field' }, h('label', { for: type.id }, t.entityType), type),
      h('div', { class: 'field' }, h('label', { for: action.id }, t.action), action),
      h('div', { class: 'field' }, h('label', { for: since.id }, t.since), since),
      show)
    const message = h('p', { class: 'form-message', role: 'status' })
    const body = h('tbody')
    const table = h('table', { class: 'audit-table' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, t.at), h('th', { scope: 'col' }, t.actor), h('th', { scope: 'col' }, t.change), h('th', { scope: 'col' }, t.entity), h('th', { scope: 'col' }, t.details))),
      body)
    const older = h('button', { type: 'button', hidden: true }, t.older)
    const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' })

    const row = (e: AdminAuditEntry) => h('tr', null,
      h('td', null, h('time', { datetime: e.at }, when.format(new Date(e.at)))),
      h('td', { dir: 'ltr' }, `${e.actor.type}: ${e.actor.id}`),
      h('td', { dir: 'ltr' }, e.action),
      h('td', { dir: 'ltr' }, `${e.entity.type} ${e.entity.id}`),
      h('td', null, h('details', null, h('summary', null, t.details),
        h('div', { class: 'audit-diff', dir: 'ltr' },
          h('div', null, h('h4', null, t.before), h('pre', null, e.before === null ? '—' : JSON.stringify(e.before, null, 2))),
          h('div', null, h('h4', null, t.after), h('pre', null, e.after === null ? '—' : JSON.stringify(e.after, null, 2)))))))

    let next: number | null = null
    const fetchPage = async (append: boolean) => {
      const query = new URLSearchParams({ limit: String(PAGE) })
      if (type.value) query.set('entityType', type.value)
      if (action.value.trim()) query.set('action', action.value.trim())
      if (since.value) query.set('since', `${since.value}T00:00:00`)
      if (append && next !== null) query.set('before', String(next))
      const answer = await api<AdminAuditPage>('GET', `/api/admin/v1/audit?${query}`)
      if (answer?.status !== 200) {
        message.textContent = answer === null ? t.offline : fill(t.failed, { message: answer.message })
        return
      }
      const page = answer.body!
      if (!append) body.replaceChildren()
      body.append(...page.data.map(row))
      next = page.next
      older.hidden = next === null
      message.textContent = body.childElementCount === 0 ? t.noEntries : ''
    }
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      void fetchPage(false)
    })
    older.addEventListener('click', () => void fetchPage(true))
    main.append(form, message, h('div', { class: 'table-scroll' }, table), older)
    return fetchPage(false)
  },
}
