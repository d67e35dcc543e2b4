import { h } from '../dom'
import type { PairResponse } from '../../contract/wire'
import { api, whoAmI, type DevicePage } from './page'

/**
 * `/pair` (contract §7): a code field (pre-filled from `?code=`), an optional device name, and
 * a button. A good code sets the device cookie and the page goes to the role's home; anything
 * else is said in words next to the field.
 */
export function pairPage(page: DevicePage): void {
  const { labels } = page
  const params = new URLSearchParams(location.search)
  const code = h('input', {
    id: 'pair-code', name: 'code', type: 'text', inputmode: 'numeric', autocomplete: 'one-time-code', pattern: '[0-9]{6}',
    maxlength: 6, required: true, 'aria-describedby': 'pair-feedback', value: params.get('code') ?? '', dir: 'ltr',
  })
  const name = h('input', { id: 'pair-name', name: 'deviceName', type: 'text', maxlength: 80, autocomplete: 'off', 'aria-describedby': 'pair-name-hint', dir: 'ltr' })
  const button = h('button', { type: 'submit', class: 'primary' }, labels.pairButton)
  const feedback = h('p', { id: 'pair-feedback', class: 'pair-feedback', role: 'status', 'aria-live': 'polite' })
  const already = h('p', { class: 'pair-already', hidden: true })
  const form = h(
    'form',
    { class: 'pair-form', novalidate: true },
    h('label', { for: 'pair-code' }, labels.pairCode),
    code,
    h('label', { for: 'pair-name' }, labels.pairName),
    name,
    h('p', { id: 'pair-name-hint', class: 'hint' }, labels.pairNameHint),
    button,
    feedback,
  )
  page.content.replaceChildren(h('section', { class: 'pair' }, h('h1', null, labels.pairTitle), h('p', null, labels.pairIntro), already, form))
  document.title = `Lobby · ${labels.pairTitle}`
  code.focus()

  void whoAmI().then((device) => {
    if (device === null || device === 'offline') return
    already.replaceChildren(page.t('alreadyPaired', { name: device.name, role: device.role }), ' ', h('a', { href: device.home }, page.t('openHome', { home: device.home })))
    already.hidden = false
  })

  let sending = false
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    if (sending) return
    const value = code.value.trim()
    if (!/^\d{6}$/.test(value)) {
      feedback.textContent = labels.pairCodeShape
      feedback.dataset.tone = 'error'
      code.setAttribute('aria-invalid', 'true')
      code.focus()
      return
    }
    sending = true
    button.disabled = true
    feedback.textContent = labels.pairing
    feedback.dataset.tone = 'info'
    const body: Record<string, string> = { code: value }
    if (name.value.trim() !== '') body.deviceName = name.value.trim()
    void api<PairResponse>('POST', '/api/devices/v1/pair', body).then((answer) => {
      sending = false
      button.disabled = false
      if (answer !== null && answer.status === 200 && answer.body !== null) {
        feedback.textContent = page.t('pairDone', { role: answer.body.role, home: answer.body.home })
        feedback.dataset.tone = 'ok'
        const home = new URL(answer.body.home, location.origin)
        const lang = params.get('lang')
        if (lang) home.searchParams.set('lang', lang)
        location.assign(home.pathname + home.search)
        return
      }
      feedback.dataset.tone = 'error'
      code.setAttribute('aria-invalid', 'true')
      if (answer === null) feedback.textContent = labels.pairOffline
      else if (answer.code === 'PAIRING_CODE_INVALID') feedback.textContent = labels.pairInvalid
      else if (answer.status === 429) feedback.textContent = page.t('pairTooMany', { seconds: answer.headers.get('retry-after') ?? '60' })
      else feedback.textContent = page.t('pairFailed', { message: answer.message || String(answer.status) })
      code.select()
      code.focus()
    })
  })
}
