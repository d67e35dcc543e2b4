import type { ErrorEnvelope } from '../../contract/wire'
import { withPageDigits } from '../../screens/shared/digits'
import type { ApiAnswer } from '../api'
import { h } from '../dom'
import type { FormErrors } from './forms'
import type { AdminContext } from './section'
import { fill, type Strings } from './strings'

/*
 * What the devices, staff, keys and voice sections share: an answer turned into words (at the
 * fields its JSON Pointers name, else at the top of the form), a table with column headers,
 * and the box that shows a secret once with its Copy button and the warning that it is shown once.
 */

export const ADMIN_API = '/api/admin/v1'

/** True for a 2xx answer; otherwise the problem is said in words (at its fields when it has pointers). */
export function answered(answer: ApiAnswer | null, errors: FormErrors, t: Strings): boolean {
  if (answer !== null && answer.status >= 200 && answer.status < 300) {
    errors.clear()
    return true
  }
  errors.say(problem(answer, t))
  const details = (answer?.body as ErrorEnvelope | null)?.error?.details
  if (answer?.status === 422 || answer?.status === 409) {
    // Said in words at their fields (contract §24); the server's English message is not repeated.
    if (details !== undefined && details.length > 0) errors.show(details, t.invalid)
  }
  return false
}

/** An answer that is not 2xx, in words. */
export function problem(answer: ApiAnswer | null, t: Strings): string {
  if (answer === null) return t.offline
  if (answer.status === 401) return t.signedOut
  if (answer.status === 403 && answer.code !== 'ORIGIN_FORBIDDEN') return `${t.forbidden} ${answer.message}`
  return fill(t.failed, { message: answer.message || String(answer.status) })
}

export function when(ctx: AdminContext, iso: string | null): string {
  if (iso === null) return ctx.t.never
  return new Intl.DateTimeFormat(withPageDigits(ctx.locale), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
}

export function timeCell(ctx: AdminContext, iso: string | null): HTMLElement {
  return iso === null ? h('td', null, ctx.t.never) : h('td', null, h('time', { datetime: iso }, when(ctx, iso)))
}

/** A table with a caption (its accessible name) and column headers. */
export function table(caption: string, headers: string[], rows: HTMLElement[], empty: string): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty-note' }, empty)
  return h('div', { class: 'table-scroll' }, h('table', { class: 'admin-table' },
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', null, h('tr', null, headers.map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', null, rows)))
}

/** A panel (a card with its heading) of a section. */
export function panel(id: string, title: string, ...children: (Node | null)[]): HTMLElement {
  return h('section', { class: 'entity-section', 'aria-labelledby': id }, h('h3', { id }, title), ...children)
}

/**
 * A secret shown once: its label, the value (selectable, left to right), a Copy button and
 * the warning. Focus moves to the box so a screen reader reads it at once.
 */
export function secretBox(ctx: AdminContext, label: string, value: string, extra: (Node | null)[] = []): HTMLElement {
  const { t } = ctx
  const id = `secret-${Math.random().toString(36).slice(2, 8)}`
  const status = h('span', { class: 'copy-status', role: 'status' })
  const copy = h('button', { type: 'button', 'aria-describedby': id }, t.copy)
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(value)
      status.textContent = t.copied
    } catch {
      status.textContent = t.copyFailed
    }
  })
  const box = h('div', { class: 'secret-box', tabindex: '-1', role: 'group', 'aria-label': label },
    h('h4', null, label),
    h('p', { class: 'secret-warning' }, t.shownOnce),
    h('p', { class: 'secret-row' }, h('code', { class: 'secret-value', id, dir: 'ltr' }, value), copy, status),
    ...extra)
  return box
}

/** The server's SVG (a QR code made on the box) in a figure with its text alternative. */
export function qrFigure(svg: string, label: string): HTMLElement {
  const holder = h('div', { class: 'qr', role: 'img', 'aria-label': label })
  holder.innerHTML = svg
  holder.querySelector('svg')?.setAttribute('aria-hidden', 'true')
  // The server's English <title> would show as the picture's tooltip on a page in any language.
  holder.querySelector('svg title')?.remove()
  return holder
}

/** A confirm-then-act button; `label` is its visible text, `name` its accessible name. */
export function actionButton(text: string, name: string, act: () => void | Promise<void>, className = ''): HTMLButtonElement {
  const button = h('button', { type: 'button', class: className, 'aria-label': name }, text)
  button.addEventListener('click', async () => {
    button.disabled = true
    try {
      await act()
    } finally {
      button.disabled = false
    }
  })
  return button
}
