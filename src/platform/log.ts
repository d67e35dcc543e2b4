import { writeSync } from 'node:fs'

/** One JSON object per line on stdout; tests pass a collecting or silent logger. */
export type Logger = (entry: Record<string, unknown>) => void

/**
 * Lines written to `fd` in one `write` per turn of the event loop instead of one per line, and
 * never lost: the buffer is written before the process exits (SIGTERM ends through
 * `process.exit`, which runs the 'exit' handlers), synchronously. `process.stdout.write` is not
 * used for this: on a pipe Bun queues its writes, and `process.exit` drops what is still queued.
 */
export class BufferedLineWriter {
  private pending: string[] = []
  private scheduled = false

  constructor(private readonly fd: number) {}

  write(line: string): void {
    this.pending.push(line)
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(this.flushNow)
  }

  /** Writes every buffered line now (blocking until the system took them all). */
  readonly flushNow = (): void => {
    this.scheduled = false
    if (this.pending.length === 0) return
    const chunk = Buffer.from(this.pending.join(''))
    this.pending = []
    writeFully(this.fd, chunk)
  }
}

/**
 * `write` until every byte is taken. Once anything used `process.stdout`, Bun has made a pipe on
 * fd 1 non-blocking: a full pipe answers EAGAIN, and the rest waits for the reader.
 */
function writeFully(fd: number, chunk: Buffer): void {
  let offset = 0
  while (offset < chunk.length) {
    try {
      offset += writeSync(fd, chunk, offset, chunk.length - offset)
    } catch (error) {
      const code = (error as { code?: string }).code
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK' || code === 'EINTR') {
        Bun.sleepSync(1)
        continue
      }
      // stdout closed (EPIPE) or gone: nowhere left to log to.
      return
    }
  }
}

let stdoutWriter: BufferedLineWriter | undefined

/** The process's stdout writer, flushed on exit. */
function stdoutLines(): BufferedLineWriter {
  if (stdoutWriter === undefined) {
    const writer = new BufferedLineWriter(1)
    process.on('exit', writer.flushNow)
    stdoutWriter = writer
  }
  return stdoutWriter
}

let isoMs = Number.NaN
let isoText = ''

/** `entry` as one JSON line with `time` first; the time text is made once per millisecond. */
export function formatLogLine(entry: Record<string, unknown>, ms: number): string {
  if (ms !== isoMs) {
    isoMs = ms
    isoText = new Date(ms).toISOString()
  }
  if ('time' in entry) return JSON.stringify({ time: isoText, ...entry }) + '\n'
  const rest = JSON.stringify(entry)
  return rest.length === 2 ? `{"time":"${isoText}"}\n` : `{"time":"${isoText}",${rest.slice(1)}\n`
}

export const jsonLogger: Logger = (entry) => {
  stdoutLines().write(formatLogLine(entry, Date.now()))
}

export const silentLogger: Logger = () => {}
