import pkg from '../package.json'
import { SCHEMA_VERSION } from './db/migrate'

// Set by `bun build --define` (scripts/build.ts): the commit and the UTC build time of a binary.
declare const LOBBY_BUILD_COMMIT: string | undefined
declare const LOBBY_BUILD_DATE: string | undefined

export const VERSION: string = pkg.version

export interface BuildInfo {
  version: string
  /** Short commit hash the binary was built from; from source, the checkout's HEAD (or "unknown"). */
  commit: string
  /** UTC build time (ISO 8601, seconds); null when running from source. */
  builtAt: string | null
}

let cached: BuildInfo | undefined

/** What this executable is: embedded at build time, or read from the git checkout when run from source. */
export function buildInfo(): BuildInfo {
  if (cached !== undefined) return cached
  const embeddedCommit = typeof LOBBY_BUILD_COMMIT === 'string' ? LOBBY_BUILD_COMMIT : undefined
  const embeddedDate = typeof LOBBY_BUILD_DATE === 'string' ? LOBBY_BUILD_DATE : undefined
  cached = {
    version: VERSION,
    commit: embeddedCommit ?? sourceCommit(),
    builtAt: embeddedDate ?? null,
  }
  return cached
}

/** HEAD of the checkout this source file lives in; only asked for by `--version` and `status`. */
function sourceCommit(): string {
  try {
    const git = Bun.spawnSync(['git', 'rev-parse', '--short', 'HEAD'], { cwd: import.meta.dir, stdout: 'pipe', stderr: 'ignore' })
    const hash = git.stdout.toString().trim()
    return git.exitCode === 0 && /^[0-9a-f]{4,40}$/.test(hash) ? hash : 'unknown'
  } catch {
    return 'unknown'
  }
}

/**
 * Contract §13: `lobby <semver> (<commit>, built <UTC date>) schema <n>`. Run from source there
 * is no build date, and the line says so instead of inventing one.
 */
export function versionLine(info: BuildInfo = buildInfo(), schema: number = SCHEMA_VERSION): string {
  const built = info.builtAt === null ? 'run from source' : `built ${info.builtAt}`
  return `lobby ${info.version} (${info.commit}, ${built}) schema ${schema}`
}
