import { withPageDigits } from '../../screens/shared/digits'
import type { AdminAuditEntry, AdminAuditPage } from '../../contract/wire'
import { api } from '../api'
import { h } from '../dom'
import { select, textInput, uid } from './forms'
import type { AdminSection } from './section'
import { auditTypesFor, SECTION_ROLES } from '../../screens/shared/console-access'
import { auditChange } from './audit-diff'
import { fill, type Lang, type Strings } from './strings'

/*
 * The Audit log section (contract §17): every change, newest first, filtered by entity type,
 * action and a start date, a page at a time ("Older entries" follows the answer's `next`).
 * Each entry's change is shown as its fields, before → after (contract §24, audit-diff.ts):
 * an update lists the fields that differ, a create the fields it set, a delete those it had.
 * "Everything, before and after" opens the whole snapshots as the log holds them, wrapped, so
 * nothing on the page scrolls but the page (no scroll region a keyboard could not reach).
 * Every value goes in as text.
 */

const PAGE = 50

/** Before → after in the reading direction: the arrow points from the old value to the new. */
const ARROW: Record<Lang, string> = { en: '→', ar: '←' }

/** One value as text in its own direction (a name in Arabic, an address in Latin script). */
const value = (text: string) => h('bdi', null, text)

/** A field's path (`rateLimits.issuePerMinute`) may break after each dot: a long one wraps in its column instead of running out of it (issue 48). */
function breakAfterDots(label: string): (string | HTMLElement)[] {
  return label.split('.').flatMap((part, i, parts) => (i < parts.length - 1 ? [`${part}.`, h('wbr')] : [part]))
}

/** The fields of one entry: a list of label and value, or before → after for an update. */
function changeList(e: AdminAuditEntry, t: Strings, lang: Lang): HTMLElement | null {
  if (e.before === null && e.after === null) return null
  const { kind, fields } = auditChange(e, lang)
  if (fields.length === 0) return h('p', { class: 'audit-none' }, t.noFieldChanged)
  return h('dl', { class: 'audit-fields' }, fields.flatMap((f) => [
    h('dt', null, ...breakAfterDots(f.label)),
    kind === 'update'
      ? h('dd', null,
        h('span', { class: 'audit-was' }, h('span', { class: 'visually-hidden' }, `${t.was} `), value(f.before ?? '—')),
        h('span', { class: 'audit-arrow', 'aria-hidden': 'true' }, ` ${ARROW[lang]} `),
        h('span', { class: 'audit-now' }, h('span', { class: 'visually-hidden' }, `, ${t.now} `), value(f.after ?? '—')))
      : h('dd', null, value((kind === 'create' ? f.after : f.before) ?? '—')),
  ]))
}

/** The whole snapshots, on demand: wrapped text, never a scroll region of its own. */
function everything(e: AdminAuditEntry, t: Strings): HTMLElement | null {
  if (e.before === null && e.after === null) return null
  const snapshot = (title: string, data: unknown) => h('div', null, h('h4', null, title), h('pre', { dir: 'ltr' }, data === null ? '—' : JSON.stringify(data, null, 2)))
  return h('details', { class: 'audit-everything' }, h('summary', null, t.everything),
    h('div', { class: 'audit-diff' }, snapshot(t.before, e.before), snapshot(t.after, e.after)))
}

export const auditSection: AdminSection = {
  id: 'audit',
  label: (t) => t.sectionAudit,
  roles: SECTION_ROLES.audit,
  render: (main, ctx) => {
    const { t, locale, lang } = ctx
    const type = select([{ value: '', label: t.anyType }, ...auditTypesFor(ctx.role).map((v) => ({ value: v, label: v }))], '')
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
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, t.at), h('th', { scope: 'col' }, t.actor), h('th', { scope: 'col' }, t.change), h('th', { scope: 'col' }, t.entity), h('th', { scope: 'col' }, t.fields))),
      body)
    const older = h('button', { type: 'button', hidden: true }, t.older)
    const when = new Intl.DateTimeFormat(withPageDigits(locale), { dateStyle: 'medium', timeStyle: 'medium' })

    const row = (e: AdminAuditEntry) => h('tr', null,
      h('td', null, h('time', { datetime: e.at }, when.format(new Date(e.at)))),
      h('td', { dir: 'ltr' }, `${e.actor.type}: ${e.actor.id}`),
      h('td', { dir: 'ltr' }, e.action),
      h('td', { dir: 'ltr' }, `${e.entity.type} ${e.entity.id}`),
      h('td', { class: 'audit-change' }, changeList(e, t, lang), everything(e, t)))

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
