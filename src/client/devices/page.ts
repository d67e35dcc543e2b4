import { canonicalLang, directionOf } from '../../screens/shared/options'
import { fill } from '../i18n'
import { byId, h } from '../dom'
import { deviceLabelsFor, type DeviceLabels, type DeviceLabelKey } from './strings'
import { api } from '../api'
import type { DeviceInfo, DeviceResponse } from '../../contract/wire'

const LANG_KEY = 'lobby.device.lang'

/**
 * What every device page shares: its language (from `?lang=`, else the one chosen on this
 * device before, else the browser's) with the page's direction, and the content area.
 */
export class DevicePage {
  readonly lang: string
  readonly labels: DeviceLabels
  readonly root = byId('page')
  readonly content = byId('page-content')

  constructor() {
    const fromUrl = canonicalLang(new URLSearchParams(location.search).get('lang'))
    let stored: string | null = null
    try {
      stored = localStorage.getItem(LANG_KEY)
    } catch {}
    this.lang = fromUrl ?? canonicalLang(stored) ?? canonicalLang(navigator.language) ?? 'en'
    this.labels = deviceLabelsFor(this.lang)
    document.documentElement.lang = this.lang
    document.documentElement.dir = directionOf(this.lang)
  }

  /** A label with its `{placeholders}` filled. */
  t(key: DeviceLabelKey, values: Record<string, string | number> = {}): string {
    return fill(this.labels[key], Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])))
  }

  /** Switches language for good on this device (the next load reads it). */
  chooseLanguage(tag: string): void {
    try {
      localStorage.setItem(LANG_KEY, tag)
    } catch {}
    const url = new URL(location.href)
    url.searchParams.set('lang', tag)
    location.assign(url.toString())
  }

  /** A full-page message that replaces the content (not paired, counter retired…). */
  showMessage(heading: string, hint: string, action: { label: string; href: string } | null = null): void {
    this.content.replaceChildren(
      h(
        'section',
        { class: 'page-message', role: 'alert' },
        h('h1', null, heading),
        h('p', null, hint),
        action ? h('p', null, h('a', { class: 'button-link', href: action.href }, action.label)) : null,
      ),
    )
  }
}

// The toolkit's request helper (../api.ts): the device pages import it from here too.
export { api, type ApiAnswer } from '../api'

/** This browser's device as the server answers it (the wire contract). */
export type { DeviceInfo }

/** This browser's device, null when not paired (or no longer), 'offline' when the server cannot be reached. */
export async function whoAmI(): Promise<DeviceInfo | null | 'offline'> {
  const answer = await api<DeviceResponse>('GET', '/api/devices/v1/device')
  if (answer === null || answer.status >= 500) return 'offline'
  if (answer.status !== 200 || answer.body === null) return null
  return answer.body.data
}
