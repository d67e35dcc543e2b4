/**
 * `bun run release`: the release binaries for the two boxes a branch runs on, each with its
 * SHA-256 file in the `sha256sum` format (`sha256sum -c lobby-…-linux-x64.sha256` checks it):
 *
 *   dist/lobby-<version>-linux-x64      dist/lobby-<version>-linux-x64.sha256
 *   dist/lobby-<version>-linux-arm64    dist/lobby-<version>-linux-arm64.sha256
 *
 * Cross-compiling needs the other platform's Bun runtime: `bun build --compile` fetches it
 * from the npm registry the first time (then it is cached in ~/.bun/install/cache).
 */
import { join, basename } from 'node:path'
import { writeFileSync, mkdirSync } from 'node:fs'
import pkg from '../package.json'
import { ROOT, buildFacts, buildLobby, buildScreens, compileLobby } from './build'

export const RELEASE_TARGETS = [
  { name: 'linux-x64', bunTarget: 'bun-linux-x64' },
  { name: 'linux-arm64', bunTarget: 'bun-linux-arm64' },
] as const

export function releaseFileName(version: string, target: string): string {
  return `lobby-${version}-${target}`
}

/** `sha256sum` line of a file. */
export async function sha256Line(path: string): Promise<string> {
  const hasher = new Bun.CryptoHasher('sha256')
  hasher.update(await Bun.file(path).arrayBuffer())
  return `${hasher.digest('hex')}  ${basename(path)}\n`
}

if (import.meta.main) {
  const dist = join(ROOT, 'dist')
  mkdirSync(dist, { recursive: true })
  buildScreens()
  const facts = buildFacts()
  // The bytecode order is recorded by a run on this machine (dist/lobby) and laid out the same
  // in every target's build: the order names functions of the one bundle, not of a platform.
  const bytecodeOrder = await buildLobby(join(dist, 'lobby'), facts)
  for (const target of RELEASE_TARGETS) {
    const out = join(dist, releaseFileName(pkg.version, target.name))
    compileLobby(out, facts, target.bunTarget, bytecodeOrder)
    writeFileSync(`${out}.sha256`, await sha256Line(out))
    console.log(`${out} (${facts.commit}, built ${facts.date})`)
  }
}
