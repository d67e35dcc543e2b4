import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Subprocess } from 'bun'

export const ROOT = new URL('../..', import.meta.url).pathname
export const BINARY = join(ROOT, 'dist', 'lobby')
const LOCK = join(ROOT, 'dist', '.build.lock')

/** What dist/lobby is built from: every file under src/ and scripts/, the lockfile and package.json. */
const INPUTS = ['src', 'scripts', 'bun.lock', 'package.json', 'tsconfig.json']

/** The newest modification time (ms) among `path` and, for a directory, everything under it. */
function newestMtime(path: string): number {
  let stat
  try {
    stat = statSync(path)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = 0
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)))
  return newest
}

/** The source's newest file (the bundles in src/screens/generated are written by the build itself, before the binary). */
export function sourcesNewestMtime(): number {
  return Math.max(...INPUTS.map((input) => newestMtime(join(ROOT, input))))
}

/** True when dist/lobby is missing or older than any file it is built from. */
export function binaryIsStale(): boolean {
  if (!existsSync(BINARY)) return true
  return statSync(BINARY).mtimeMs < sourcesNewestMtime()
}

let checked = false

/**
 * dist/lobby, rebuilt (`bun run build`) when it is missing or older than any file under src/,
 * scripts/, the lockfile or package.json: a browser or e2e test never runs a stale binary.
 * Checked once per test process; a lock directory (dist/.build.lock, made atomically) keeps
 * two test processes from building at once: the second waits, then finds the binary fresh.
 */
export function ensureBinary(): string {
  if (checked) return BINARY
  if (binaryIsStale()) {
    mkdirSync(join(ROOT, 'dist'), { recursive: true })
    const deadline = Date.now() + 300_000
    for (;;) {
      try {
        mkdirSync(LOCK)
        break
      } catch {
        // A lock left by a killed build is taken over after five minutes.
        if (Date.now() > deadline || Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 300_000) {
          rmSync(LOCK, { recursive: true, force: true })
          continue
        }
        Bun.sleepSync(250)
      }
    }
    try {
      if (binaryIsStale()) {
        const build = Bun.spawnSync(['bun', 'run', 'build'], { cwd: ROOT, stdout: 'ignore', stderr: 'pipe' })
        if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`)
        if (binaryIsStale()) throw new Error('dist/lobby is still older than its sources after `bun run build`')
      }
    } finally {
      rmSync(LOCK, { recursive: true, force: true })
    }
  }
  checked = true
  return BINARY
}

export interface RunningBinary {
  proc: Subprocess<'ignore', 'pipe', 'pipe'>
  url: string
  lines: string[]
  stop(signal?: NodeJS.Signals): Promise<number>
}

/** Starts `dist/lobby <args>` and waits for its "listening" log line (port 0 picks a free port). */
export async function startBinary(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<RunningBinary> {
  return startCommand([ensureBinary(), ...args], env, cwd)
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
  // Keep draining stdout and stderr so the child never blocks on a full pipe; stderr's lines and
  // how the child ended go into `lines` too, for a test to show when a server died under it.
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      lines.push(...decoder.decode(value).split('\n').filter(Boolean))
    }
  })()
  void (async () => {
    const errors = proc.stderr.getReader()
    const errorText = new TextDecoder()
    for (;;) {
      const { done, value } = await errors.read()
      if (done) break
      lines.push(...errorText.decode(value).split('\n').filter(Boolean).map((line) => `stderr: ${line}`))
    }
  })()
  void proc.exited.then((code) => lines.push(`exited: code ${code}, signal ${proc.signalCode ?? 'none'}`))
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
