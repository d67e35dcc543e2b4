import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { releaseFileName, sha256Line, RELEASE_TARGETS } from '../../scripts/release'
import { tempDir } from '../support/cli'

describe('bun run release (contract §13)', () => {
  test('names dist/lobby-<version>-linux-x64 and -linux-arm64', () => {
    expect(RELEASE_TARGETS.map((t) => releaseFileName('1.2.3', t.name))).toEqual(['lobby-1.2.3-linux-x64', 'lobby-1.2.3-linux-arm64'])
    expect(RELEASE_TARGETS.map((t) => t.bunTarget)).toEqual(['bun-linux-x64', 'bun-linux-arm64'])
  })

  test('the .sha256 file is what sha256sum -c checks', async () => {
    const dir = tempDir()
    const file = join(dir, 'lobby-1.2.3-linux-x64')
    await Bun.write(file, 'not really a binary')
    await Bun.write(`${file}.sha256`, await sha256Line(file))
    const check = Bun.spawnSync(['sha256sum', '-c', 'lobby-1.2.3-linux-x64.sha256'], { cwd: dir, stdout: 'pipe', stderr: 'pipe' })
    expect(check.stdout.toString()).toBe('lobby-1.2.3-linux-x64: OK\n')
    expect(check.exitCode).toBe(0)
    await Bun.write(file, 'tampered')
    expect(Bun.spawnSync(['sha256sum', '-c', 'lobby-1.2.3-linux-x64.sha256'], { cwd: dir, stdout: 'pipe', stderr: 'pipe' }).exitCode).toBe(1)
  })
})
