import { h } from '../dom'
import { api, type ApiAnswer } from '../api'
import type { PhoneWords } from './strings'
import type { ErrorEnvelope, PhoneContacts, PhonePushKey } from '../../contract/wire'

type Contacts = PhoneContacts
type Channel = Contacts['channels'][number]

/** Where the phone page's service worker is served (src/phone/routes.ts) and the pages it covers. */
export const SERVICE_WORKER_PATH = '/t/sw.js'
export const SERVICE_WORKER_SCOPE = '/t/'
/** A ticket holds at most this many contacts (src/notifications/service.ts `MAX_CONTACTS_PER_TICKET`). */
const MAX_CONTACTS = 4

/**
 * The phone page's "Notify me" (contract §25): web push when this browser can (a service worker
 * of this server, the branch's VAPID key, the subscription sent to Lobby), else a mobile number
 * or an e-mail address; the contacts already given, masked as the server shows them; and "Stop
 * notifications", which removes them all. Only the channels the branch sends through are
 * offered; with none, the part stays empty and the page keeps its in-page notice.
 *
 * The part keeps its own element and redraws it only when what it shows changes, so a number
 * being typed and the focus survive the page's status updates.
 */
export class NotifyPart {
  readonly element = h('section', { class: 'phone-notify', 'aria-labelledby': 'notify-title' })
  private state: Contacts | null = null
  private busy = false
  private pushFailed = false
  private drawnFor = ''
  private readonly note = h('p', { class: 'phone-note', role: 'status', id: 'notify-note' })
  private readonly input = h('input', { id: 'notify-to', name: 'to', dir: 'ltr', maxlength: '254', spellcheck: 'false', 'aria-describedby': 'notify-to-hint' })
  private readonly fieldError = h('p', { class: 'phone-error', id: 'notify-to-error' })

  constructor(private readonly code: string, private words: () => PhoneWords) {
    this.input.addEventListener('input', () => this.showFieldError(''))
  }

  /** True when the branch sends through at least one channel (the page then shows this part). */
  get offered(): boolean {
    return this.state !== null && this.state.channels.length > 0
  }

  /** This ticket has a browser subscribed: the server's push says what the page would (the page does not say it twice). */
  get pushing(): boolean {
    return this.state !== null && this.state.contacts.some((c) => c.channel === 'webPush')
  }

  private get path(): string {
    return `/api/phone/v1/tickets/${encodeURIComponent(this.code)}/notify`
  }

  /** Reads the ticket's contacts and the branch's channels; `then` runs when they came. False: no answer (the page asks again with its next status). */
  async load(then: () => void): Promise<boolean> {
    const answer = await api<{ data: Contacts }>('GET', this.path)
    if (answer?.status !== 200 || answer.body === null) return false
    this.state = answer.body.data
    this.draw()
    then()
    return true
  }

  /** Pushes are possible here: a secure page with service workers, the Push API and notifications not blocked. */
  private pushPossible(): boolean {
    return !this.pushFailed && this.state !== null && this.state.channels.includes('webPush') && globalThis.isSecureContext === true &&
      'serviceWorker' in navigator && 'PushManager' in globalThis && typeof Notification !== 'undefined' && Notification.permission !== 'denied'
  }

  /** Draws the part when its facts changed (the language, the contacts, the channels, a request going). */
  draw(force = false): void {
    const state = this.state
    if (state === null) return
    const w = this.words()
    const key = JSON.stringify([w.notifyMe, state, this.busy, this.pushPossible()])
    if (key === this.drawnFor && !force) return
    this.drawnFor = key
    const focused = document.activeElement instanceof HTMLElement && this.element.contains(document.activeElement) ? document.activeElement.id : ''
    const sms = state.channels.includes('sms')
    const email = state.channels.includes('email')
    const hasPush = state.contacts.some((c) => c.channel === 'webPush')
    const parts: (Node | null)[] = [h('h2', { id: 'notify-title' }, w.notifyMe), h('p', { class: 'phone-hint' }, w.notifyWhy)]
    if (state.contacts.length > 0) {
      parts.push(
        h('p', { id: 'notify-list-label' }, w.notifyListed),
        h('ul', { class: 'phone-contacts', 'aria-labelledby': 'notify-list-label' },
          ...state.contacts.map((c) => h('li', { 'data-channel': c.channel }, c.channel === 'webPush' ? w.notifyThisBrowser : h('bdi', { dir: 'ltr' }, c.shown)))),
      )
      const stop = h('button', { type: 'button', class: 'phone-button phone-quiet', id: 'notify-stop' }, w.notifyStop)
      stop.disabled = this.busy
      stop.addEventListener('click', () => void this.stop())
      parts.push(stop)
    }
    if (this.pushPossible() && !hasPush) {
      const push = h('button', { type: 'button', class: 'phone-button', id: 'notify-push' }, w.notifyPush)
      push.disabled = this.busy
      push.addEventListener('click', () => void this.subscribe())
      parts.push(push)
    }
    if ((sms || email) && state.contacts.length < MAX_CONTACTS) {
      this.input.type = sms && email ? 'text' : sms ? 'tel' : 'email'
      this.input.setAttribute('autocomplete', sms && email ? 'off' : sms ? 'tel' : 'email')
      if (sms && !email) this.input.setAttribute('inputmode', 'tel')
      else this.input.removeAttribute('inputmode')
      const label = sms && email ? w.notifyToBoth : sms ? w.notifyToPhone : w.notifyToEmail
      const send = h('button', { type: 'submit', class: 'phone-button' }, w.notifySend)
      send.disabled = this.busy
      const form = h('form', { class: 'phone-notify-form', novalidate: true },
        h('label', { for: 'notify-to' }, label),
        this.input,
        h('p', { class: 'phone-hint', id: 'notify-to-hint' }, sms ? w.notifyToHint : w.notifyEmailHint),
        this.fieldError,
        send)
      form.addEventListener('submit', (event) => {
        event.preventDefault()
        void this.send()
      })
      parts.push(form)
    }
    parts.push(this.note)
    this.element.replaceChildren(...parts.filter((p): p is Node => p !== null))
    // Redrawing takes the focused control out of the page: focus goes back to the control of the same id.
    if (focused !== '') this.element.querySelector<HTMLElement>(`#${focused}`)?.focus()
  }

  private showFieldError(text: string): void {
    this.fieldError.textContent = text
    if (text === '') {
      this.input.removeAttribute('aria-invalid')
      this.input.setAttribute('aria-describedby', 'notify-to-hint')
    } else {
      this.input.setAttribute('aria-invalid', 'true')
      this.input.setAttribute('aria-describedby', 'notify-to-error notify-to-hint')
    }
  }

  /** A number or an address: which one is told by the `@`; the server reads the number in the branch's country. */
  private async send(): Promise<void> {
    if (this.busy || this.state === null) return
    const w = this.words()
    const to = this.input.value.trim()
    const channels = this.state.channels
    this.note.textContent = ''
    if (to === '') return this.refuseField(channels.includes('sms') && channels.includes('email') ? w.notifyEmptyBoth : channels.includes('sms') ? w.notifyEmptyPhone : w.notifyEmptyEmail)
    const channel: Channel = to.includes('@') ? 'email' : 'sms'
    if (!channels.includes(channel)) return this.refuseField(channel === 'email' ? w.notifyNoEmail : w.notifyNoSms)
    const answer = await this.request('POST', { channel, to })
    if (answer?.status === 201) {
      this.input.value = ''
      this.showFieldError('')
      this.note.textContent = channel === 'sms' ? w.notifySmsDone : w.notifyEmailDone
      ;(this.element.querySelector('#notify-stop') as HTMLElement | null)?.focus()
      return
    }
    const onField = ((answer?.body as ErrorEnvelope | null)?.error?.details ?? []).some((d) => d.path === '/to')
    if (answer?.status === 422 && (onField || answer.code === 'CHANNEL_NOT_CONFIGURED')) {
      return this.refuseField(answer.code === 'CHANNEL_NOT_CONFIGURED' ? (channel === 'sms' ? w.notifyNoSms : w.notifyNoEmail) : channel === 'sms' ? w.notifyBadPhone : w.notifyBadEmail)
    }
    this.note.textContent = this.refusal(answer)
  }

  private refuseField(text: string): void {
    this.showFieldError(text)
    this.input.focus()
  }

  /** Web push: permission from the customer's tap, the service worker, the branch's key, the subscription to Lobby. */
  private async subscribe(): Promise<void> {
    if (this.busy) return
    const w = this.words()
    this.note.textContent = ''
    let subscription: PushSubscriptionJSON
    try {
      const permission = await Notification.requestPermission()
      if (permission !== 'granted') throw new Error('permission')
      const registration = await navigator.serviceWorker.register(SERVICE_WORKER_PATH, { scope: SERVICE_WORKER_SCOPE })
      const key = await api<{ data: PhonePushKey }>('GET', `/api/phone/v1/push-key?code=${encodeURIComponent(this.code)}`)
      if (key?.status !== 200 || key.body === null) throw new Error('key')
      const pushSubscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlBytes(key.body.data.publicKey) })
      subscription = pushSubscription.toJSON()
    } catch (error) {
      // Blocked, or this browser has no push service (some private windows, some browsers): the number or address remains.
      this.pushFailed = true
      this.draw(true)
      this.note.textContent = (error as Error)?.message === 'permission' ? w.notifyPushBlocked : w.notifyPushFailed
      return
    }
    const answer = await this.request('POST', { channel: 'webPush', subscription })
    if (answer?.status === 201) {
      this.note.textContent = w.notifyPushDone
      return
    }
    this.pushFailed = true
    this.draw(true)
    this.note.textContent = answer?.status === 422 ? w.notifyPushFailed : this.refusal(answer)
  }

  /** "Stop notifications": every contact of the ticket removed (the subscription of this browser ended too). */
  private async stop(): Promise<void> {
    const w = this.words()
    const answer = await this.request('DELETE')
    if (answer?.status !== 200) {
      this.note.textContent = this.refusal(answer)
      return
    }
    try {
      const registration = await navigator.serviceWorker?.getRegistration(SERVICE_WORKER_SCOPE)
      await (await registration?.pushManager.getSubscription())?.unsubscribe()
    } catch {}
    this.note.textContent = w.notifyStopped
    ;(this.element.querySelector('#notify-push, #notify-to') as HTMLElement | null)?.focus()
  }

  private async request(method: 'POST' | 'DELETE', body?: unknown): Promise<ApiAnswer<{ data: Contacts }> | null> {
    this.busy = true
    this.draw()
    const answer = await api<{ data: Contacts }>(method, this.path, body)
    this.busy = false
    if (answer !== null && (answer.status === 200 || answer.status === 201) && answer.body !== null) this.state = answer.body.data
    this.draw()
    return answer
  }

  private refusal(answer: ApiAnswer<unknown> | null): string {
    const w = this.words()
    if (answer === null) return w.offline
    if (answer.status === 429) return w.tooMany
    if (answer.code === 'TICKET_ENDED') return w.notWaiting
    if (answer.code === 'TOO_MANY_CONTACTS') return w.notifyTooMany
    return w.failed
  }
}

/** The VAPID key (base64url) as the bytes `applicationServerKey` takes. */
export function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=')
  const binary = atob(base64)
  const bytes = new Uint8Array(new ArrayBuffer(binary.length))
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}
