/**
 * What the section scripts (bench/reports.ts, replication.ts, manage.ts, appointments.ts) share:
 * a command run, wrk with a Lua script, a free port, and `lobby serve` pinned to the server core
 * until it answers `/health`.
 */
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..')

/** `argv` run to its end from the repository's root; its stdout, or an error with its stderr. */
export function run(argv: string[]): string {
  const r = Bun.spawnSync(argv, { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  if (r.exitCode !== 0) throw new Error(`${argv.join(' ')} exited ${r.exitCode}: ${r.stderr.toString().slice(0, 2000)}`)
  return r.stdout.toString()
}

/** What bench/lua/report.lua prints for one wrk run (latencies in µs). */
export interface WrkRun { requests: number; durationUs: number; p50Us: number; p99Us: number; statusErrors: number }

/** wrk on core 0 (2 threads, 16 connections) running bench/lua/`script` against `url` with `args` for `seconds`. */
export function wrk(script: string, url: string, args: string[], seconds: number): WrkRun {
  const out = run(['taskset', '-c', '0', 'wrk', '-t2', '-c16', `-d${seconds}s`, '--latency', '-s', join(import.meta.dir, 'lua', script), url, '--', ...args])
  const line = out.split('\n').find((l) => l.startsWith('BENCH_JSON '))
  if (line === undefined) throw new Error(`wrk printed no BENCH_JSON line:\n${out}`)
  return JSON.parse(line.slice('BENCH_JSON '.length)) as WrkRun
}

/** Requests a second of a run. */
export const rps = (r: WrkRun) => r.requests / (r.durationUs / 1e6)

/** A random salt for the request IDs of one run. */
export const runSalt = () => Math.random().toString(36).slice(2, 10)


/** A port nothing listens on now (a listening socket opened and closed at once). */
export function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

/** The servers started here and not yet stopped: killed when this script ends, however it ends. */
const running = new Set<Bun.Subprocess>()
let hooked = false

/**
 * A bench stopped by Ctrl-C or a signal must not leave servers running (and busy) behind it. On
 * a signal the servers are killed, and the script exits unless someone else (bench/run.ts's own
 * cleanup) listens for that signal and exits in its turn. A signal sent to this process alone
 * waits for the wrk run in progress (a synchronous spawn) to end; Ctrl-C reaches wrk too.
 */
function killServersWhenThisEnds(): void {
  if (hooked) return
  hooked = true
  const killAll = () => {
    for (const proc of running) proc.kill('SIGKILL')
    running.clear()
  }
  process.on('exit', killAll)
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.on(signal, () => {
      killAll()
      if (process.listenerCount(signal) === 1) process.exit(code)
    })
  }
}

/** `binary serve` on core 1 with its output dropped, once `/health` answers 200 (at most 60 s). */
export async function serveLobby(binary: string, db: string, extra: string[] = []): Promise<{ url: string; stop: () => Promise<void> }> {
  killServersWhenThisEnds()
  const port = freePort()
  const proc = Bun.spawn(['taskset', '-c', '1', binary, 'serve', '--port', String(port), '--host', '127.0.0.1', '--db', db, ...extra], { stdout: 'ignore', stderr: 'ignore', stdin: 'ignore' })
  running.add(proc)
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/health`)).status === 200) {
        return { url, stop: async () => { proc.kill('SIGTERM'); await proc.exited; running.delete(proc) } }
      }
    } catch {}
    await Bun.sleep(20)
  }
  running.delete(proc)
  proc.kill('SIGKILL')
  throw new Error(`${binary} did not answer /health within 60 s`)
}
