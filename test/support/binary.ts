import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Subprocess } from 'bun'

export const ROOT = new URL('../..', import.meta.url).pathname
export const BINARY = join(ROOT, 'dist', 'lobby')

/** Builds dist/lobby once when a test run starts without it (CI builds it before testing). */
export function ensureBinary(): string {
  if (!existsSync(BINARY)) {
    const build = Bun.spawnSync(['bun', 'run', 'build'], { cwd: ROOT, stdout: 'ignore', stderr: 'pipe' })
    if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`)
  }
  return BINARY
}

export interface RunningBinary {
  proc: Subprocess<'ignore', 'pipe', 'pipe'>
  url: string
  lines: string[]
  stop(signal?: NodeJS.Signals): Promise<number>
}

/** Starts `dist/lobby <args>` and waits for its "listening" log line (port 0 picks a free port). */
export async function startBinary(args: string[], env: Record<string, string> = {}): Promise<RunningBinary> {
  return startCommand([ensureBinary(), ...args], env)
}

/** Starts `bun src/main.ts <args>` (the source, not the build) and waits for its "listening" line. */
export async function startSource(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<RunningBinary> {
  return startCommand(['bun', join(ROOT, 'src', 'main.ts'), ...args], env, cwd)
}

async function startCommand(command: string[], env: Record<string, string>, cwd?: string): Promise<RunningBinary> {
  const proc = Bun.spawn(command, { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore', ...(cwd ? { cwd } : {}) })
  const lines: string[] = []
  const reader = proc.stdout.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const deadline = Date.now() + 10_000
  let url: string | undefined
  while (url === undefined) {
    if (Date.now() > deadline) throw new Error('binary did not start: ' + lines.join('\n'))
    const { done, value } = await reader.read()
    if (done) throw new Error(`binary exited: ${lines.join('\n')} ${await new Response(proc.stderr).text()}`)
    buffer += decoder.decode(value, { stream: true })
    let nl: number
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl)
      buffer = buffer.slice(nl + 1)
      lines.push(line)
      try {
        const entry = JSON.parse(line)
        if (entry.msg === 'listening') url = entry.localUrl ?? entry.url
      } catch {}
    }
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      lines.push(...decoder.decode(value).split('\n').filter(Boolean))
    }
  })()
  return {
    proc,
    url,
    lines,
    async stop(signal = 'SIGTERM') {
      proc.kill(signal)
      return await proc.exited
    },
  }
}
