/** A small element builder: plain DOM, no framework. Text goes in as text, never as HTML. */

type Child = Node | string | number | null | undefined | false
type Attrs = Record<string, string | number | boolean | null | undefined>

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs | null = null, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  if (attrs !== null) {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue
      if (name === 'class') el.className = String(value)
      else el.setAttribute(name, value === true ? '' : String(value))
    }
  }
  append(el, children)
  return el
}

function append(el: Element, children: (Child | Child[])[]): void {
  for (const child of children) {
    if (Array.isArray(child)) append(el, child)
    else if (child === null || child === undefined || child === false) continue
    else el.append(typeof child === 'number' ? String(child) : child)
  }
}

/** Text supplied by an integrator: its own direction, isolated from the layout's (`dir=auto`). */
export function text(tag: keyof HTMLElementTagNameMap, className: string, value: string | null | undefined): HTMLElement | null {
  if (value === null || value === undefined || value === '') return null
  return h(tag, { class: className, dir: 'auto' }, value)
}

/** A time with its AM/PM marker set smaller, so 12-hour locales fit the same columns. */
export function timeNode(tag: 'span' | 'time' | 'b', className: string, parts: { main: string; period: string }, datetime?: string): HTMLElement {
  return h(
    tag,
    { class: parts.period ? `${className} has-period` : className, datetime: datetime ?? null },
    parts.main,
    parts.period ? h('small', { class: 'ampm' }, parts.period) : null,
  )
}

/** Marks `el` when its content is taller than it (the stylesheet fades its lower edge then). */
export function markOverflow(...elements: HTMLElement[]): void {
  for (const el of elements) el.classList.toggle('is-overflowing', el.scrollHeight > el.clientHeight + 1)
}

export function byId(id: string): HTMLElement {
  const el = document.getElementById(id)
  if (el === null) throw new Error(`#${id} missing from the page`)
  return el
}
