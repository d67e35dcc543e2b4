/**
 * What a page writes on its canvases (the reports' charts: uPlot draws axis labels with
 * `fillText`), read back for the fit tests: `recordCanvasText` runs before the page's scripts
 * and keeps every `fillText` of each canvas since it was last cleared whole, with the box the
 * text covers; `findCanvasOverlaps` (handed to `page.evaluate`) lists the texts that run into
 * each other ("10–15 min15–20 min", issue 48) or past the canvas's edge. Texts drawn at
 * different angles are not compared (a slanted axis label and an upright one may cross by
 * design: the chart's lines do too).
 */

// The page's globals, for the functions that run in the page.
declare const window: any
declare const document: any

/** Runs in the page before its own scripts (`addInitScript`). */
export function recordCanvasText(): void {
  const proto = window.CanvasRenderingContext2D.prototype
  const texts = new WeakMap<object, unknown[]>()
  window.__canvasTexts = (canvas: object) => texts.get(canvas) ?? []
  const clearRect = proto.clearRect
  proto.clearRect = function (this: any, x: number, y: number, w: number, h: number) {
    if (x <= 0 && y <= 0 && x + w >= this.canvas.width && y + h >= this.canvas.height) texts.set(this.canvas, [])
    return clearRect.call(this, x, y, w, h)
  }
  const fillText = proto.fillText
  proto.fillText = function (this: any, text: string, x: number, y: number, maxWidth?: number) {
    if (String(text).trim() !== '') {
      // The box the ink covers, around the drawing point, as the context's alignment and baseline place it.
      const m = this.measureText(String(text))
      const t = this.getTransform()
      const list = texts.get(this.canvas) ?? []
      list.push({
        text: String(text),
        box: { left: x - m.actualBoundingBoxLeft, right: x + m.actualBoundingBoxRight, top: y - m.actualBoundingBoxAscent, bottom: y + m.actualBoundingBoxDescent },
        transform: [t.a, t.b, t.c, t.d, t.e, t.f],
      })
      texts.set(this.canvas, list)
    }
    return maxWidth === undefined ? fillText.call(this, text, x, y) : fillText.call(this, text, x, y, maxWidth)
  }
}

/** Runs in the page: every pair of texts on a canvas under `selector` that overlap, and every text past its canvas's edge. */
export function findCanvasOverlaps(selector: string): string[] {
  interface Drawn { text: string; box: { left: number; right: number; top: number; bottom: number }; transform: number[] }
  const problems: string[] = []
  for (const canvas of document.querySelectorAll(selector)) {
    const where = canvas.closest('[id]')?.id ?? 'a canvas'
    const drawn = window.__canvasTexts(canvas) as Drawn[]
    // Each text's box in the frame of its angle: the translation undone through the linear part.
    const framed = drawn.map((d) => {
      const [a, b, c, dd, e, f] = d.transform as [number, number, number, number, number, number]
      const det = a * dd - b * c
      const dx = (dd * e - c * f) / det
      const dy = (-b * e + a * f) / det
      const angle = `${a.toFixed(3)},${b.toFixed(3)},${c.toFixed(3)},${dd.toFixed(3)}`
      const box = { left: d.box.left + dx, right: d.box.right + dx, top: d.box.top + dy, bottom: d.box.bottom + dy }
      // The corners on the canvas, to see that the text is inside it.
      const corners = [[d.box.left, d.box.top], [d.box.right, d.box.top], [d.box.left, d.box.bottom], [d.box.right, d.box.bottom]]
        .map(([x, y]) => [a * x! + c * y! + e, b * x! + dd * y! + f] as [number, number])
      return { text: d.text, angle, box, corners }
    })
    for (const one of framed) {
      if (one.corners.some(([x, y]) => x < -1 || y < -1 || x > canvas.width + 1 || y > canvas.height + 1)) problems.push(`${where}: "${one.text}" runs past the chart's edge`)
    }
    for (let i = 0; i < framed.length; i++) {
      for (let j = i + 1; j < framed.length; j++) {
        const [p, q] = [framed[i]!, framed[j]!]
        if (p.angle !== q.angle) continue
        const across = Math.min(p.box.right, q.box.right) - Math.max(p.box.left, q.box.left)
        const down = Math.min(p.box.bottom, q.box.bottom) - Math.max(p.box.top, q.box.top)
        if (across > 1 && down > 1) problems.push(`${where}: "${p.text}" and "${q.text}" overlap`)
      }
    }
  }
  return [...new Set(problems)]
}
