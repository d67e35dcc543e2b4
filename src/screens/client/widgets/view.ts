import type { ScreenContext } from '../context'
import type { Shell } from '../shell'

/**
 * One widget type drawn on a screen. `update` gets every new snapshot; a view redraws by
 * itself as time passes (the current schedule item, rotating announcements, departed trips).
 */
export interface WidgetView<D> {
  update(data: D): void
  dispose(): void
}

export interface ViewEnv {
  ctx: ScreenContext
  shell: Shell
  /** The widget's configured name: the title when the payload has none. */
  name(): string
}

/** Parses an instant; NaN-safe (a bad value sorts last and never counts as "now"). */
export function instant(value: string | undefined): number {
  if (value === undefined) return NaN
  return Date.parse(value)
}

/** An `<img>` for an integrator's image that removes itself when it cannot load (no internet). */
export function optionalImage(url: string | undefined, className: string): HTMLImageElement | null {
  if (url === undefined || !url.startsWith('https://')) return null
  const img = document.createElement('img')
  img.className = className
  img.alt = ''
  img.decoding = 'async'
  img.referrerPolicy = 'no-referrer'
  img.addEventListener('error', () => img.remove())
  img.src = url
  return img
}
