/**
 * Builds the single executable with the build facts `lobby --version` prints embedded
 * (`--define`): the commit (short hash, "+dirty" when the work tree has changes) and the UTC
 * build time. The version itself comes from package.json, imported by src/version.ts.
 *
 *   bun scripts/build.ts                      → dist/lobby for this machine (bun run build)
 *   (scripts/release.ts calls compileLobby for each release target)
 */
import { join } from 'node:path'

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

/** `bun build --compile` of src/main.ts for `target` (e.g. bun-linux-arm64; undefined = this machine). */
export function compileLobby(outfile: string, facts: BuildFacts, target?: string): void {
  const args = [
    'build', '--compile', '--minify', '--sourcemap', '--bytecode',
    ...(target ? [`--target=${target}`] : []),
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

if (import.meta.main) {
  buildScreens()
  compileLobby(join(ROOT, 'dist', 'lobby'), buildFacts())
}
