import type { PeopleErrorCode, SessionResponse, SetupRequest, SetupResponse, SignInRequest } from '../../contract/wire'
import { byId } from '../dom'
import { api } from '../api'

/**
 * The sign-in and setup pages (/login, /login/setup; contract §16, src/people/pages.ts): the
 * form is posted as JSON with `fetch` (the pages' CSP has `form-action 'none'`, so a password
 * never lands in a URL), then the role's home, or the setup's "done", or the error in words.
 * The words are the page's: the server renders them, in its language, as `data-msg…` on the form.
 */

/** A message the form carries: an error code of the auth API, or one of the page's own. */
type MessageKey = PeopleErrorCode | 'MISMATCH' | 'OTHER' | 'working' | 'done'

function start(): void {
  const form = document.querySelector<HTMLFormElement>('form[data-api]')
  // A wrong, expired or used setup link: the page says so, with no form.
  if (form === null) return
  const endpoint = form.dataset.api ?? ''
  const status = byId('status')
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]')

  /** `SIGN_IN_FAILED` → `data-msgsigninfailed`. */
  const message = (key: MessageKey): string => form.dataset[`msg${key.toLowerCase().replace(/_/g, '')}`] ?? ''
  const say = (key: MessageKey, minutes?: number): void => {
    status.textContent = (message(key) || message('OTHER')).replace('{minutes}', String(minutes || 15))
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const data = new FormData(form)
    const value = (name: string): string | undefined => {
      const v = data.get(name)
      return typeof v === 'string' ? v : undefined
    }
    const password = value('password') ?? ''
    const confirm = value('confirm')
    if (confirm !== undefined && confirm !== password) {
      say('MISMATCH')
      ;(form.elements.namedItem('confirm') as HTMLInputElement | null)?.focus()
      return
    }
    let body: SignInRequest | SetupRequest
    if (endpoint.endsWith('/setup')) {
      const pin = value('pin')
      body = { code: new URLSearchParams(location.search).get('code') ?? '', password, ...(pin === undefined ? {} : { pin }) }
    } else {
      body = { username: value('username') ?? '', password }
    }
    if (button !== null) button.disabled = true
    status.textContent = message('working')
    try {
      const answer = await api<SessionResponse | SetupResponse>('POST', endpoint, body)
      if (answer === null) {
        say('OTHER')
        return
      }
      if (answer.status >= 200 && answer.status < 300) {
        const answered = answer.body
        if (answered !== null && 'home' in answered && answered.home) {
          location.assign(answered.home)
          return
        }
        status.textContent = message('done')
        form.hidden = true
        byId('next').hidden = false
        return
      }
      const retry = Number(answer.headers.get('retry-after') || 0)
      say((answer.code ?? 'OTHER') as MessageKey, Math.max(1, Math.ceil(retry / 60)))
    } catch {
      say('OTHER')
    } finally {
      if (button !== null) button.disabled = false
    }
  })
}

start()
