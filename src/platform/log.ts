import { writeSync } from 'node:fs'

/** One JSON object per line on stdout; tests pass a collecting or silent logger. */
export type Logger = (entry: Record<string, unknown>) => void

const MiB = 1024 * 1024

export interface LineWriterOptions {
  /** Bytes held while the reader is slow; lines beyond them are dropped and counted. */
  maxHeldBytes?: number
  /** How soon a write the reader refused (EAGAIN) is tried again. */
  retryMs?: number
  /** How long the exit flush waits for a reader that takes nothing, before it gives up. */
  exitWaitMs?: number
}

/**
 * Lines written to `fd` in one `write` per turn of the event loop instead of one per line,
 * without ever stopping the event loop for the reader: when the pipe is full (journald or a
 * supervisor reading slowly) the write takes what fits, the rest is held and tried again on a
 * timer, and the server keeps answering. Held bytes are bounded: beyond `maxHeldBytes` new lines
 * are dropped, counted, and a warning line says how many once the reader catches up.
 *
 * Before the process exits (SIGTERM ends through `process.exit`, which runs the 'exit'
 * handlers) the held lines are written synchronously, waiting for the reader up to
 * `exitWaitMs`. `process.stdout.write` is not used for this: on a pipe Bun queues its writes
 * without bound, and `process.exit` drops what is still queued.
 */
export class BufferedLineWriter {
  private pending: string[] = []
  private pendingBytes = 0
  /** The part of an earlier chunk the reader has not taken yet. */
  private unwritten: Buffer | null = null
  private dropped = 0
  private scheduled = false
  private retryTimer: ReturnType<typeof setTimeout> | null = null
  private readonly maxHeldBytes: number
  private readonly retryMs: number
  private readonly exitWaitMs: number

  constructor(private readonly fd: number, options: LineWriterOptions = {}) {
    this.maxHeldBytes = options.maxHeldBytes ?? 16 * MiB
    this.retryMs = options.retryMs ?? 10
    this.exitWaitMs = options.exitWaitMs ?? 5_000
  }

  /** What is waiting for the reader (lines count as their length). */
  get heldBytes(): number {
    return this.pendingBytes + (this.unwritten?.length ?? 0)
  }

  write(line: string): void {
    if (this.heldBytes + line.length > this.maxHeldBytes) {
      this.dropped++
      return
    }
    this.pending.push(line)
    this.pendingBytes += line.length
    if (this.scheduled || this.retryTimer !== null) return
    this.scheduled = true
    setImmediate(this.flushNow)
  }

  /** Writes what the reader takes now; what it does not take is tried again in `retryMs`. */
  readonly flushNow = (): void => {
    this.scheduled = false
    this.retryTimer = null
    const chunk = this.takeChunk()
    if (chunk === null) return
    const written = writeAvailable(this.fd, chunk)
    if (written < 0 || written === chunk.length) return
    this.unwritten = chunk.subarray(written)
    this.retryTimer = setTimeout(this.flushNow, this.retryMs)
    // A held line must not keep a stopping server alive; the exit flush writes it.
    this.retryTimer.unref?.()
  }

  /** Writes everything held, waiting for the reader up to `exitWaitMs` (for 'exit'). */
  readonly flushBeforeExit = (): void => {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer)
    this.retryTimer = null
    const chunk = this.takeChunk()
    if (chunk === null) return
    const deadline = performance.now() + this.exitWaitMs
    let offset = 0
    while (offset < chunk.length && performance.now() < deadline) {
      const written = writeAvailable(this.fd, chunk.subarray(offset))
      if (written < 0) return
      offset += written
      if (offset < chunk.length) Bun.sleepSync(1)
    }
  }

  /** The unwritten rest, a warning for dropped lines, then the pending lines, as one buffer. */
  private takeChunk(): Buffer | null {
    const parts: Buffer[] = []
    if (this.unwritten !== null) parts.push(this.unwritten)
    this.unwritten = null
    if (this.dropped > 0) {
      const warning = { level: 'warn', msg: 'log lines dropped: stdout was not read fast enough', dropped: this.dropped }
      parts.push(Buffer.from(formatLogLine(warning, Date.now())))
      this.dropped = 0
    }
    if (this.pending.length > 0) parts.push(Buffer.from(this.pending.join('')))
    this.pending = []
    this.pendingBytes = 0
    if (parts.length === 0) return null
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts)
  }
}

/**
 * Writes what the reader takes without waiting: the bytes written, `chunk.length` when all, or
 * -1 when the reader is gone (EPIPE: nowhere left to log to, and the bytes are let go).
 */
function writeAvailable(fd: number, chunk: Buffer): number {
  let offset = 0
  while (offset < chunk.length) {
    try {
      offset += writeSync(fd, chunk, offset, chunk.length - offset)
    } catch (error) {
      const code = (error as { code?: string }).code
      if (code === 'EINTR') continue
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return offset
      return -1
    }
  }
  return offset
}

let stdoutWriter: BufferedLineWriter | undefined

/**
 * How long after the first line stdout is made non-blocking. Touching `process.stdout` builds
 * Bun's stdout stream and loads Node's stream modules: ~15 ms of CPU (compiled binary, stdout a
 * pipe), which came before a starting server answered its first request (issue 37). The few
 * lines written before then cannot fill a pipe (64 KiB); a reader that stops later finds the fd
 * non-blocking.
 */
const NONBLOCKING_AFTER_MS = 250

/** The process's stdout writer, flushed on exit. */
function stdoutLines(): BufferedLineWriter {
  if (stdoutWriter === undefined) {
    // Touching `process.stdout` makes Bun set O_NONBLOCK on a pipe or socket fd 1; without it a
    // full pipe would block `write` in the kernel, and with it the event loop. A command that
    // ends sooner never needs it (the timer does not keep the process alive).
    setTimeout(() => void process.stdout, NONBLOCKING_AFTER_MS).unref()
    const writer = new BufferedLineWriter(1)
    process.on('exit', writer.flushBeforeExit)
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

/**
 * Text for the person at the terminal, not a log record (the first administrator's setup link,
 * contract §24): through the log's writer, so it keeps its place among the log lines.
 */
export function writeStdoutText(text: string): void {
  stdoutLines().write(text)
}

export const jsonLogger: Logger = (entry) => {
  stdoutLines().write(formatLogLine(entry, Date.now()))
}

export const silentLogger: Logger = () => {}
