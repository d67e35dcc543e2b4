import type { AdminCounterView, AdminLocationView, AdminServiceView, AdminUnitView, AdminErrorCode, AdminWorkspaceView } from '../../../contract/wire'
import { api, type ApiAnswer } from '../api'
import { h } from '../dom'
import { checkbox, checkList, commaList, field, FormErrors, numberInput, numberOf, select, textInput, uid, type ErrorDetail } from './forms'
import type { AdminContext, AdminSection } from './sections'
import { SECTION_ROLES } from './access'
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

/** "08:30-12:00, 13:00-16:30" ↔ [["08:30","12:00"],["13:00","16:30"]]; a malformed part is sent as typed, for the server to name. */
const hoursText = (intervals: string[][] | undefined) => (intervals ?? []).map(([a, b]) => `${a}-${b}`).join(', ')
const parseHours = (text: string): string[][] => commaList(text).map((part) => {
  const [from = '', to = ''] = part.split(/\s*[-–]\s*/)
  return [from.trim(), to.trim()]
})

function namesFields(errors: FormErrors, t: Strings, languages: string[], names: Record<string, string>): { fields: HTMLElement[]; read: () => Record<string, string> } {
  const all = [...new Set([...languages, ...Object.keys(names)])]
  const inputs = all.map((language) => ({ language, input: textInput(names[language] ?? '', { lang: language, dir: 'auto', maxlength: '200' }) }))
  const languageName = (tag: string) => {
    try {
      return new Intl.DisplayNames([document.documentElement.lang], { type: 'language' }).of(tag) ?? tag
    } catch {
      return tag
    }
  }
  const fields = inputs.map(({ language, input }) => field(errors, fill(t.nameIn, { language: languageName(language) }), input, `/name/${language}`))
  // A problem with the name as a whole (none given) lands at the first language's field.
  if (inputs[0]) errors.add({ pointer: '/name', root: fields[0]!, focus: inputs[0].input, error: fields[0]!.querySelector('.field-error')! })
  return { fields, read: () => Object.fromEntries(inputs.filter((i) => i.input.value.trim() !== '').map((i) => [i.language, i.input.value])) }
}

/** The weekly hours editor: one line per weekday, and a switch for "no hours of its own". */
function hoursFields(errors: FormErrors, t: Strings, hours: Hours | undefined, switchLabel: string, switchMeansNone: boolean): { root: HTMLElement; read: () => Hours | undefined } {
  const toggle = checkbox(errors, switchLabel, switchMeansNone ? hours === undefined : hours !== undefined, '/openingHours')
  const inputs = DAYS.map((day) => ({ day, input: textInput(hoursText(hours?.[day]), { placeholder: '08:30-12:00, 13:00-16:30', dir: 'ltr', inputmode: 'numeric' }) }))
  const days = h('div', { class: 'hours-days' }, inputs.map(({ day, input }) => field(errors, t.days[day], input, `/openingHours/${day}`)))
  const sync = () => {
    days.hidden = switchMeansNone ? toggle.input.checked : !toggle.input.checked
  }
  toggle.input.addEventListener('change', sync)
  sync()
  const hintId = uid('hint')
  const root = h('fieldset', { class: 'hours', 'aria-describedby': hintId }, h('legend', null, t.hours), h('p', { class: 'field-hint', id: hintId }, t.hoursHint), toggle.root, days)
  return {
    root,
    read: () => {
      const none = switchMeansNone ? toggle.input.checked : !toggle.input.checked
      return none ? undefined : Object.fromEntries(inputs.map(({ day, input }) => [day, parseHours(input.value)]))
    },
  }
}

function idField(errors: FormErrors, t: Strings, entity: Entity | null): { fields: HTMLElement[]; read: () => Record<string, unknown> } {
  if (entity !== null) return { fields: [], read: () => ({}) }
  const input = textInput('', { pattern: '[A-Za-z0-9_-]+', maxlength: '160', dir: 'ltr', autocomplete: 'off' })
  return { fields: [field(errors, t.id, input, '/id')], read: () => (input.value.trim() === '' ? {} : { id: input.value.trim() }) }
}

function activeField(errors: FormErrors, t: Strings, entity: Entity | null) {
  const box = checkbox(errors, t.active, entity?.active !== false, '/active')
  return { root: box.root, read: () => ({ active: box.input.checked }) }
}

function locationEditor(errors: FormErrors, t: Strings, data: UnitData, entity: AdminLocationView | null): Editor {
  const id = idField(errors, t, entity)
  const names = namesFields(errors, t, data.unit.languages ?? [data.unit.defaultLanguage ?? 'en'], entity?.names ?? {})
  const timezone = textInput(entity?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone, { dir: 'ltr', maxlength: '64' })
  const hours = hoursFields(errors, t, entity?.openingHours, t.alwaysOpen, true)
  const closed = textInput((entity?.closedDates ?? []).join(', '), { dir: 'ltr', placeholder: '2026-12-25' })
  const lastTicket = numberInput(entity?.lastTicketMinutesBeforeClose, 0, 720)
  const join = checkbox(errors, t.remoteJoin, entity?.remoteJoin?.enabled === true, '/remoteJoin')
  const maxWaiting = numberInput(entity?.remoteJoin?.maxWaiting, 1, 10000)
  const networks = textInput((entity?.remoteJoin?.allowedNetworks ?? []).join(', '), { dir: 'ltr', placeholder: '192.168.1.0/24' })
  const active = activeField(errors, t, entity)
  return {
    fields: [
      ...id.fields, ...names.fields,
      field(errors, t.timezone, timezone, '/timezone'),
      hours.root,
      field(errors, t.closedDates, closed, '/closedDates'),
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
        ...id.read(), name: names.read(), timezone: timezone.value.trim(),
        ...(openingHours === undefined ? {} : { openingHours }),
        closedDates: commaList(closed.value),
        ...(last === undefined ? {} : { lastTicketMinutesBeforeClose: last }),
        ...(join.input.checked || entity?.remoteJoin !== undefined
          ? { remoteJoin: { enabled: join.input.checked, ...(waiting === undefined ? {} : { maxWaiting: waiting }), allowedNetworks: commaList(networks.value) } }
          : {}),
        ...active.read(),
      }
    },
  }
}

function serviceEditor(errors: FormErrors, t: Strings, data: UnitData, entity: AdminServiceView | null): Editor {
  const id = idField(errors, t, entity)
  const names = namesFields(errors, t, data.unit.languages ?? [data.unit.defaultLanguage ?? 'en'], entity?.names ?? {})
  const prefix = textInput(entity?.prefix ?? '', { dir: 'ltr', maxlength: '3', pattern: '[A-Z]{1,3}', autocapitalize: 'characters' })
  const where = checkList(errors, t.serviceLocations, data.locations.map((l) => ({ value: l.id, label: nameIn(l) })), entity?.locations ?? data.locations.slice(0, 1).map((l) => l.id), '/locations')
  const hours = hoursFields(errors, t, entity?.openingHours, t.ownHours, false)
  const serviceSeconds = numberInput(entity?.defaultServiceSeconds, 1, 86400)
  const target = numberInput(entity?.waitTargetSeconds, 1, 86400)
  const active = activeField(errors, t, entity)
  return {
    fields: [
      ...id.fields, ...names.fields,
      field(errors, t.prefix, prefix, '/prefix'),
      where.root, hours.root,
      field(errors, t.defaultServiceSeconds, serviceSeconds, '/defaultServiceSeconds'),
      field(errors, t.waitTargetSeconds, target, '/waitTargetSeconds'),
      active.root,
    ],
    read: () => {
      const openingHours = hours.read()
      const seconds = numberOf(serviceSeconds)
      const wait = numberOf(target)
      return {
        ...id.read(), name: names.read(), prefix: prefix.value.trim().toUpperCase(), locations: where.read(),
        ...(openingHours === undefined ? {} : { openingHours }),
        ...(seconds === undefined ? {} : { defaultServiceSeconds: seconds }),
        ...(wait === undefined ? {} : { waitTargetSeconds: wait }),
        ...active.read(),
      }
    },
  }
}

function counterEditor(errors: FormErrors, t: Strings, data: UnitData, entity: AdminCounterView | null): Editor {
  const id = idField(errors, t, entity)
  const names = namesFields(errors, t, data.unit.languages ?? [data.unit.defaultLanguage ?? 'en'], entity?.names ?? {})
  const where = select(data.locations.map((l) => ({ value: l.id, label: nameIn(l) })), entity?.locationId ?? data.locations[0]?.id ?? '')
  const serves = checkList(errors, t.counterServices, data.services.filter((s) => s.active !== false || entity?.services.includes(s.id)).map((s) => ({ value: s.id, label: `${nameIn(s)} (${s.prefix})` })), entity?.services ?? [], '/services')
  const active = activeField(errors, t, entity)
  return {
    fields: [...id.fields, ...names.fields, field(errors, t.location, where, '/locationId'), serves.root, active.root],
    read: () => ({ ...id.read(), name: names.read(), locationId: where.value, services: serves.read(), ...active.read() }),
  }
}

function unitEditor(errors: FormErrors, t: Strings, unit: AdminUnitView): Editor {
  const names = namesFields(errors, t, unit.languages ?? [unit.defaultLanguage ?? 'en'], unit.names)
  const languages = textInput((unit.languages ?? []).join(', '), { dir: 'ltr' })
  const defaultLanguage = textInput(unit.defaultLanguage ?? 'en', { dir: 'ltr', maxlength: '35' })
  const mode = select([{ value: 'FIRST', label: t.priorityFirst }, { value: 'INTERLEAVE', label: t.priorityInterleave }], unit.priority?.mode ?? 'FIRST')
  const perPriority = numberInput(unit.priority?.normalPerPriority, 1, 100)
  const perField = field(errors, t.normalPerPriority, perPriority, '/priority/normalPerPriority')
  const syncMode = () => (perField.hidden = mode.value !== 'INTERLEAVE')
  mode.addEventListener('change', syncMode)
  syncMode()
  const kiosk = checkbox(errors, t.kioskPriority, unit.kioskPriority === true, '/kioskPriority')
  const desk = select([{ value: 'optional', label: t.deskOptional }, { value: 'required', label: t.deskRequired }], unit.deskSignIn ?? 'optional')
  const reasons = h('textarea', { rows: 4, dir: 'auto' })
  reasons.value = (unit.breakReasons ?? []).join('\n')
  const grace = numberInput(unit.noShowGraceMinutes, 0, 1440)
  const ahead = numberInput(unit.approachingAhead, 1, 50)
  const active = checkbox(errors, t.active, unit.active !== false, '/active')
  return {
    fields: [
      ...names.fields,
      field(errors, t.languages, languages, '/languages'),
      field(errors, t.defaultLanguage, defaultLanguage, '/defaultLanguage'),
      field(errors, t.priorityMode, mode, '/priority'), perField,
      kiosk.root,
      field(errors, t.deskSignIn, desk, '/deskSignIn'),
      field(errors, t.breakReasons, reasons, '/breakReasons'),
      field(errors, t.noShowGraceMinutes, grace, '/noShowGraceMinutes'),
      field(errors, t.approachingAhead, ahead, '/approachingAhead'),
      active.root,
    ],
    read: () => {
      const per = numberOf(perPriority)
      const g = numberOf(grace)
      const a = numberOf(ahead)
      return {
        name: names.read(), languages: commaList(languages.value), defaultLanguage: defaultLanguage.value.trim(),
        priority: mode.value === 'INTERLEAVE' ? { mode: 'INTERLEAVE', ...(per === undefined ? {} : { normalPerPriority: per }) } : { mode: 'FIRST' },
        kioskPriority: kiosk.input.checked, deskSignIn: desk.value,
        breakReasons: reasons.value.split('\n').map((r) => r.trim()).filter((r) => r !== ''),
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
  const body = answer.body as { error?: { details?: ErrorDetail[]; current?: Entity | AdminUnitView } } | null
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
          const answer = await api<{ outcome: 'deleted' | 'retired' }>('DELETE', `${unitPath}/${COLLECTION[kind]}/${encodeURIComponent(entity.id)}?revision=${encodeURIComponent(entity.revision)}`)
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
    const details = (answer?.body as { error?: { details?: ErrorDetail[] } } | null)?.error?.details
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
