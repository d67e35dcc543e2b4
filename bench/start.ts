#!/usr/bin/env bun
/**
 * Cold start and idle memory of dist/lobby beside the floors under it (issue 37).
 * bench/run.ts measures its cold starts with `coldStartMs` from here; run alone it is the quick
 * look while working on the start:
 *
 *   bun bench/start.ts [rounds]     (default 15; build dist/lobby first: bun run build)
 *
 * Each round starts Lobby, then the floors under it (interleaved: a burst of other load on this
 * shared machine moves all of them): a bare `Bun.serve`, a one-route Elysia app and the fixed
 * stack (Elysia, Drizzle with Lobby's tables, the database opened and its migrations checked;
 * bench/servers/), spawn → first `/health` 200, on a copy of a database provisioned from
 * bench/provision.json. Then each is started once more and left idle 3 s: its lowest VmRSS
 * and RssAnon (/proc/<pid>/status). Prints the medians, every sample and the load average, and
 * the CPU time each start used up to its stop (user + system, all threads: steadier than the
 * wall time when the machine is shared).
 * START_PIN=1 pins every server to core 1 as the load runs do. START_BEFORE=path/to/lobby
 * starts that binary too in every round (between this one and the floors): a before and after.
 * START_FLOORS=1 builds Lobby's own floors from this checkout (bench/floors.ts: without its
 * feature routes, and without any feature) and starts them in every round too.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './processes'
import { buildFloors } from './floors'

const ROOT = join(import.meta.dir, '..')
const BINARY = join(ROOT, 'dist', 'lobby')


/**
 * Spawn → first `/health` 200 of the server `argv(port)` starts, in ms, run under
 * `taskset -c cores` when `cores` is given; the server is stopped again (SIGTERM) before this
 * resolves.
 */
export async function coldStartMs(argv: (port: number) => string[], cores?: string): Promise<number> {
  return (await coldStart(argv, cores)).ms
}

/** coldStartMs, with the CPU time the process used from spawn to its exit (ms, user + system). */
export async function coldStart(argv: (port: number) => string[], cores?: string): Promise<{ ms: number; cpuMs: number }> {
  const port = freePort()
  const command = argv(port)
  const t0 = performance.now()
  const proc = Bun.spawn(cores === undefined ? command : ['taskset', '-c', cores, ...command], { stdout: 'ignore', stderr: 'ignore', stdin: 'ignore' })
  let took = NaN
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`)
      await response.arrayBuffer()
      if (response.status === 200) {
        took = performance.now() - t0
        break
      }
    } catch {}
    await Bun.sleep(1)
  }
  proc.kill('SIGTERM')
  await proc.exited
  if (Number.isNaN(took)) throw new Error(`cold start: no /health 200 within 10 s from ${command.join(' ')}`)
  const usage = proc.resourceUsage()
  const cpuMs = usage === undefined ? NaN : Number(usage.cpuTime.user + usage.cpuTime.system) / 1000
  return { ms: took, cpuMs }
}

/** Lobby's `serve` on `db`, for coldStartMs. */
export const lobbyServe = (binary: string, db: string) => (port: number) => [binary, 'serve', '--port', String(port), '--host', '127.0.0.1', '--db', db]

/** The baseline servers in bench/servers/ whose cold starts are measured beside Lobby's. */
export type BaselineServer = 'bare-health' | 'elysia-health' | 'stack-health'

/** Compiles bench/servers/<name>.ts as Lobby is compiled (minified, bytecode) to `outfile`. */
export function buildBaseline(name: BaselineServer, outfile: string): void {
  const result = Bun.spawnSync(['bun', 'build', '--compile', '--minify', '--bytecode', join(import.meta.dir, 'servers', `${name}.ts`), '--outfile', outfile], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0) throw new Error(`building ${name} failed: ${result.stderr.toString()}`)
}

/**
 * The three floors under Lobby's start, compiled into `dir`, as coldStart argv: the runtime (a
 * bare Bun.serve), the runtime with Elysia (one route), and the fixed stack on `db` (Elysia,
 * Drizzle with Lobby's tables, the database opened and its migrations checked).
 */
export function buildBaselines(dir: string, db: string): { name: string; argv: (port: number) => string[]; binary: string }[] {
  const bare = join(dir, 'bare-health')
  const elysia = join(dir, 'elysia-health')
  const stack = join(dir, 'stack-health')
  buildBaseline('bare-health', bare)
  buildBaseline('elysia-health', elysia)
  buildBaseline('stack-health', stack)
  return [
    { name: 'bare', argv: (port) => [bare, String(port)], binary: bare },
    { name: 'elysia', argv: (port) => [elysia, String(port)], binary: elysia },
    { name: 'stack', argv: (port) => [stack, String(port), db], binary: stack },
  ]
}

/** kB figures of /proc/<pid>/status (VmRSS, RssAnon, RssFile). */
export function memoryKb(pid: number): { vmRss: number; rssAnon: number; rssFile: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) => {
    const match = new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)
    if (match === null) throw new Error(`no ${name} for ${pid}`)
    return Number(match[1])
  }
  return { vmRss: field('VmRSS'), rssAnon: field('RssAnon'), rssFile: field('RssFile') }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

/** The lowest memory over the 3 s after the first `/health` 200 of the server `argv(port)` starts. */
export async function idleMemory(argv: (port: number) => string[], cores?: string): Promise<{ vmRss: number; rssAnon: number; rssFile: number }> {
  const port = freePort()
  const command = argv(port)
  const proc = Bun.spawn(cores === undefined ? command : ['taskset', '-c', cores, ...command], { stdout: 'ignore', stderr: 'ignore', stdin: 'ignore' })
  try {
    for (let i = 0; i < 2000; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health`)).status === 200) break
      } catch {}
      await Bun.sleep(5)
    }
    let lowest = memoryKb(proc.pid)
    for (let i = 0; i < 12; i++) {
      await Bun.sleep(250)
      const now = memoryKb(proc.pid)
      if (now.vmRss < lowest.vmRss) lowest = now
    }
    return lowest
  } finally {
    proc.kill('SIGTERM')
    await proc.exited
  }
}

/** Lobby's two floors (bench/floors.ts), compiled into `dir`, as servers for the rounds. */
async function floorServers(dir: string, db: string): Promise<{ name: string; argv: (port: number) => string[]; binary: string }[]> {
  const { routeless, featureless } = await buildFloors(dir)
  return [
    { name: 'routeless', argv: lobbyServe(routeless, db), binary: routeless },
    { name: 'featureless', argv: lobbyServe(featureless, db), binary: featureless },
  ]
}

if (import.meta.main) {
  const rounds = Number(process.argv[2] ?? 15)
  const cores = process.env.START_PIN === '1' ? '1' : undefined
  const tmp = mkdtempSync(join(tmpdir(), 'lobby-start-'))
  try {
    const base = join(tmp, 'base.db')
    const provision = Bun.spawnSync([BINARY, 'provision', '--db', base, '--file', join(import.meta.dir, 'provision.json')], { stdout: 'pipe', stderr: 'pipe' })
    if (provision.exitCode !== 0) throw new Error(`provision failed: ${provision.stderr.toString()}`)
    const db = join(tmp, 'cold.db')
    copyFileSync(base, db)
    const loadBefore = loadAverage()
    const servers: { name: string; argv: (port: number) => string[] }[] = [
      { name: 'lobby', argv: lobbyServe(BINARY, db), binary: BINARY },
      ...(process.env.START_BEFORE ? [{ name: 'before', argv: lobbyServe(process.env.START_BEFORE, db), binary: process.env.START_BEFORE }] : []),
      ...(process.env.START_FLOORS === '1' ? await floorServers(tmp, db) : []),
      ...buildBaselines(tmp, db),
    ]
    const samples = new Map(servers.map((server) => [server.name, { ms: [] as number[], cpuMs: [] as number[] }]))
    // One of each first, not counted: the page cache holds every binary afterwards.
    for (const server of servers) await coldStart(server.argv, cores)
    for (let i = 0; i < rounds; i++) {
      for (const server of servers) {
        const { ms, cpuMs } = await coldStart(server.argv, cores)
        samples.get(server.name)!.ms.push(ms)
        samples.get(server.name)!.cpuMs.push(cpuMs)
      }
    }
    const mb = (kb: number) => (kb / 1024).toFixed(1)
    console.log(`load average ${loadBefore} → ${loadAverage()}${cores ? ` (pinned to core ${cores})` : ''}; ${rounds} rounds`)
    for (const server of servers) {
      const { ms, cpuMs } = samples.get(server.name)!
      console.log(`${server.name.padEnd(11)} cold start median ${median(ms).toFixed(1)} ms, CPU ${median(cpuMs).toFixed(1)} ms (${ms.map((v) => v.toFixed(0)).join(', ')})`)
    }
    for (const server of servers) {
      const memory = await idleMemory(server.argv, cores)
      console.log(`${server.name.padEnd(11)} idle VmRSS ${mb(memory.vmRss)} MiB, RssAnon ${mb(memory.rssAnon)} MiB, RssFile ${mb(memory.rssFile)} MiB`)
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}
