import type { AdminCounterView, AdminDeleteOutcome, AdminErrorCode, AdminLocationView, AdminServiceView, AdminUnitView, AdminWorkspaceView, ErrorEnvelope } from '../../contract/wire'
import { api, type ApiAnswer } from '../api'
import { h } from '../dom'
import { button, checkbox, checkList, commaList, field, FormErrors, inMinutes, minutesInput, numberInput, numberOf, secondsOf, select, textInput, timeInput, uid, type Field } from './forms'
import { closedDatesField, languageName, languagesField, textListField, timeZoneInput } from './pickers'
import type { AdminContext, AdminSection } from './section'
import { SECTION_ROLES } from '../../screens/shared/console-access'
import { fill, type Strings } from './strings'
import { mergeDiff } from './merge-diff'
import { panel, problem } from './kit'

/*
 * The Branch section (contract §17): a queue unit's settings, its locations (with an opening
 * hours editor), services (names per language, hours) and counters. Each entity is one form; a
 * save sends only what the person changed in it, as a JSON Merge Patch with the `revision` it
 * was loaded at (PATCH, contract §24): a field the form does not show keeps its value. A change
 * made meanwhile by someone else answers EDIT_CONFLICT, shown with a Reload button. Validation
 * errors come back as pointers relative to the entity and are shown at their field.
 */

const API = '/api/admin/v1/queue-units'
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const

type Kind = 'location' | 'service' | 'counter'
type Entity = AdminLocationView | AdminServiceView | AdminCounterView
type Hours = Record<string, string[][]>

interface UnitData {
  unit: AdminUnitView
  locations: AdminLocationView[]
  services: AdminServiceView[]
  counters: AdminCounterView[]
}

/** One entity's form body: its fields, and how to read them back into the entity as a file writes it. */
interface Editor {
  fields: HTMLElement[]
  read: () => Record<string, unknown>
}

const COLLECTION: Record<Kind, string> = { location: 'locations', service: 'services', counter: 'counters' }

/** An entity's name in the page's language, else the unit's default (contract §18). */
const nameIn = (entity: { name: string; names: Record<string, string> }): string => entity.names[document.documentElement.lang] ?? entity.name

/** A group of fields placed in the form's grid as if they stood in it directly. */
const contents = (children: HTMLElement[]) => h('div', { class: 'contents' }, children)

/**
 * A name per language (contract §18): a box for each language the unit offers and each the name
 * already has. `setLanguages` follows the unit's languages as they are checked: a language
 * unchecked hides its box while it is empty (a name it holds stays shown, and is kept).
 */
function namesFields(errors: FormErrors, t: Strings, languages: string[], names: Record<string, string>): { fields: HTMLElement[]; read: () => Record<string, string>; setLanguages: (languages: string[]) => void } {
  const inputs: { language: string; input: HTMLInputElement; root: HTMLElement }[] = []
  const box = contents([])
  const addLanguage = (language: string) => {
    const input = textInput(names[language] ?? '', { lang: language, dir: 'auto', maxlength: '200' })
    const root = field(errors, fill(t.nameIn, { language: languageName(language) }), input, `/name/${language}`)
    inputs.push({ language, input, root })
    box.append(root)
  }
  for (const language of new Set([...languages, ...Object.keys(names)])) addLanguage(language)
  // A problem with the name as a whole (none given) lands at the first language's field.
  const first = inputs[0]
  if (first) errors.add({ pointer: '/name', root: first.root, focus: first.input, error: first.root.querySelector('.field-error')!, label: first.root.querySelector('label')!.textContent! })
  const setLanguages = (chosen: string[]) => {
    for (const language of chosen) if (!inputs.some((i) => i.language === language)) addLanguage(language)
    for (const { language, input, root } of inputs) root.hidden = !chosen.includes(language) && input.value.trim() === ''
  }
  return { fields: [box], setLanguages, read: () => Object.fromEntries(inputs.filter((i) => i.input.value.trim() !== '').map((i) => [i.language, i.input.value])) }
}

/**
 * One weekday of the hours editor: its intervals, each a "from" and an "until" time box with
 * Remove, then "Add hours"; "Closed" when it has none. Each interval registers its pointers
 * (`/openingHours/mon/1`, and `/0`, `/1` for its two times) and the day its own, so the server's
 * refusal is said beside the interval it names. An end of 00:00 is midnight, sent as "24:00" (a
 * time box cannot hold 24:00); the file's "24:00" shows as 00:00.
 */
function dayHours(errors: FormErrors, t: Strings, day: (typeof DAYS)[number], intervals: string[][]) {
  const dayName = t.days[day]
  const nameId = uid('day')
  const error = h('p', { class: 'field-error', id: uid('e'), hidden: true })
  const list = h('ul', { class: 'intervals' })
  const closed = h('p', { class: 'hours-closed' }, t.closed)
  const add = button(t.addHours, fill(t.addHoursTo, { day: dayName }), 'add-row')
  const root = h('div', { class: 'hours-day', role: 'group', 'aria-labelledby': nameId },
    h('span', { class: 'day-name', id: nameId }, dayName), h('div', { class: 'day-body' }, list, closed, add, error))
  const rows: { from: HTMLInputElement; to: HTMLInputElement; fields: Field[] }[] = []
  errors.add({ pointer: `/openingHours/${day}`, root, get focus() { return rows[0]?.from ?? add }, error, label: dayName })
  const sync = () => {
    closed.hidden = rows.length > 0
    list.hidden = rows.length === 0
    rows.forEach((row, i) => {
      const [whole, from, to] = row.fields
      whole!.pointer = `/openingHours/${day}/${i}`
      from!.pointer = `/openingHours/${day}/${i}/0`
      to!.pointer = `/openingHours/${day}/${i}/1`
    })
  }
  const addRow = (fromValue: string, toValue: string) => {
    const from = timeInput(fromValue, fill(t.hoursFrom, { day: dayName }))
    const to = timeInput(toValue === '24:00' ? '00:00' : toValue, fill(t.hoursTo, { day: dayName }))
    from.setAttribute('aria-describedby', error.id)
    to.setAttribute('aria-describedby', error.id)
    const remove = button(t.remove, undefined, 'remove-row')
    const named = () => remove.setAttribute('aria-label', fill(t.removeHours, { day: dayName, from: from.value || '…', to: to.value || '…' }))
    for (const input of [from, to]) input.addEventListener('input', named)
    named()
    const li = h('li', { class: 'interval' }, from, h('span', { class: 'interval-dash', 'aria-hidden': 'true' }, '–'), to, remove)
    const row = {
      from, to,
      fields: [
        errors.add({ pointer: '', root: li, focus: from, error, label: dayName }),
        errors.add({ pointer: '', root: li, focus: from, error, label: dayName }),
        errors.add({ pointer: '', root: li, focus: to, error, label: dayName }),
      ],
    }
    remove.addEventListener('click', () => {
      const at = rows.indexOf(row)
      rows.splice(at, 1)
      for (const f of row.fields) errors.remove(f)
      li.remove()
      sync()
      ;(rows[at]?.from ?? rows[at - 1]?.from ?? add).focus()
    })
    rows.push(row)
    list.append(li)
    sync()
    return row
  }
  add.addEventListener('click', () => addRow('', '').from.focus())
  for (const [from = '', to = ''] of intervals) addRow(from, to)
  sync()
  // A time left empty is sent as typed (""), for the server to say at its box.
  return { root, read: () => rows.map(({ from, to }) => [from.value, to.value === '00:00' ? '24:00' : to.value]) }
}

/** The weekly hours editor: each weekday's intervals in local HH:MM, and a switch for "no hours of its own". */
function hoursFields(errors: FormErrors, t: Strings, hours: Hours | undefined, switchLabel: string, switchMeansNone: boolean): { root: HTMLElement; read: () => Hours | undefined } {
  const toggle = checkbox(errors, switchLabel, switchMeansNone ? hours === undefined : hours !== undefined, '/openingHours')
  const days = DAYS.map((day) => ({ day, editor: dayHours(errors, t, day, hours?.[day] ?? []) }))
  const week = h('div', { class: 'hours-days' }, days.map(({ editor }) => editor.root))
  const none = () => (switchMeansNone ? toggle.input.checked : !toggle.input.checked)
  const sync = () => {
    week.hidden = none()
  }
  toggle.input.addEventListener('change', sync)
  sync()
  const hintId = uid('hint')
  const root = h('fieldset', { class: 'hours', 'aria-describedby': hintId }, h('legend', null, t.hours), h('p', { class: 'field-hint', id: hintId }, t.hoursHint), toggle.root, week)
  return { root, read: () => (none() ? undefined : Object.fromEntries(days.map(({ day, editor }) => [day, editor.read()]))) }
}

function activeField(errors: FormErrors, t: Strings, entity: Entity | null) {
  const box = checkbox(errors, t.active, entity?.active !== false, '/active')
  return { root: box.root, read: () => ({ active: box.input.checked }) }
}

/** A minutes field for a duration stored in seconds: the server's bounds are said in minutes too. */
function minutesField(errors: FormErrors, label: string, seconds: number | undefined, pointer: string, placeholder: number) {
  const input = minutesInput(seconds, 86_400)
  input.placeholder = String(placeholder / 60)
  const root = field(errors, label, input, pointer)
  errors.fields.at(-1)!.adjust = inMinutes
  return { root, read: () => secondsOf(input) }
}

/*
 * A new entity has no ID box (contract §24: IDs are chosen from lists, never typed): the server
 * makes one (`loc_…`, `svc_…`, `ctr_…`) when the body has no `id`.
 */

function locationEditor(errors: FormErrors, t: Strings, data: UnitData, entity: AdminLocationView | null): Editor {
  const names = namesFields(errors, t, data.unit.languages ?? [data.unit.defaultLanguage ?? 'en'], entity?.names ?? {})
  const timezone = timeZoneInput(entity?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone)
  const hours = hoursFields(errors, t, entity?.openingHours, t.alwaysOpen, true)
  const closed = closedDatesField(errors, t, entity?.closedDates ?? [])
  const lastTicket = numberInput(entity?.lastTicketMinutesBeforeClose, 0, 720)
  const join = checkbox(errors, t.remoteJoin, entity?.remoteJoin?.enabled === true, '/remoteJoin')
  const maxWaiting = numberInput(entity?.remoteJoin?.maxWaiting, 1, 10000)
  const networks = textInput((entity?.remoteJoin?.allowedNetworks ?? []).join(', '), { dir: 'ltr', placeholder: '192.168.1.0/24' })
  const active = activeField(errors, t, entity)
  return {
    fields: [
      ...names.fields,
      field(errors, t.timezone, timezone, '/timezone'),
      hours.root,
      closed.root,
      field(errors, t.lastTicketMinutes, lastTicket, '/lastTicketMinutesBeforeClose'),
      h('fieldset', { class: 'group' }, h('legend', null, t.remoteJoin), join.root,
        field(errors, t.maxWaiting, maxWaiting, '/remoteJoin/maxWaiting'),
        field(errors, t.allowedNetworks, networks, '/remoteJoin/allowedNetworks'),
        // The poster's QR code leads phones to this location's join page (contract §20).
        entity?.remoteJoin?.enabled === true
          ? h('p', { class: 'poster-link' }, h('a', { href: `/join/${encodeURIComponent(entity.id)}/poster`, target: '_blank', rel: 'noopener' }, t.printPoster))
          : null),
      active.root,
    ],
    read: () => {
      const openingHours = hours.read()
      const waiting = numberOf(maxWaiting)
      const last = numberOf(lastTicket)
      return {
        name: names.read(), timezone: timezone.value.trim(),
        ...(openingHours === undefined ? {} : { openingHours }),
        closedDates: closed.read(),
        ...(last === undefined ? {} : { lastTicketMinutesBeforeClose: last }),
        ...(join.input.checked || entity?.remoteJoin !== undefined
          ? { remoteJoin: { enabled: join.input.checked, ...(waiting === undefined ? {} : { maxWaiting: waiting }), allowedNetworks: commaList(networks.value) } }
          : {}),
        ...active.read(),
      }
    },
  }
}

type Appointments = NonNullable<AdminServiceView['appointments']>

/**
 * A service's appointments (contract §21): written only when they are on or the service had
 * them, as remote join is; an empty number is left out (its default applies: capacity = the
 * service's counters).
 */
function appointmentsFields(errors: FormErrors, t: Strings, settings: Appointments | undefined) {
  const enabled = checkbox(errors, t.appointmentsEnabled, settings?.enabled === true, '/appointments')
  const number = (value: number | undefined, min: number, max: number, placeholder: number | null) => {
    const input = numberInput(value, min, max)
    if (placeholder !== null) input.placeholder = String(placeholder)
    return input
  }
  const slot = number(settings?.slotMinutes, 5, 240, 15)
  const capacity = number(settings?.capacityPerSlot, 1, 100, null)
  const ahead = number(settings?.bookAheadDays, 1, 365, 14)
  const early = number(settings?.checkIn?.earlyMinutes, 0, 240, 15)
  const late = number(settings?.checkIn?.lateMinutes, 0, 240, 10)
  const retain = number(settings?.retainDays, 1, 3650, 30)
  const details = contents([
    field(errors, t.slotMinutes, slot, '/appointments/slotMinutes'),
    field(errors, t.capacityPerSlot, capacity, '/appointments/capacityPerSlot'),
    field(errors, t.bookAheadDays, ahead, '/appointments/bookAheadDays'),
    field(errors, t.checkInEarly, early, '/appointments/checkIn/earlyMinutes'),
    field(errors, t.checkInLate, late, '/appointments/checkIn/lateMinutes'),
    field(errors, t.retainDays, retain, '/appointments/retainDays'),
  ])
  const sync = () => {
    details.hidden = !enabled.input.checked
  }
  enabled.input.addEventListener('change', sync)
  sync()
  const root = h('fieldset', { class: 'group' }, h('legend', null, t.appointments), enabled.root, details)
  const optional = <K extends string>(key: K, input: HTMLInputElement) => {
    const value = numberOf(input)
    return value === undefined ? {} : { [key]: value } as Record<K, number>
  }
  return {
    root,
    read: (): { appointments?: Appointments } => {
      if (!enabled.input.checked && settings === undefined) return {}
      const checkIn = { ...optional('earlyMinutes', early), ...optional('lateMinutes', late) }
      return {
        appointments: {
          enabled: enabled.input.checked,
          ...optional('slotMinutes', slot), ...optional('capacityPerSlot', capacity), ...optional('bookAheadDays', ahead),
          ...(Object.keys(checkIn).length === 0 ? {} : { checkIn }),
          ...optional('retainDays', retain),
        },
      }
    },
  }
}

function serviceEditor(errors: FormErrors, t: Strings, data: UnitData, entity: AdminServiceView | null): Editor {
  const names = namesFields(errors, t, data.unit.languages ?? [data.unit.defaultLanguage ?? 'en'], entity?.names ?? {})
  const prefix = textInput(entity?.prefix ?? '', { dir: 'ltr', maxlength: '3', pattern: '[A-Z]{1,3}', autocapitalize: 'characters' })
  const where = checkList(errors, t.serviceLocations, data.locations.map((l) => ({ value: l.id, label: nameIn(l) })), entity?.locations ?? data.locations.slice(0, 1).map((l) => l.id), '/locations')
  const hours = hoursFields(errors, t, entity?.openingHours, t.ownHours, false)
  const serviceTime = minutesField(errors, t.defaultServiceMinutes, entity?.defaultServiceSeconds, '/defaultServiceSeconds', 300)
  const target = minutesField(errors, t.waitTargetMinutes, entity?.waitTargetSeconds, '/waitTargetSeconds', 900)
  const appointments = appointmentsFields(errors, t, entity?.appointments)
  const active = activeField(errors, t, entity)
  return {
    fields: [
      ...names.fields,
      field(errors, t.prefix, prefix, '/prefix'),
      where.root, hours.root,
      serviceTime.root,
      target.root,
      appointments.root,
      active.root,
    ],
    read: () => {
      const openingHours = hours.read()
      const seconds = serviceTime.read()
      const wait = target.read()
      return {
        name: names.read(), prefix: prefix.value.trim().toUpperCase(), locations: where.read(),
        ...(openingHours === undefined ? {} : { openingHours }),
        ...(seconds === undefined ? {} : { defaultServiceSeconds: seconds }),
        ...(wait === undefined ? {} : { waitTargetSeconds: wait }),
        ...appointments.read(),
        ...active.read(),
      }
    },
  }
}

function counterEditor(errors: FormErrors, t: Strings, data: UnitData, entity: AdminCounterView | null): Editor {
  const names = namesFields(errors, t, data.unit.languages ?? [data.unit.defaultLanguage ?? 'en'], entity?.names ?? {})
  const where = select(data.locations.map((l) => ({ value: l.id, label: nameIn(l) })), entity?.locationId ?? data.locations[0]?.id ?? '')
  const serves = checkList(errors, t.counterServices, data.services.filter((s) => s.active !== false || entity?.services.includes(s.id)).map((s) => ({ value: s.id, label: `${nameIn(s)} (${s.prefix})` })), entity?.services ?? [], '/services')
  const active = activeField(errors, t, entity)
  return {
    fields: [...names.fields, field(errors, t.location, where, '/locationId'), serves.root, active.root],
    read: () => ({ name: names.read(), locationId: where.value, services: serves.read(), ...active.read() }),
  }
}

function unitEditor(errors: FormErrors, t: Strings, unit: AdminUnitView): Editor {
  const defaultLanguage = unit.defaultLanguage ?? 'en'
  const chosen = unit.languages ?? [defaultLanguage]
  const names = namesFields(errors, t, chosen, unit.names)
  const languages = languagesField(errors, t, chosen, defaultLanguage, (now) => names.setLanguages(now))
  const mode = select([{ value: 'FIRST', label: t.priorityFirst }, { value: 'INTERLEAVE', label: t.priorityInterleave }], unit.priority?.mode ?? 'FIRST')
  const perPriority = numberInput(unit.priority?.normalPerPriority, 1, 100)
  const perField = field(errors, t.normalPerPriority, perPriority, '/priority/normalPerPriority')
  const syncMode = () => (perField.hidden = mode.value !== 'INTERLEAVE')
  mode.addEventListener('change', syncMode)
  syncMode()
  const kiosk = checkbox(errors, t.kioskPriority, unit.kioskPriority === true, '/kioskPriority')
  const desk = select([{ value: 'optional', label: t.deskOptional }, { value: 'required', label: t.deskRequired }], unit.deskSignIn ?? 'optional')
  // Contract §28: an item with names per language ({id, name}) is listed by its id and kept as
  // it is while its id stays in the list (its names are edited in the provisioning file).
  const named = new Map((unit.breakReasons ?? []).flatMap((item) => (typeof item === 'string' ? [] : [[item.id, item] as const])))
  const reasons = textListField(errors, t, { legend: t.breakReasons, pointer: '/breakReasons', hint: t.breakReasonsHint, item: t.breakReason, addText: t.addBreakReason, maxlength: 60 }, (unit.breakReasons ?? []).map((item) => (typeof item === 'string' ? item : item.id)))
  const grace = numberInput(unit.noShowGraceMinutes, 0, 1440)
  const ahead = numberInput(unit.approachingAhead, 1, 50)
  const active = checkbox(errors, t.active, unit.active !== false, '/active')
  return {
    fields: [
      ...names.fields,
      ...languages.fields,
      field(errors, t.priorityMode, mode, '/priority'), perField,
      kiosk.root,
      field(errors, t.deskSignIn, desk, '/deskSignIn'),
      reasons.root,
      field(errors, t.noShowGraceMinutes, grace, '/noShowGraceMinutes'),
      field(errors, t.approachingAhead, ahead, '/approachingAhead'),
      active.root,
    ],
    read: () => {
      const per = numberOf(perPriority)
      const g = numberOf(grace)
      const a = numberOf(ahead)
      const breakReasons = reasons.read().map((id) => named.get(id) ?? id)
      return {
        name: names.read(), ...languages.read(),
        priority: mode.value === 'INTERLEAVE' ? { mode: 'INTERLEAVE', ...(per === undefined ? {} : { normalPerPriority: per }) } : { mode: 'FIRST' },
        kioskPriority: kiosk.input.checked, deskSignIn: desk.value,
        // None left: the default reasons apply (the file's field removed).
        ...(breakReasons.length === 0 ? {} : { breakReasons }),
        ...(g === undefined ? {} : { noShowGraceMinutes: g }),
        ...(a === undefined ? {} : { approachingAhead: a }),
        active: active.input.checked,
      }
    },
  }
}

/** What a failed write says, in words; true when it was handled at the fields. */
function explain(answer: ApiAnswer | null, errors: FormErrors, t: Strings, thing: string, reload: ((current: Entity | AdminUnitView) => void) | null): void {
  if (answer === null) return errors.say(t.offline)
  const code = answer.code as AdminErrorCode | null
  const body = answer.body as ErrorEnvelope<{ current: Entity | AdminUnitView }> | null
  if (code === 'VALIDATION_FAILED') {
    errors.show(body?.error?.details ?? [], t.invalid)
    return
  }
  if (code === 'EDIT_CONFLICT') {
    errors.say(fill(t.conflict, { thing: t.things[thing] ?? thing }))
    const current = body?.error?.current
    if (current !== undefined && reload !== null) {
      const button = h('button', { type: 'button', class: 'reload' }, t.reload)
      button.addEventListener('click', () => reload(current))
      errors.general.append(' ', button)
      button.focus()
    }
    return
  }
  if (code === 'ENTITY_IN_USE') {
    errors.say(`${t.inUse} ${(body?.error?.details ?? []).map((d) => d.path.split('/').pop()).join(', ')}`)
    return
  }
  // Contract §26: a field the unit's head-office profile owns; the message names each one ("Service "Accounts": name: set by head office …").
  if (code === 'HQ_MANAGED') return errors.say(fill(t.hqManaged, { message: answer.message }))
  if (code === 'AUTHENTICATION_FAILED') return errors.say(t.signedOut)
  if (code === 'ROLE_FORBIDDEN' || code === 'UNIT_FORBIDDEN') return errors.say(t.forbidden)
  errors.say(fill(t.failed, { message: answer.message }))
}

async function load(unitId: string): Promise<UnitData | null> {
  const [unit, locations, services, counters] = await Promise.all([
    api<AdminUnitView>('GET', `${API}/${encodeURIComponent(unitId)}`),
    api<{ data: AdminLocationView[] }>('GET', `${API}/${encodeURIComponent(unitId)}/locations`),
    api<{ data: AdminServiceView[] }>('GET', `${API}/${encodeURIComponent(unitId)}/services`),
    api<{ data: AdminCounterView[] }>('GET', `${API}/${encodeURIComponent(unitId)}/counters`),
  ])
  if (unit?.status !== 200 || locations?.status !== 200 || services?.status !== 200 || counters?.status !== 200) return null
  return { unit: unit.body!, locations: locations.body!.data, services: services.body!.data, counters: counters.body!.data }
}

function renderUnit(container: HTMLElement, ctx: AdminContext, unitId: string): void {
  const { t } = ctx
  const redraw = async (message?: string) => {
    const data = await load(unitId)
    if (data === null) {
      container.replaceChildren(h('p', { class: 'admin-error', role: 'alert' }, t.offline))
      return
    }
    const unitPath = `${API}/${encodeURIComponent(unitId)}`

    /** One entity's form: save (PUT with its revision, or POST), delete, errors at the fields. */
    const entityForm = (kind: Kind | 'unit', entity: Entity | AdminUnitView | null): HTMLFormElement => {
      const general = h('div', { class: 'form-message', role: 'alert', hidden: true })
      const errors = new FormErrors(general)
      const editor = kind === 'unit' ? unitEditor(errors, t, entity as AdminUnitView)
        : kind === 'location' ? locationEditor(errors, t, data, entity as AdminLocationView | null)
        : kind === 'service' ? serviceEditor(errors, t, data, entity as AdminServiceView | null)
        : counterEditor(errors, t, data, entity as AdminCounterView | null)
      // What the form shows as it opens: a save sends the difference from it, nothing else.
      const loaded = entity === null ? null : editor.read()
      const save = h('button', { type: 'submit', class: 'primary' }, entity === null ? t.add : t.save)
      const actions = h('div', { class: 'form-actions' }, save)
      const form = h('form', { class: `entity-form entity-${kind}`, novalidate: true }, general, editor.fields, actions)
      const replaceWith = (current: Entity | AdminUnitView) => {
        const fresh = entityForm(kind, current)
        form.replaceWith(fresh)
        fresh.querySelector<HTMLElement>('input, select, textarea')?.focus()
      }
      if (kind !== 'unit' && entity !== null) {
        const remove = h('button', { type: 'button', class: 'danger' }, t.delete)
        remove.addEventListener('click', async () => {
          if (!confirm(fill(t.confirmDelete, { name: nameIn(entity as Entity) }))) return
          const answer = await api<AdminDeleteOutcome>('DELETE', `${unitPath}/${COLLECTION[kind]}/${encodeURIComponent(entity.id)}?revision=${encodeURIComponent(entity.revision)}`)
          if (answer?.status === 200) return void redraw(answer.body?.outcome === 'retired' ? t.retired : t.deleted)
          explain(answer, errors, t, kind, replaceWith)
        })
        actions.append(remove)
      }
      form.addEventListener('submit', async (event) => {
        event.preventDefault()
        errors.clear()
        save.disabled = true
        try {
          const body = editor.read()
          const answer = entity === null
            ? await api('POST', `${unitPath}/${COLLECTION[kind as Kind]}`, body)
            : await api('PATCH', kind === 'unit' ? unitPath : `${unitPath}/${COLLECTION[kind]}/${encodeURIComponent(entity.id)}`, { ...mergeDiff(loaded!, body), revision: entity.revision })
          if (answer !== null && answer.status >= 200 && answer.status < 300) return void redraw(t.saved)
          explain(answer, errors, t, kind === 'unit' ? 'queue unit' : kind, replaceWith)
        } finally {
          save.disabled = false
        }
      })
      return form
    }

    const entityList = (kind: Kind, title: string, addLabel: string, entities: Entity[]) => h('section', { class: 'entity-section', 'aria-labelledby': `h-${kind}` },
      h('h3', { id: `h-${kind}` }, title),
      h('ul', { class: 'entity-list' }, entities.map((e) => h('li', null, h('details', { 'data-id': e.id },
        h('summary', null, h('span', { dir: 'auto' }, nameIn(e)), ' ', h('span', { class: 'entity-id', dir: 'ltr' }, e.id), e.active === false ? h('span', { class: 'badge' }, t.inactive) : null),
        entityForm(kind, e))))),
      h('details', { class: 'entity-add', 'data-id': `add-${kind}` }, h('summary', null, addLabel), entityForm(kind, null)))

    // Entities that were open stay open; an "Add" form that was just used closes (its entity is in the list now).
    const opened = new Set([...container.querySelectorAll<HTMLDetailsElement>('details[open][data-id]')].map((d) => d.dataset.id!).filter((id) => !id.startsWith('add-')))
    container.replaceChildren(
      h('p', { class: 'saved-message', role: 'status' }, message ?? ''),
      h('section', { class: 'entity-section', 'aria-labelledby': 'h-unit' }, h('h3', { id: 'h-unit' }, t.unitSettings), entityForm('unit', data.unit)),
      entityList('location', t.locations, t.addLocation, data.locations),
      entityList('service', t.services, t.addService, data.services),
      entityList('counter', t.counters, t.addCounter, data.counters),
    )
    // Keep open what was open, so a save does not fold the list away under the person's hands.
    for (const d of container.querySelectorAll<HTMLDetailsElement>('details[data-id]')) if (opened.has(d.dataset.id!)) d.open = true
    if (message !== undefined) ctx.announce(message)
  }
  void redraw()
}

/** Contract §24: the workspaces an administrator may put a new queue unit in. */
const WORKSPACES = '/api/admin/v1/workspaces'
/** The languages offered as boxes when a unit is made; any other is typed as a language tag. */
const OFFERED_LANGUAGES = ['en', 'ar'] as const
/** The workspace choice that makes a new one (no workspace ID is empty). */
const NEW_WORKSPACE = ''

/** A language tag's name in the page's language, with the tag: "Arabic (ar)". */
function languageLabel(tag: string): string {
  try {
    const name = new Intl.DisplayNames([document.documentElement.lang], { type: 'language' }).of(tag)
    return name === undefined || name === tag ? tag : `${name} (${tag})`
  } catch {
    return tag
  }
}

/**
 * Contract §24: a new queue unit from the console — its workspace (chosen from a list, or a new
 * one named here), its name, the languages it speaks and its default language. Create makes the
 * workspace first when it is new (once: a later attempt after a refused unit reuses it, renamed
 * if its name was changed), then the unit; `done` gets the unit's ID. Refusals are said at their
 * fields: the workspace's at its name, the unit's where its pointers lead.
 */
function unitSetupForm(ctx: AdminContext, workspaces: AdminWorkspaceView[], submitLabel: string, done: (unitId: string) => void): HTMLFormElement {
  const { t } = ctx
  const general = h('div', { class: 'form-message', role: 'alert', hidden: true })
  const errors = new FormErrors(general)
  const choice = workspaces.length === 0 ? null
    : select([...workspaces.map((w) => ({ value: w.id, label: w.name })), { value: NEW_WORKSPACE, label: t.newWorkspace }], workspaces[0]!.id)
  const workspaceName = textInput('', { dir: 'auto', maxlength: '200', autocomplete: 'organization' })
  const workspaceField = field(errors, t.workspaceName, workspaceName, '/workspace/name')
  const wantsNew = () => choice === null || choice.value === NEW_WORKSPACE
  const syncChoice = () => (workspaceField.hidden = !wantsNew())
  choice?.addEventListener('change', syncChoice)
  syncChoice()

  const unitName = textInput('', { dir: 'auto', maxlength: '200' })
  const boxes = checkList(errors, t.unitLanguages, OFFERED_LANGUAGES.map((tag) => ({ value: tag, label: languageLabel(tag) })), ctx.lang === 'ar' ? ['en', 'ar'] : ['en'], '/languages')
  const others = textInput('', { dir: 'ltr', autocomplete: 'off', placeholder: 'fr, ur' })
  // Inside the languages' group, before its error line: "Languages the branch speaks, Other languages…".
  boxes.root.insertBefore(field(errors, t.otherLanguages, others, '/otherLanguages'), boxes.root.querySelector(':scope > .field-error'))
  const chosen = () => [...new Set([...boxes.read(), ...commaList(others.value)])]
  const defaultLanguage = select([], '')
  const syncDefault = () => {
    const previous = defaultLanguage.value
    const tags = chosen()
    defaultLanguage.replaceChildren(...tags.map((tag) => h('option', { value: tag }, languageLabel(tag))))
    defaultLanguage.value = tags.includes(previous) ? previous : tags.includes(ctx.lang) ? ctx.lang : tags[0] ?? ''
  }
  boxes.root.addEventListener('change', syncDefault)
  others.addEventListener('input', syncDefault)
  syncDefault()

  const create = h('button', { type: 'submit', class: 'primary' }, submitLabel)
  const form = h('form', { class: 'entity-form unit-setup', novalidate: true },
    general,
    choice === null ? null : field(errors, t.workspace, choice, '/workspaceId'),
    workspaceField,
    field(errors, t.unitName, unitName, '/name'),
    boxes.root,
    field(errors, t.defaultLanguage, defaultLanguage, '/defaultLanguage'),
    h('div', { class: 'form-actions' }, create))

  /** A refusal in words at its fields; `where` turns the answer's pointer into the form's. */
  const refused = (answer: ApiAnswer | null, where: (path: string) => string) => {
    const details = (answer?.body as ErrorEnvelope | null)?.error?.details
    if (answer?.status === 422 && details !== undefined && details.length > 0) errors.show(details.map((d) => ({ ...d, path: where(d.path) })), t.invalid)
    else errors.say(problem(answer, t))
  }
  let made: AdminWorkspaceView | null = null
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    errors.clear()
    create.disabled = true
    try {
      let workspaceId = choice?.value ?? NEW_WORKSPACE
      if (wantsNew()) {
        const name = workspaceName.value.trim()
        if (made === null || made.name !== name) {
          const answer = made === null
            ? await api<AdminWorkspaceView>('POST', WORKSPACES, { name })
            : await api<AdminWorkspaceView>('PATCH', `${WORKSPACES}/${encodeURIComponent(made.id)}`, { name, revision: made.revision })
          if (answer?.status !== 200 && answer?.status !== 201) return refused(answer, (path) => `/workspace${path}`)
          made = answer.body!
        }
        workspaceId = made.id
      }
      const languages = chosen()
      const boxCount = boxes.read().length
      // The name is in the language it was typed in: the page's when the unit speaks it, else its default.
      const typedIn = languages.includes(ctx.lang) ? ctx.lang : defaultLanguage.value || ctx.lang
      const name = unitName.value.trim()
      const answer = await api<AdminUnitView>('POST', API, {
        workspaceId, name: name === '' ? name : { [typedIn]: name }, languages,
        ...(defaultLanguage.value === '' ? {} : { defaultLanguage: defaultLanguage.value }),
      })
      if (answer?.status === 201) return done(answer.body!.id)
      // A typed tag refused (`/languages/3`) is said at the field it was typed in.
      refused(answer, (path) => {
        const typed = /^\/languages\/(\d+)$/.exec(path)
        return typed !== null && Number(typed[1]) >= boxCount ? '/otherLanguages' : path
      })
    } finally {
      create.disabled = false
    }
  })
  return form
}

/**
 * The Branch section: no unit yet — an administrator sets up the first one (contract §24), a
 * manager is told who can give them one; else the unit's forms, the unit chooser when there
 * are several, and an administrator's "Add a queue unit". `chosen`: the unit to show first.
 */
async function showBranch(main: HTMLElement, ctx: AdminContext, chosen: string | null, message?: string): Promise<void> {
  const { t } = ctx
  const failed = (answer: ApiAnswer | null) => main.replaceChildren(h('p', { class: 'admin-error', role: 'alert' }, answer === null ? t.offline : fill(t.failed, { message: answer.message })))
  const admin = ctx.role === 'admin'
  const [answer, listed] = await Promise.all([
    api<{ data: AdminUnitView[] }>('GET', API),
    admin ? api<{ data: AdminWorkspaceView[] }>('GET', WORKSPACES) : Promise.resolve(null),
  ])
  if (answer?.status !== 200) return failed(answer)
  if (admin && listed?.status !== 200) return failed(listed)
  const units = answer.body!.data
  const workspaces = listed?.body?.data ?? []
  if (units.length === 0 && !admin) {
    main.replaceChildren(h('p', { class: 'note' }, t.noUnitYet))
    return
  }
  const created = (unitId: string) => void showBranch(main, ctx, unitId, t.unitCreated)
  if (units.length === 0) {
    main.replaceChildren(panel('h-setup', t.setUpBranch, h('p', { class: 'field-hint' }, t.setUpIntro), unitSetupForm(ctx, workspaces, t.createBranch, created)))
    main.querySelector<HTMLElement>('.unit-setup input, .unit-setup select')?.focus()
    return
  }
  const shown = units.find((u) => u.id === chosen) ?? units[0]!
  const area = h('div', { class: 'unit-area', role: 'region', 'aria-label': nameIn(shown), tabindex: '-1' })
  const top: HTMLElement[] = []
  if (units.length > 1) {
    const chooser = select(units.map((u) => ({ value: u.id, label: nameIn(u) })), shown.id)
    chooser.id = uid('unit')
    chooser.addEventListener('change', () => {
      area.setAttribute('aria-label', chooser.selectedOptions[0]?.textContent ?? '')
      renderUnit(area, ctx, chooser.value)
    })
    top.push(h('div', { class: 'field unit-chooser' }, h('label', { for: chooser.id }, t.unit), chooser))
  }
  if (admin) {
    top.push(h('details', { class: 'entity-add unit-add', 'data-id': 'add-unit' }, h('summary', null, t.addUnit), unitSetupForm(ctx, workspaces, t.add, created)))
  }
  main.replaceChildren(...top, area)
  renderUnit(area, ctx, shown.id)
  if (message !== undefined) {
    ctx.announce(message)
    area.focus()
  }
}

export const branchSection: AdminSection = {
  id: 'branch',
  label: (t) => t.sectionBranch,
  roles: SECTION_ROLES.branch,
  render: (main, ctx) => showBranch(main, ctx, null),
}
