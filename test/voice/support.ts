import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** A valid little WAV file: mono 8 kHz 16-bit, `samples` samples of a tone (so each clip's bytes differ by `seed`). */
export function wav(samples = 400, seed = 1): Uint8Array {
  const data = samples * 2
  const out = new DataView(new ArrayBuffer(44 + data))
  const ascii = (offset: number, text: string) => [...text].forEach((c, i) => out.setUint8(offset + i, c.charCodeAt(0)))
  ascii(0, 'RIFF')
  out.setUint32(4, 36 + data, true)
  ascii(8, 'WAVE')
  ascii(12, 'fmt ')
  out.setUint32(16, 16, true)
  out.setUint16(20, 1, true)
  out.setUint16(22, 1, true)
  out.setUint32(24, 8000, true)
  out.setUint32(28, 16000, true)
  out.setUint16(32, 2, true)
  out.setUint16(34, 16, true)
  ascii(36, 'data')
  out.setUint32(40, data, true)
  for (let i = 0; i < samples; i++) out.setInt16(44 + i * 2, Math.round(8000 * Math.sin((i * seed) / 5)), true)
  return new Uint8Array(out.buffer)
}

/** A directory of clips named `names` (`ticket.wav`, …), each a distinct WAV. */
export function clipDirectory(dir: string, names: string[]): string {
  mkdirSync(dir, { recursive: true })
  names.forEach((name, i) => writeFileSync(join(dir, `${name}.wav`), wav(400, i + 1)))
  return dir
}

/** What a board needs to say any call of the demo unit. */
export const FULL_SET = ['ticket', 'please-go-to', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'L', 'counter-cnt_1', 'counter-cnt_2']
