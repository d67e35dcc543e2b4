import { describe, expect, test } from 'bun:test'
import pkg from '../../package.json'
import { versionLine } from '../../src/version'
import { SCHEMA_VERSION } from '../../src/db/migrate'
import { ensureBinary } from '../support/binary'

const BUILT_LINE = /^lobby (\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?) \(([0-9a-f]{7,40}(?:\+dirty)?), built (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)\) schema (\d+)$/

describe('lobby --version (contract §13)', () => {
  test('the line has the semver, the commit, the UTC build date and the schema', () => {
    expect(versionLine({ version: '1.2.3', commit: 'abc1234', builtAt: '2026-11-26T05:00:00Z' }, 7))
      .toBe('lobby 1.2.3 (abc1234, built 2026-11-26T05:00:00Z) schema 7')
  })

  test('from source: the version of package.json and the checkout\'s commit, and no invented build date', () => {
    const source = Bun.spawnSync(['bun', new URL('../../src/main.ts', import.meta.url).pathname, '--version'], { stdout: 'pipe' })
    const run = { code: source.exitCode, stdout: source.stdout.toString() }
    expect(run.code).toBe(0)
    const head = Bun.spawnSync(['git', 'rev-parse', '--short', 'HEAD'], { stdout: 'pipe' }).stdout.toString().trim()
    expect(run.stdout.trim()).toBe(`lobby ${pkg.version} (${head}, run from source) schema ${SCHEMA_VERSION}`)
  })

  test('the built binary carries the commit and build date embedded by bun run build', () => {
    const run = Bun.spawnSync([ensureBinary(), '--version'], { stdout: 'pipe' })
    const line = run.stdout.toString().trim()
    const match = BUILT_LINE.exec(line)
    expect(match, line).not.toBeNull()
    expect(match![1]).toBe(pkg.version)
    expect(Number(match![4])).toBe(SCHEMA_VERSION)
    expect(Date.parse(match![3]!)).toBeLessThanOrEqual(Date.now())
  })
})
