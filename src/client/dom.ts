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

/**
 * The parts of a box that can overflow it: every element inside (too wide), and those that
 * clip (too tall). A taller-than-its-box element that does not clip is left to its clipping
 * ancestor or the box: a line of text set with a tight line-height reports a few pixels of
 * "overflow" from its glyphs' ascent, which cuts nothing.
 */
interface FitParts {
  all: HTMLElement[]
  clipping: HTMLElement[]
}

function partsOf(box: HTMLElement): FitParts {
  const all = [...box.querySelectorAll<HTMLElement>('*')]
  return { all, clipping: all.filter((el) => getComputedStyle(el).overflowY !== 'visible') }
}

/** True when anything inside `box` (or `box` itself) is wider or taller than its own box. */
export function overflows(box: HTMLElement, parts: FitParts = partsOf(box)): boolean {
  // A pixel of slack: both sizes are rounded to whole pixels. Content overflowing a centred box
  // on both sides would count only once, so the stylesheet never centres a box that may
  // overflow: it stretches it and centres the text (which then overflows at its end, measured).
  if (box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1) return true
  // Inline boxes have no client size; their block parent tells.
  if (parts.all.some((el) => el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)) return true
  return parts.clipping.some((el) => el.clientHeight > 0 && el.scrollHeight > el.clientHeight + 1)
}

/** What the scale found keeps in hand, for rounding between this measure and the next paint. */
const FIT_MARGIN = 0.97

/** Steps of the search for the largest scale that fits: 1/2^7 ≈ 1 % of the range. */
const FIT_STEPS = 7

/**
 * Shrinks the contents of each box until nothing in it overflows: the box gets `--fit`, a scale
 * between `min` and 1 that the stylesheet multiplies into the sizes inside it. A name, number or
 * time is never cut: its box makes it smaller (and lets names wrap, by the stylesheet) instead.
 * The boxes are searched together (a binary search, one layout per step for all of them), so a
 * board of twelve cards costs eight layouts, not a hundred.
 */
export function fitBoxes(boxes: HTMLElement[], min = 0.3): void {
  if (boxes.length === 0) return
  const set = (scales: number[]) => boxes.forEach((box, i) => box.style.setProperty('--fit', scales[i]!.toFixed(3)))
  const lo = boxes.map(() => min)
  const hi = boxes.map(() => 1)
  set(hi)
  const parts = boxes.map(partsOf)
  const open = boxes.map((box, i) => overflows(box, parts[i]))
  if (!open.some(Boolean)) return
  for (let step = 0; step < FIT_STEPS; step++) {
    const mid = boxes.map((_, i) => (open[i] ? (lo[i]! + hi[i]!) / 2 : 1))
    set(mid)
    boxes.forEach((box, i) => {
      if (!open[i]) return
      if (overflows(box, parts[i])) hi[i] = mid[i]!
      else lo[i] = mid[i]!
    })
  }
  set(boxes.map((_, i) => (open[i] ? lo[i]! * FIT_MARGIN : 1)))
}

/**
 * Hides the rows of a list that do not fit whole in `container` (a row cut in half is worse than
 * a row left out; the list is in time order, so what is hidden is what comes last). The rows
 * keep their place in the layout (`visibility`), so hiding one never moves another.
 */
export function hidePartialRows(container: HTMLElement, rows: Iterable<HTMLElement>): void {
  const box = container.getBoundingClientRect()
  const top = box.top + container.clientTop
  const bottom = top + container.clientHeight
  let hiding = false
  for (const row of rows) {
    const r = row.getBoundingClientRect()
    if (r.bottom > bottom + 1) hiding = true
    const cutAtTop = r.top < top - 1 && r.bottom > top + 1
    row.style.visibility = hiding || cutAtTop ? 'hidden' : ''
  }
  container.classList.toggle('is-overflowing', hiding)
}

export function byId(id: string): HTMLElement {
  const el = document.getElementById(id)
  if (el === null) throw new Error(`#${id} missing from the page`)
  return el
}

const RIGHT_TO_LEFT_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/gu
const LETTER = /\p{L}/gu

/**
 * The direction of prose in no known language (a customer's comment): the direction of most of
 * its letters, `rtl` or `ltr`; null when it has no letters (digits and signs follow the page).
 */
export function directionOfProse(text: string): 'rtl' | 'ltr' | null {
  const letters = text.match(LETTER)?.length ?? 0
  if (letters === 0) return null
  const rtl = text.match(RIGHT_TO_LEFT_LETTER)?.length ?? 0
  return rtl * 2 > letters ? 'rtl' : 'ltr'
}
