/**
 * The in-page check of the fit tests (test/screens/fit.test.ts for the boards and widgets,
 * fit-staff-and-phone.test.ts for the staff and customer pages): every visible element whose
 * content is wider than its box, and every visible line of text partly cut by a clipping
 * ancestor or by the screen's edge. Handed to `page.evaluate`, so it names nothing outside
 * itself.
 */

// The page's globals, for the function that runs in the page.
declare const document: any
declare function getComputedStyle(element: unknown): any

export interface FitOptions {
  /** The element checked with everything in it: `#id`, or null for the whole body. */
  rootId: string | null
  /** Prose the page deliberately clamps to a few lines (an event's description): never a number, time or name. */
  clampedProse: string[]
  /**
   * Pages people scroll (the console, the floor, the phone pages), where boards never scroll:
   * the window's bottom edge cuts nothing (the page goes on below it), and a box that scrolls
   * (`overflow: auto` or `scroll`, a wide table in its own scrolling box on a narrow screen) is
   * not a cut in the direction it scrolls, since its reader can scroll to the rest. A box that
   * hides what does not fit (`overflow: hidden`, `clip`) still cuts.
   */
  scrolls: boolean
}

/**
 * Runs in the page. A text line entirely outside a clipping box (a list row scrolled or hidden
 * away) is not shown, so it is not "cut". Text rectangles are trimmed by 15 % of their height top
 * and bottom: a line box is taller than the glyphs' ink. A box of 2 px or less (the
 * screen-reader-only text of `.visually-hidden`) is not shown either. Text typed into a field
 * scrolls inside it by design and is not checked; a closed select's chosen option cannot wrap, so
 * it is measured against the select's room.
 */
export function findCuts(options: FitOptions): string[] {
  const { rootId, clampedProse, scrolls } = options
  const problems: string[] = []
  const root = rootId === null ? document.body : document.getElementById(rootId)
  const view = { left: 0, right: document.documentElement.clientWidth, top: scrolls ? -Infinity : 0, bottom: scrolls ? Infinity : document.documentElement.clientHeight }
  const describe = (el: any) => {
    const classes = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).join('.') : ''
    return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${classes}`
  }
  // checkVisibility: also false inside a closed <details> (its content is not rendered, but has boxes).
  const shown = (el: any) => {
    if (el.closest('[hidden]')) return false
    const style = getComputedStyle(el)
    return style.display !== 'none' && style.visibility !== 'hidden' && el.getClientRects().length > 0 && (el.checkVisibility?.({ visibilityProperty: true }) ?? true)
  }
  /** The width of a closed select's chosen text against the room it has (its box less padding and the arrow's 20 px). */
  const measure = document.createElement('canvas').getContext('2d')
  const selectCut = (el: any, style: any): string | null => {
    const chosen = el.options?.[el.selectedIndex]?.text ?? ''
    measure.font = style.font
    const needed = Math.ceil(measure.measureText(chosen).width)
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20
    return needed > room + 1 ? `${describe(el)} "${chosen.slice(0, 48)}": the chosen option ${needed}px wide in ${room}px` : null
  }
  const prose = (el: any) => clampedProse.some((c) => el.closest('.' + c))
  const scrollsAlong = (style: any, axis: 'overflowX' | 'overflowY') => scrolls && (style[axis] === 'auto' || style[axis] === 'scroll')
  const field = (el: any) => ['INPUT', 'TEXTAREA'].includes(el.tagName)
  // A page that scrolls: nothing may make it wider than the window (no sideways scrolling).
  if (scrolls && document.documentElement.scrollWidth > document.documentElement.clientWidth + 1) {
    problems.push(`the page is ${document.documentElement.scrollWidth}px wide in a ${document.documentElement.clientWidth}px window`)
  }
  for (const el of root.querySelectorAll('*')) {
    if (!shown(el) || prose(el) || field(el)) continue
    const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 48)
    const style = getComputedStyle(el)
    if (el.tagName === 'SELECT' && !el.multiple && el.size <= 1) {
      const cut = selectCut(el, style)
      if (cut !== null) problems.push(cut)
      continue
    }
    if (el.clientWidth > 2 && el.scrollWidth > el.clientWidth + 1 && !scrollsAlong(style, 'overflowX')) {
      problems.push(`${describe(el)} "${text}": content ${el.scrollWidth}px wide in a ${el.clientWidth}px box`)
      continue
    }
    const clamps = style.textOverflow === 'ellipsis' || (style.webkitLineClamp && style.webkitLineClamp !== 'none')
    if (clamps && el.clientHeight > 0 && el.scrollHeight > el.clientHeight + 1) {
      problems.push(`${describe(el)} "${text}": clamped, ${el.scrollHeight}px tall in a ${el.clientHeight}px box`)
    }
  }
  // Every line of text against its clipping ancestors and the screen.
  const walker = document.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */)
  text: for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const parent = node.parentElement
    if (parent === null || node.textContent.trim() === '' || !shown(parent) || prose(parent) || field(parent)) continue
    const range = document.createRange()
    range.selectNodeContents(node)
    const clips: { el: any; box: any }[] = [{ el: null, box: view }]
    for (let a = parent; a !== null && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a)
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
        if (a.clientWidth <= 2 || a.clientHeight <= 2) continue text
        const r = a.getBoundingClientRect()
        const left = r.left + a.clientLeft
        const top = r.top + a.clientTop
        // A box that scrolls along an axis cuts nothing along it: its reader scrolls.
        clips.push({
          el: a,
          box: {
            left: scrollsAlong(s, 'overflowX') ? -Infinity : left,
            right: scrollsAlong(s, 'overflowX') ? Infinity : left + a.clientWidth,
            top: scrollsAlong(s, 'overflowY') ? -Infinity : top,
            bottom: scrollsAlong(s, 'overflowY') ? Infinity : top + a.clientHeight,
          },
        })
      }
    }
    for (const rect of range.getClientRects()) {
      if (rect.width < 1) continue
      const trim = rect.height * 0.15
      const line = { left: rect.left + 0.5, right: rect.right - 0.5, top: rect.top + trim, bottom: rect.bottom - trim }
      for (const { el, box } of clips) {
        const outside = line.right <= box.left || line.left >= box.right || line.bottom <= box.top || line.top >= box.bottom
        if (outside) continue
        const inside = line.left >= box.left - 1 && line.right <= box.right + 1 && line.top >= box.top - 1 && line.bottom <= box.bottom + 1
        if (!inside) {
          problems.push(`${describe(parent)} "${node.textContent.trim().slice(0, 48)}": cut by ${el ? describe(el) : 'the screen edge'}`)
          break
        }
      }
    }
  }
  return [...new Set(problems)]
}
