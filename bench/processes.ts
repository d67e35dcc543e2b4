/**
 * The server processes the section scripts (bench/reports.ts, bench/replication.ts) start: a
 * free port, and `lobby serve` pinned to the server core until it answers `/health`.
 */

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
