import qrcode from 'qrcode-generator'

/**
 * A QR code as an SVG document, made here (qrcode-generator, bundled into the binary; never a
 * web service). Error correction M (15 %: survives a smudge on thermal paper), the smallest
 * version that holds `text`, a 4-module quiet zone, black modules as one path on white, and
 * `shape-rendering: crispEdges` so a printer or a camera sees hard module edges at any size.
 */
export function qrSvg(text: string, options: { label?: string } = {}): string {
  const qr = qrcode(0, 'M')
  qr.addData(text, 'Byte')
  qr.make()
  const count = qr.getModuleCount()
  const quiet = 4
  const size = count + quiet * 2
  let path = ''
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (qr.isDark(row, col)) path += `M${col + quiet} ${row + quiet}h1v1h-1z`
    }
  }
  const label = options.label === undefined ? '' : `<title>${escapeXml(options.label)}</title>`
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges" role="img">${label}<rect width="${size}" height="${size}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`
}

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
