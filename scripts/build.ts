/**
 * Builds the single executable with the build facts `lobby --version` prints embedded
 * (`--define`): the commit (short hash, "+dirty" when the work tree has changes) and the UTC
 * build time. The version itself comes from package.json, imported by src/version.ts.
 *
 *   bun scripts/build.ts                      → dist/lobby for this machine (bun run build)
 *   (scripts/release.ts calls compileLobby for each release target)
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export const ROOT = join(import.meta.dir, '..')

export interface BuildFacts {
  commit: string
  date: string
}

/** The commit of the checkout, or "unknown" outside git; "+dirty" when uncommitted changes would be built. */
export function buildFacts(now = new Date()): BuildFacts {
  const git = (args: string[]) => {
    const result = Bun.spawnSync(['git', ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'ignore' })
    return result.exitCode === 0 ? result.stdout.toString().trim() : null
  }
  const hash = git(['rev-parse', '--short', 'HEAD'])
  const dirty = hash !== null && (git(['status', '--porcelain', '--untracked-files=no']) ?? '') !== ''
  return {
    commit: hash === null ? 'unknown' : `${hash}${dirty ? '+dirty' : ''}`,
    date: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  }
}

/**
 * `bun build --compile` of src/main.ts for `target` (e.g. bun-linux-arm64; undefined = this
 * machine), with its bytecode laid out in the order `bytecodeOrder` (a file
 * `recordBytecodeOrder` wrote) when given.
 */
export function compileLobby(outfile: string, facts: BuildFacts, target?: string, bytecodeOrder?: string): void {
  const args = [
    'build', '--compile', '--minify', '--sourcemap', '--bytecode',
    ...(target ? [`--target=${target}`] : []),
    ...(bytecodeOrder ? [`--bytecode-order=${bytecodeOrder}`] : []),
    `--define=LOBBY_BUILD_COMMIT=${JSON.stringify(facts.commit)}`,
    `--define=LOBBY_BUILD_DATE=${JSON.stringify(facts.date)}`,
    'src/main.ts', '--outfile', outfile,
  ]
  const result = Bun.spawnSync(['bun', ...args], { cwd: ROOT, stdout: 'inherit', stderr: 'inherit' })
  if (result.exitCode !== 0) throw new Error(`bun ${args.join(' ')} failed (exit ${result.exitCode})`)
}

export function buildScreens(): void {
  const result = Bun.spawnSync(['bun', 'scripts/build-screens.ts'], { cwd: ROOT, stdout: 'inherit', stderr: 'inherit' })
  if (result.exitCode !== 0) throw new Error('building the screens bundle failed')
}

/**
 * Runs `binary` (built for this machine) as a branch would start it and writes the order its
 * bytecode ran in to `orderFile` (Bun's BUN_BYTECODE_ORDER_OUT): `serve` on a scratch database
 * provisioned from `lobby provision --example`, until `/health` answers, then the public
 * services, state and ticket reads with the example's Queue key, then SIGTERM. A build laid out
 * in that order maps fewer pages of the binary: idle VmRSS 68 → 63 MiB, 77 → 73 MiB after the
 * read benchmark (bench/analysis.md "Start and memory").
 */
export async function recordBytecodeOrder(binary: string, orderFile: string): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'lobby-build-'))
  try {
    const example = join(scratch, 'branch.yaml')
    const db = join(scratch, 'lobby.db')
    const run = (args: string[]) => {
      const result = Bun.spawnSync([binary, ...args], { stdout: 'pipe', stderr: 'pipe' })
      if (result.exitCode !== 0) throw new Error(`${binary} ${args.join(' ')}: ${result.stderr.toString()}`)
      return result.stdout.toString()
    }
    writeFileSync(example, run(['provision', '--example']))
    const provisioned = JSON.parse(run(['provision', '--db', db, '--file', example])) as { secrets: { kind: string; secret: string }[] }
    const queueKey = provisioned.secrets.find((s) => s.kind === 'queue')?.secret
    const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
    const port = probe.port
    probe.stop(true)
    const server = Bun.spawn([binary, 'serve', '--port', String(port), '--host', '127.0.0.1', '--db', db], {
      env: { ...process.env, BUN_BYTECODE_ORDER_OUT: orderFile },
      stdout: 'ignore',
      stderr: 'ignore',
    })
    try {
      const url = `http://127.0.0.1:${port}`
      const deadline = Date.now() + 30_000
      for (;;) {
        const up = await fetch(`${url}/health`).then((r) => r.status === 200, () => false)
        if (up) break
        if (Date.now() > deadline) throw new Error(`${binary} serve did not answer /health within 30 s`)
        await Bun.sleep(20)
      }
      const headers = queueKey ? { authorization: `Bearer ${queueKey}` } : undefined
      for (let round = 0; round < 20; round++) {
        for (const path of ['/health', '/api/public/v1/queue/services', '/api/public/v1/queue/state']) await (await fetch(url + path, { headers })).arrayBuffer()
      }
    } finally {
      server.kill('SIGTERM')
      await server.exited
    }
    if (!existsSync(orderFile)) throw new Error(`${binary} wrote no bytecode order to ${orderFile}`)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/**
 * dist/lobby for this machine: compiled once, run once to record its bytecode order, compiled
 * again laid out in that order (a few seconds more than one compile).
 */
export async function buildLobby(outfile = join(ROOT, 'dist', 'lobby'), facts = buildFacts()): Promise<string> {
  const orderFile = join(ROOT, 'dist', 'bytecode-order.txt')
  mkdirSync(dirname(orderFile), { recursive: true })
  rmSync(orderFile, { force: true })
  compileLobby(outfile, facts)
  await recordBytecodeOrder(outfile, orderFile)
  compileLobby(outfile, facts, undefined, orderFile)
  return orderFile
}

if (import.meta.main) {
  buildScreens()
  await buildLobby()
}
