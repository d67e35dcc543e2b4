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

/**
 * A view that redraws its latest data on arrival and on a timer, because what it shows
 * depends on the time (current item, "now", departed trips).
 */
export abstract class RedrawingView<D> implements WidgetView<D> {
  protected data: D | null = null
  private readonly timer: ReturnType<typeof setInterval>

  constructor(protected readonly env: ViewEnv, redrawMs: number) {
    this.timer = setInterval(() => this.redraw(), redrawMs)
  }

  update(data: D): void {
    this.data = data
    this.redraw()
  }

  dispose(): void {
    clearInterval(this.timer)
  }

  private redraw(): void {
    if (this.data !== null) this.draw(this.data)
  }

  protected abstract draw(data: D): void
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
