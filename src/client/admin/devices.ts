import type { AdminCounterView, AdminDevice, AdminLocationView, AdminPairing, AdminUnitView } from '../../contract/wire'
import { api } from '../api'
import { h } from '../dom'
import { field, FormErrors, select, textInput } from './forms'
import { actionButton, ADMIN_API, answered, panel, problem, qrFigure, table, timeCell, when } from './kit'
import type { AdminContext, AdminSection } from './section'
import { SECTION_ROLES } from '../../screens/shared/console-access'
import { fill } from './strings'

/*
 * The Devices section (contract §17, §7): pair a desk, kiosk, reports screen or display — the
 * answer's six-digit code, its expiry and the QR code of /pair?code=…, large, with a Print
 * button whose A4 sheet holds only the code, the QR code and the steps (admin.css @media print)
 * — the paired devices with when each was last seen, and Revoke after a confirmation.
 */

type Named = { id: string; name: string; names?: Record<string, string>; active?: boolean }

const nameOf = (ctx: AdminContext, e: Named) => e.names?.[ctx.lang] ?? e.name

export const devicesSection: AdminSection = {
  id: 'devices',
  label: (t) => t.sectionDevices,
  roles: SECTION_ROLES.devices,
  render: async (main, ctx) => {
    const { t } = ctx
    const units = await api<{ data: AdminUnitView[] }>('GET', `${ADMIN_API}/queue-units`)
    if (units?.status !== 200) {
      main.append(h('p', { class: 'admin-error', role: 'alert' }, problem(units, t)))
      return
    }
    const unitList = units.body!.data

    // The form: role, then what the role binds to (unit → counter or location), then a name.
    const general = h('p', { class: 'form-message', role: 'alert', hidden: true })
    const errors = new FormErrors(general)
    const roles = ['kiosk', 'desk', 'reports', ...(ctx.role === 'admin' ? ['display'] : [])]
    const role = select(roles.map((r) => ({ value: r, label: t.roles[r] ?? r })), 'kiosk')
    const unit = select(unitList.map((u) => ({ value: u.id, label: `${nameOf(ctx, u as Named)} (${u.id})` })), unitList[0]?.id ?? '')
    const counter = select([], '')
    const locationChoice = select([], '')
    const name = textInput('', { dir: 'ltr', maxlength: '80', pattern: '[A-Za-z0-9_.:\\-]{1,80}', autocomplete: 'off' })
    const unitField = field(errors, t.unit, unit, '/queueUnitId')
    const counterField = field(errors, t.counter, counter, '/counterId')
    const locationField = field(errors, t.location, locationChoice, '/locationId')
    const submit = h('button', { type: 'submit', class: 'primary' }, t.makeCode)
    const form = h('form', { class: 'entity-form', novalidate: true },
      general,
      field(errors, t.deviceRole, role, '/role'),
      unitField, counterField, locationField,
      field(errors, t.deviceName, name, '/name'),
      h('div', { class: 'form-actions' }, submit))
    const result = h('div', { class: 'pairing-result' })

    const fillBindings = async () => {
      const unitId = unit.value
      const [locations, counters] = await Promise.all([
        api<{ data: AdminLocationView[] }>('GET', `${ADMIN_API}/queue-units/${encodeURIComponent(unitId)}/locations`),
        api<{ data: AdminCounterView[] }>('GET', `${ADMIN_API}/queue-units/${encodeURIComponent(unitId)}/counters`),
      ])
      const live = <T extends Named>(list: T[] | undefined) => (list ?? []).filter((e) => e.active !== false)
      const options = (list: Named[]) => list.map((e) => h('option', { value: e.id }, `${nameOf(ctx, e)} (${e.id})`))
      locationChoice.replaceChildren(...options(live(locations?.body?.data as Named[] | undefined)))
      counter.replaceChildren(...options(live(counters?.body?.data as Named[] | undefined)))
    }
    const showFields = () => {
      const r = role.value
      unitField.hidden = r === 'desk' || r === 'display'
      counterField.hidden = r !== 'desk'
      locationField.hidden = r !== 'kiosk'
    }
    role.addEventListener('change', showFields)
    unit.addEventListener('change', () => void fillBindings())
    showFields()
    await fillBindings()

    const pairingBody = () => {
      const r = role.value
      const body: Record<string, unknown> = { role: r }
      if (r === 'desk') body.counterId = counter.value
      else if (r === 'display') body.workspaceId = unitList.find((u) => u.id === unit.value)?.workspaceId ?? unitList[0]?.workspaceId
      else body.queueUnitId = unit.value
      if (r === 'kiosk') body.locationId = locationChoice.value
      if (name.value.trim() !== '') body.name = name.value.trim()
      return body
    }

    const listHolder = h('div')
    const refreshList = async () => {
      const answer = await api<{ data: AdminDevice[] }>('GET', `${ADMIN_API}/devices`)
      if (answer?.status !== 200) {
        listHolder.replaceChildren(h('p', { class: 'admin-error', role: 'alert' }, problem(answer, t)))
        return
      }
      const rows = answer.body!.data.map((d) => h('tr', null,
        h('td', { dir: 'ltr' }, d.name),
        h('td', null, t.roles[d.role]?.replace(/ \(.*\)$/, '') ?? d.role),
        h('td', { dir: 'ltr' }, Object.entries(d.binding).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`).join('; ')),
        timeCell(ctx, d.pairedAt),
        timeCell(ctx, d.lastUsedAt),
        h('td', null, t.states[d.state] ?? d.state),
        h('td', null, d.state === 'active'
          ? actionButton(t.revoke, fill(t.revokeNamed, { name: d.name }), async () => {
            if (!confirm(fill(t.confirmRevoke, { name: d.name }))) return
            const revoked = await api('POST', `${ADMIN_API}/devices/${encodeURIComponent(d.name)}/revoke`)
            if (revoked?.status === 200) ctx.announce(fill(t.revokedDone, { name: d.name }))
            else ctx.announce(problem(revoked, t))
            await refreshList()
          }, 'danger')
          : null)))
      listHolder.replaceChildren(table(t.pairedDevices, [t.name, t.deviceRole, t.binding, t.pairedAt, t.lastSeen, t.state, t.actions], rows, t.noDevices))
    }

    form.addEventListener('submit', async (event) => {
      event.preventDefault()
      submit.disabled = true
      const answer = await api<{ data: AdminPairing }>('POST', `${ADMIN_API}/devices/pairings`, pairingBody())
      submit.disabled = false
      if (!answered(answer, errors, t)) return
      const pairing = answer!.body!.data
      result.replaceChildren(pairingSheet(ctx, pairing))
      result.querySelector<HTMLElement>('.pairing-sheet')?.focus()
      await refreshList()
    })

    main.append(
      panel('h-pair', t.pairDevice, form, result),
      panel('h-devices', t.pairedDevices, listHolder))
    await refreshList()
  },
}

/** The code, its expiry, the QR code and the steps: on screen, and alone on the printed A4 sheet. */
function pairingSheet(ctx: AdminContext, pairing: AdminPairing): HTMLElement {
  const { t } = ctx
  const pairPage = new URL(pairing.pairUrl)
  const print = h('button', { type: 'button', class: 'primary no-print' }, t.print)
  print.addEventListener('click', () => window.print())
  return h('div', { class: 'pairing-sheet', tabindex: '-1', role: 'group', 'aria-labelledby': 'pairing-title' },
    h('h4', { id: 'pairing-title' }, t.pairSheetTitles[pairing.role] ?? pairing.role),
    h('div', { class: 'pairing-grid' },
      h('div', null,
        h('p', { class: 'pairing-label' }, t.pairingCode),
        // Seen as two groups of three; read digit by digit.
        h('p', { class: 'pairing-code', dir: 'ltr' },
          h('span', { 'aria-hidden': 'true' }, `${pairing.code.slice(0, 3)} ${pairing.code.slice(3)}`),
          h('span', { class: 'visually-hidden' }, pairing.code.split('').join(' '))),
        h('p', null, fill(t.codeExpires, { time: when(ctx, pairing.expiresAt) })),
        // The address stays left to right inside Arabic text.
        h('p', { class: 'pairing-steps' }, ...withAddress(t.pairSteps, `${pairPage.origin}/pair`)),
        h('p', { class: 'pairing-url', dir: 'ltr' }, pairing.pairUrl),
        print),
      qrFigure(pairing.qrSvg, pairing.pairUrl)))
}

/** A sentence with `{url}` in it, the address isolated as left-to-right text. */
function withAddress(sentence: string, url: string): (string | HTMLElement)[] {
  const [before = '', after = ''] = sentence.split('{url}')
  return [before, h('bdi', { dir: 'ltr' }, url), after]
}
