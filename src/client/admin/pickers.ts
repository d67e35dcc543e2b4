import { withPageDigits } from '../../screens/shared/digits'
import { h } from '../dom'
import { button, dateInput, FormErrors, textInput, uid, type Field } from './forms'
import { fill, type Strings } from './strings'

/*
 * The Branch editors' pickers (contract §24: "time zone chosen from the IANA list with search",
 * closed dates, break reasons, the unit's languages): each gives the value exactly as a
 * provisioning file writes it, and registers the JSON Pointers the server's refusals name, so
 * FormErrors says them beside the right control. Rows added or removed keep their pointers
 * in step with what `read()` sends.
 */

/** The zones this browser knows, as `Intl` lists them (canonical IANA names). */
function knownZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone')
  } catch {
    return []
  }
}

const zoneKey = (text: string) => text.trim().toLowerCase().replace(/[\s_]+/g, '_')

/**
 * What a typed zone stands for: the zone itself (any case), else the one zone whose city is
 * that ("london" → Europe/London, "new york" → America/New_York), else the one zone that
 * contains it; else what was typed, for the server to judge.
 */
export function completeZone(typed: string, zones: readonly string[]): string {
  const key = zoneKey(typed)
  if (key === '') return typed.trim()
  const exact = zones.find((z) => zoneKey(z) === key)
  if (exact !== undefined) return exact
  const city = zones.filter((z) => zoneKey(z.split('/').pop()!) === key)
  if (city.length === 1) return city[0]!
  const inside = zones.filter((z) => zoneKey(z).includes(key))
  return inside.length === 1 ? inside[0]! : typed.trim()
}

let zoneList: HTMLDataListElement | null = null

/** One datalist of every zone for the whole page, each with its offset now ("GMT+1"). */
function zoneDataList(extra: string): HTMLDataListElement {
  if (zoneList === null) {
    const now = new Date()
    const lang = document.documentElement.lang || 'en'
    const offset = (zone: string) => {
      try {
        return new Intl.DateTimeFormat(withPageDigits(lang), { timeZone: zone, timeZoneName: 'shortOffset' }).formatToParts(now).find((p) => p.type === 'timeZoneName')?.value ?? ''
      } catch {
        return ''
      }
    }
    zoneList = h('datalist', { id: uid('zones') }, knownZones().map((z) => h('option', { value: z, label: offset(z) })))
    document.body.append(zoneList)
  }
  if (extra !== '' && ![...zoneList.options].some((o) => o.value === extra)) zoneList.append(h('option', { value: extra }))
  return zoneList
}

/**
 * The time zone: a text box with the IANA list as suggestions (typing "London" offers
 * Europe/London); leaving it with a city or a unique part of a name fills in the zone.
 */
export function timeZoneInput(value: string): HTMLInputElement {
  const list = zoneDataList(value)
  const input = textInput(value, { list: list.id, dir: 'ltr', maxlength: '64', autocomplete: 'off', spellcheck: 'false' })
  input.addEventListener('change', () => {
    const zone = completeZone(input.value, knownZones())
    if (zone !== input.value) input.value = zone
  })
  return input
}

interface Row<C> { root: HTMLElement; control: C; fields: Field[] }

/** A list of rows with Remove buttons and an Add button, in a fieldset named by `legend`. */
function rowList<C extends HTMLElement>(errors: FormErrors, options: {
  legend: string
  pointer: string
  hint?: string
  empty: string
  addText: string
  addLabel: string
  removeText: string
  make: (value: string, index: number) => { control: C; label: () => string; parts: HTMLElement[] }
  values: string[]
}): { root: HTMLElement; rows: Row<C>[]; error: HTMLElement } {
  const rows: Row<C>[] = []
  const error = h('p', { class: 'field-error', id: uid('e'), hidden: true })
  const list = h('ul', { class: 'row-list' })
  const empty = h('p', { class: 'row-empty' }, options.empty)
  const add = button(options.addText, options.addLabel, 'add-row')
  const hintId = options.hint === undefined ? null : uid('hint')
  const root = h('fieldset', { class: 'field rows', 'aria-describedby': [hintId, error.id].filter(Boolean).join(' ') },
    h('legend', null, options.legend), hintId === null ? null : h('p', { class: 'field-hint', id: hintId }, options.hint!), list, empty, add, error)
  const group: Field = { pointer: options.pointer, root, focus: add, error, label: options.legend }
  errors.add(group)
  const sync = () => {
    empty.hidden = rows.length > 0
    list.hidden = rows.length === 0
    group.focus = rows[0]?.control ?? add
  }
  const addRow = (value: string) => {
    const { control, label, parts } = options.make(value, rows.length)
    control.setAttribute('aria-describedby', error.id)
    const remove = button(options.removeText, undefined, 'remove-row')
    const named = () => remove.setAttribute('aria-label', label())
    control.addEventListener('input', named)
    control.addEventListener('change', named)
    named()
    const li = h('li', { class: 'row' }, parts, remove)
    const row: Row<C> = { root: li, control, fields: [] }
    remove.addEventListener('click', () => {
      const at = rows.indexOf(row)
      rows.splice(at, 1)
      for (const f of row.fields) errors.remove(f)
      li.remove()
      sync()
      ;(rows[at]?.control ?? rows[at - 1]?.control ?? add).focus()
    })
    rows.push(row)
    list.append(li)
    sync()
    return row
  }
  add.addEventListener('click', () => addRow('').control.focus())
  for (const value of options.values) addRow(value)
  sync()
  return { root, rows, error }
}

/** Closed dates (contract §18): one date box per day, Add and Remove; sorted, without repeats. */
export function closedDatesField(errors: FormErrors, t: Strings, dates: string[]): { root: HTMLElement; read: () => string[] } {
  const { root, rows } = rowList<HTMLInputElement>(errors, {
    legend: t.closedDates, pointer: '/closedDates', empty: t.noClosedDates, addText: t.addClosedDate, addLabel: t.addClosedDate, removeText: t.remove, values: dates,
    make: (value, index) => {
      const input = dateInput(value, fill(t.closedDate, { n: String(index + 1) }))
      return { control: input, parts: [input], label: () => fill(t.removeClosedDate, { date: input.value || String(index + 1) }) }
    },
  })
  return { root, read: () => [...new Set(rows.map((r) => r.control.value).filter((v) => v !== ''))].sort() }
}

/** A list of short texts (break reasons): one box each; blank ones are left out, and each box's pointer follows. */
export function textListField(errors: FormErrors, t: Strings, options: { legend: string; pointer: string; hint: string; item: string; addText: string; maxlength: number }, values: string[]): { root: HTMLElement; read: () => string[] } {
  const list = rowList<HTMLInputElement>(errors, {
    legend: options.legend, pointer: options.pointer, hint: options.hint, empty: t.none, addText: options.addText, addLabel: options.addText, removeText: t.remove, values,
    make: (value, index) => {
      const input = textInput(value, { dir: 'auto', maxlength: String(options.maxlength), 'aria-label': fill(options.item, { n: String(index + 1) }) })
      return { control: input, parts: [input], label: () => fill(t.removeNamed, { name: input.value.trim() || fill(options.item, { n: String(index + 1) }) }) }
    },
  })
  return {
    root: list.root,
    read: () => {
      const kept: string[] = []
      for (const row of list.rows) {
        for (const f of row.fields) errors.remove(f)
        row.fields = []
        const value = row.control.value.trim()
        if (value === '') continue
        // The server's /breakReasons/2 is the third reason sent, wherever blanks stood between.
        row.fields.push(errors.add({ pointer: `${options.pointer}/${kept.length}`, root: row.root, focus: row.control, error: list.error, label: options.legend }))
        kept.push(value)
      }
      return kept
    },
  }
}

/** Languages a branch commonly offers (contract §18), beside the unit's own. */
export const COMMON_LANGUAGES = ['en', 'ar', 'fr', 'ur', 'hi', 'bn', 'fa', 'tr', 'es', 'de', 'zh', 'tl']

/** A language's name in the page's language ("Arabic"), else its tag. */
export function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames([document.documentElement.lang || 'en'], { type: 'language' }).of(tag) ?? tag
  } catch {
    return tag
  }
}

/**
 * The unit's languages: a checkbox per common language and per language it has, and another
 * tag typed and added; the default language is chosen among those checked. `onChange` hears
 * the chosen languages (the names follow them).
 */
export function languagesField(errors: FormErrors, t: Strings, chosen: string[], defaultLanguage: string, onChange: (languages: string[]) => void): { fields: HTMLElement[]; read: () => { languages: string[]; defaultLanguage: string } } {
  const error = h('p', { class: 'field-error', id: uid('e'), hidden: true })
  const options = h('div', { class: 'language-options' })
  const boxes: HTMLInputElement[] = []
  const addBox = (tag: string, checked: boolean) => {
    const input = h('input', { type: 'checkbox', id: uid('c'), value: tag })
    input.checked = checked
    input.addEventListener('change', changed)
    boxes.push(input)
    options.append(h('span', { class: 'check-option' }, input, h('label', { for: input.id }, `${languageName(tag)} (`, h('span', { dir: 'ltr' }, tag), ')')))
  }
  const other = textInput('', { dir: 'ltr', maxlength: '35', autocomplete: 'off', spellcheck: 'false' })
  other.id = uid('f')
  const addOther = button(t.addLanguageButton, undefined, 'add-row')
  const root = h('fieldset', { class: 'field languages', 'aria-describedby': error.id }, h('legend', null, t.languages), options,
    h('div', { class: 'language-other' }, h('label', { for: other.id }, t.addLanguage), h('div', { class: 'inline-row' }, other, addOther)), error)
  errors.add({ pointer: '/languages', root, get focus() { return boxes[0] ?? other }, error, label: t.languages })

  const select = h('select', { id: uid('f') })
  const selectError = h('p', { class: 'field-error', id: `${select.id}-error`, hidden: true })
  select.setAttribute('aria-describedby', selectError.id)
  const selectField = h('div', { class: 'field' }, h('label', { for: select.id }, t.defaultLanguage), select, selectError)
  errors.add({ pointer: '/defaultLanguage', root: selectField, focus: select, error: selectError, label: t.defaultLanguage })

  const canonical = (tag: string) => {
    try {
      return Intl.getCanonicalLocales(tag)[0] ?? tag
    } catch {
      return tag
    }
  }
  const pending = () => (other.value.trim() === '' ? null : canonical(other.value.trim()))
  const checked = () => {
    const tags = boxes.filter((b) => b.checked).map((b) => b.value)
    const typed = pending()
    return typed === null || tags.includes(typed) ? tags : [...tags, typed]
  }
  const fillSelect = (keep: string) => {
    const tags = checked()
    // The unit's default stays offered while it is its default, so opening the form changes nothing.
    const offered = tags.includes(keep) || keep === '' ? tags : [keep, ...tags]
    select.replaceChildren(...offered.map((tag) => h('option', { value: tag }, `${languageName(tag)} (${tag})`)))
    select.value = offered.includes(keep) ? keep : (offered[0] ?? '')
  }
  function changed() {
    fillSelect(boxes.some((b) => b.checked && b.value === select.value) ? select.value : '')
    onChange(checked())
  }
  const addTyped = () => {
    const tag = pending()
    if (tag === null) return
    const box = boxes.find((b) => b.value.toLowerCase() === tag.toLowerCase())
    if (box !== undefined) box.checked = true
    else addBox(tag, true)
    other.value = ''
    changed()
    other.focus()
  }
  addOther.addEventListener('click', addTyped)
  other.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return
    event.preventDefault()
    addTyped()
  })
  for (const tag of [...new Set([...chosen, ...COMMON_LANGUAGES])]) addBox(tag, chosen.includes(tag))
  fillSelect(defaultLanguage)
  return {
    fields: [root, selectField],
    // The default first, as the server keeps the list (src/provisioning/service.ts, unitLanguages).
    read: () => {
      const tags = checked()
      const first = select.value
      return { languages: tags.includes(first) ? [first, ...tags.filter((tag) => tag !== first)] : tags, defaultLanguage: first }
    },
  }
}
