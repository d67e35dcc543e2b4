/**
 * The server processes the section scripts (bench/reports.ts, bench/replication.ts) start: a
 * free port, and `lobby serve` pinned to the server core until it answers `/health`.
 */

/** A port nothing listens on now. */
export function freePort(): number {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = server.port!
  server.stop(true)
  return port
}

/** `binary serve` on core 1 with its output dropped, once `/health` answers 200 (at most 60 s). */
export async function serveLobby(binary: string, db: string, extra: string[] = []): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = freePort()
  const proc = Bun.spawn(['taskset', '-c', '1', binary, 'serve', '--port', String(port), '--host', '127.0.0.1', '--db', db, ...extra], { stdout: 'ignore', stderr: 'ignore', stdin: 'ignore' })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/health`)).status === 200) return { url, stop: async () => { proc.kill('SIGTERM'); await proc.exited } }
    } catch {}
    await Bun.sleep(20)
  }
  proc.kill('SIGKILL')
  throw new Error(`${binary} did not answer /health within 60 s`)
}
