import { h } from '../dom'
import { fieldName, wordsFor, type RuledDetail } from './error-words'
import { STRINGS, type Lang } from './strings'

/*
 * The console's form toolkit: labelled fields, and errors in words at the field a JSON Pointer
 * names (the admin API answers 422 with `details[].path` relative to the entity, contract §17).
 * A detail goes to the field whose pointer is the longest prefix of its path; one that matches
 * no field is shown at the top of the form. Each is said in the page's language, the field
 * named by its label (its group's first where it has one: "Opening hours, Monday"), from the
 * detail's `rule` (./error-words.ts, contract §24): never the server's English `message`, which
 * may hold a JSON Pointer, a pattern or a schema type. Each is tied to its input with
 * `aria-describedby` and the input is marked `aria-invalid`; the first is focused.
 */

let nextId = 0
export const uid = (stem: string) => `${stem}-${++nextId}`

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement

export interface Field {
  pointer: string
  root: HTMLElement
  focus: HTMLElement
  error: HTMLElement
  /** How an error names the field; absent: the text of the root's label or legend. */
  label?: string
  /** The detail as this field says it (a minutes field turns the server's bounds in seconds into minutes). */
  adjust?: (detail: ErrorDetail) => ErrorDetail
}

/** A detail of the API's answer; `words`: one the page made itself, already in its language. */
export interface ErrorDetail extends RuledDetail { words?: string }

/** The page's language (the frame's `<html lang>`). */
const pageLang = (): Lang => (document.documentElement.lang.toLowerCase().startsWith('ar') ? 'ar' : 'en')

/** The name an error gives a field: its label, after the legend of the group it stands in, if any. */
function nameOf(f: Field, lang: Lang): string {
  const label = f.label ?? f.root.querySelector('label, legend')?.textContent ?? ''
  const group = f.root.parentElement?.closest('fieldset')?.querySelector(':scope > legend')?.textContent ?? null
  return fieldName(label, group, lang)
}

export class FormErrors {
  readonly fields: Field[] = []
  constructor(readonly general: HTMLElement) {}

  add(field: Field): Field {
    this.fields.push(field)
    return field
  }

  /** Forgets a field whose control left the form (an interval or a list row removed). */
  remove(field: Field): void {
    const at = this.fields.indexOf(field)
    if (at >= 0) this.fields.splice(at, 1)
  }

  clear(): void {
    this.general.textContent = ''
    this.general.hidden = true
    for (const f of this.fields) {
      f.error.textContent = ''
      f.error.hidden = true
      f.focus.removeAttribute('aria-invalid')
    }
  }

  /** Puts each detail at its field; returns how many found a field. */
  show(details: ErrorDetail[], intro: string): number {
    this.clear()
    let placed = 0
    let first: HTMLElement | null = null
    const loose: string[] = []
    const lang = pageLang()
    for (const raw of details) {
      const field = this.fieldFor(raw.path)
      const d = field?.adjust?.(raw) ?? raw
      if (field === null) {
        loose.push(d.words ?? wordsFor(d, STRINGS[lang].thisForm, lang))
        continue
      }
      const words = d.words ?? wordsFor(d, nameOf(field, lang), lang)
      field.error.textContent = field.error.textContent ? `${field.error.textContent} ${words}` : words
      field.error.hidden = false
      field.focus.setAttribute('aria-invalid', 'true')
      first ??= field.focus
      placed += 1
    }
    this.say([intro, ...loose].join(' '))
    first?.focus()
    return placed
  }

  say(message: string): void {
    this.general.textContent = message
    this.general.hidden = message === ''
  }

  private fieldFor(path: string): Field | null {
    let best: Field | null = null
    for (const f of this.fields) {
      if ((path === f.pointer || path.startsWith(`${f.pointer}/`)) && (best === null || f.pointer.length > best.pointer.length)) best = f
    }
    return best
  }
}

/** A labelled control with its error line. */
export function field(errors: FormErrors, label: string, control: Control, pointer: string, hint?: string): HTMLElement {
  control.id ||= uid('f')
  const errorId = `${control.id}-error`
  const hintId = hint === undefined ? null : `${control.id}-hint`
  control.setAttribute('aria-describedby', [hintId, errorId].filter(Boolean).join(' '))
  const error = h('p', { class: 'field-error', id: errorId, hidden: true })
  const root = h('div', { class: 'field' }, h('label', { for: control.id }, label), hintId === null ? null : h('p', { class: 'field-hint', id: hintId }, hint!), control, error)
  errors.add({ pointer, root, focus: control, error, label })
  return root
}

/** A checkbox with its label after it. */
export function checkbox(errors: FormErrors, label: string, checked: boolean, pointer: string): { root: HTMLElement; input: HTMLInputElement } {
  const input = h('input', { type: 'checkbox', id: uid('c') })
  input.checked = checked
  const errorId = `${input.id}-error`
  input.setAttribute('aria-describedby', errorId)
  const error = h('p', { class: 'field-error', id: errorId, hidden: true })
  const root = h('div', { class: 'field field-check' }, input, h('label', { for: input.id }, label), error)
  errors.add({ pointer, root, focus: input, error, label })
  return { root, input }
}

/** A group of checkboxes (a list of IDs) in a fieldset with its legend. */
export function checkList(errors: FormErrors, legend: string, options: { value: string; label: string }[], chosen: string[], pointer: string): { root: HTMLElement; read: () => string[] } {
  const boxes = options.map((o) => {
    const input = h('input', { type: 'checkbox', id: uid('c'), value: o.value })
    input.checked = chosen.includes(o.value)
    return { input, root: h('span', { class: 'check-option' }, input, h('label', { for: input.id }, o.label)) }
  })
  const error = h('p', { class: 'field-error', id: uid('e'), hidden: true })
  const root = h('fieldset', { class: 'field field-list', 'aria-describedby': error.id }, h('legend', null, legend), boxes.map((b) => b.root), error)
  errors.add({ pointer, root, focus: boxes[0]?.input ?? root, error, label: legend })
  return { root, read: () => boxes.filter((b) => b.input.checked).map((b) => b.input.value) }
}

export function textInput(value: string, attrs: Record<string, string> = {}): HTMLInputElement {
  const input = h('input', { type: 'text', ...attrs })
  input.value = value
  return input
}

export function numberInput(value: number | undefined, min: number, max: number): HTMLInputElement {
  const input = h('input', { type: 'number', min, max, step: 1, inputmode: 'numeric' })
  input.value = value === undefined ? '' : String(value)
  return input
}

/** A number field's value: omitted when empty (the default applies), else the number as typed. */
export const numberOf = (input: HTMLInputElement): number | undefined => (input.value.trim() === '' ? undefined : Number(input.value))

export function select(options: { value: string; label: string }[], chosen: string): HTMLSelectElement {
  const el = h('select', null, options.map((o) => h('option', { value: o.value }, o.label)))
  el.value = chosen
  return el
}

/** A plain button (never a submit), its accessible name `label` where its text alone says too little. */
export function button(text: string, label?: string, className?: string): HTMLButtonElement {
  return h('button', { type: 'button', class: className ?? null, 'aria-label': label ?? null }, text)
}

/** A wall-clock time, HH:MM (24-hour values whatever the browser shows), always left to right. */
export function timeInput(value: string, label: string): HTMLInputElement {
  const input = h('input', { type: 'time', step: 60, dir: 'ltr', 'aria-label': label })
  input.value = value
  return input
}

/** A day, YYYY-MM-DD, always left to right. */
export function dateInput(value: string, label: string): HTMLInputElement {
  const input = h('input', { type: 'date', dir: 'ltr', 'aria-label': label })
  input.value = value
  return input
}

/**
 * A duration stored in seconds, shown and typed in minutes (contract §24): 450 s shows 7.5;
 * a decimal is allowed and saved as whole seconds. Two decimals are enough to give back any
 * whole number of seconds exactly, so opening and saving a form changes nothing.
 */
export function minutesInput(seconds: number | undefined, maxSeconds: number): HTMLInputElement {
  const input = h('input', { type: 'number', min: 0.02, max: maxSeconds / 60, step: 'any', inputmode: 'decimal' })
  input.value = seconds === undefined ? '' : String(Math.round((seconds / 60) * 100) / 100)
  return input
}

/** A minutes field's value in whole seconds; omitted when empty (the default applies). */
export const secondsOf = (input: HTMLInputElement): number | undefined => (input.value.trim() === '' ? undefined : Math.round(Number(input.value) * 60))

/** The server's bounds in seconds said in minutes, for a field typed in minutes. */
export function inMinutes(detail: ErrorDetail): ErrorDetail {
  if (detail.rule !== 'range' || detail.params === undefined) return detail
  const params = { ...detail.params }
  for (const key of ['min', 'max'] as const) {
    const value = params[key]
    if (typeof value === 'number') params[key] = Math.ceil((value / 60) * 100) / 100
  }
  return { ...detail, params }
}

/** "a, b ,c" → ["a","b","c"] (empty parts dropped). */
export const commaList = (text: string): string[] => text.split(',').map((s) => s.trim()).filter((s) => s !== '')
