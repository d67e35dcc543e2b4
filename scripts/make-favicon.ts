// Generates the 32x32 icon embedded in src/platform/favicon.ts (run: bun scripts/make-favicon.ts; it prints the base64).
// 32x32 RGBA: a rounded dark-teal square with a white "L" and a small dot (a queue number look).
const W = 32, H = 32
const px = new Uint8Array(W * H * 4)
const set = (x: number, y: number, r: number, g: number, b: number, a = 255) => { const i = (y * W + x) * 4; px[i] = r; px[i + 1] = g; px[i + 2] = b; px[i + 3] = a }
for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
  const cx = Math.max(0, Math.max(5 - x, x - 26)), cy = Math.max(0, Math.max(5 - y, y - 26))
  if (cx * cx + cy * cy <= 25) set(x, y, 0x0b, 0x4f, 0x6c)
}
for (let y = 7; y <= 24; y++) for (let x = 9; x <= 13; x++) set(x, y, 255, 255, 255)
for (let y = 20; y <= 24; y++) for (let x = 9; x <= 23; x++) set(x, y, 255, 255, 255)
for (let y = 7; y <= 11; y++) for (let x = 19; x <= 23; x++) set(x, y, 0xf2, 0xb1, 0x34)
const raw = new Uint8Array(H * (1 + W * 4))
for (let y = 0; y < H; y++) { raw[y * (1 + W * 4)] = 0; raw.set(px.subarray(y * W * 4, (y + 1) * W * 4), y * (1 + W * 4) + 1) }
function crc32(buf: Uint8Array) { let c, crc = 0xffffffff; for (let n = 0; n < buf.length; n++) { c = (crc ^ buf[n]!) & 0xff; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; crc = (crc >>> 8) ^ c } return (crc ^ 0xffffffff) >>> 0 }
function chunk(type: string, data: Uint8Array) { const out = new Uint8Array(12 + data.length); const dv = new DataView(out.buffer); dv.setUint32(0, data.length); out.set(new TextEncoder().encode(type), 4); out.set(data, 8); dv.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length))); return out }
const ihdr = new Uint8Array(13); const dv = new DataView(ihdr.buffer); dv.setUint32(0, W); dv.setUint32(4, H); ihdr[8] = 8; ihdr[9] = 6
const zlib = require('node:zlib')
const idat = new Uint8Array(zlib.deflateSync(raw, { level: 9 }))
const parts = [new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))]
const png = Buffer.concat(parts)
const ico = Buffer.alloc(22 + png.length)
ico.writeUInt16LE(0, 0); ico.writeUInt16LE(1, 2); ico.writeUInt16LE(1, 4)
ico[6] = 32; ico[7] = 32; ico[8] = 0; ico[9] = 0; ico.writeUInt16LE(1, 10); ico.writeUInt16LE(32, 12); ico.writeUInt32LE(png.length, 14); ico.writeUInt32LE(22, 18)
png.copy(ico, 22)

console.log(ico.toString('base64'))
