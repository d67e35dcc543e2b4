import { afterAll, describe, expect, test } from 'bun:test'
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..', '..')

/**
 * `BENCH_REPORT_ONLY=1 bun run bench` writes RESULTS.md again from the measurements, for
 * instance after bench/analysis.md was edited. Every section another bench script owns must
 * come through it as it was: those scripts take minutes (PostgreSQL, a million tickets) and
 * their figures are measured nowhere else. bench/hq-chain.ts's section was dropped until
 * 2026-12-02.
 */
describe('rewriting bench/RESULTS.md from the measurements', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lobby-bench-report-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('keeps every section another bench script wrote, byte for byte, and the analysis', () => {
    const out = join(dir, 'RESULTS.md')
    copyFileSync(join(ROOT, 'bench', 'RESULTS.md'), out)
    const before = readFileSync(out, 'utf8')
    const run = Bun.spawnSync(['bun', 'bench/run.ts'], {
      cwd: ROOT,
      env: { ...process.env, BENCH_REPORT_ONLY: '1', BENCH_OUT: out },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    expect(run.exitCode).toBe(0)
    const after = readFileSync(out, 'utf8')
    const markers: [string, string][] = [
      ['<!-- reports:start -->', '<!-- reports:end -->'],
      ['<!-- replication:start -->', '<!-- replication:end -->'],
      ['<!-- estimates: written by bench/simulate.ts -->', '<!-- /estimates -->'],
      ['<!-- manage:start -->', '<!-- manage:end -->'],
      ['<!-- appointments:start -->', '<!-- appointments:end -->'],
      ['<!-- hq-chain:start -->', '<!-- hq-chain:end -->'],
    ]
    const section = (text: string, [start, end]: [string, string]) => {
      const from = text.indexOf(start)
      const to = text.indexOf(end)
      return from >= 0 && to > from ? text.slice(from, to + end.length) : null
    }
    for (const pair of markers) {
      expect(section(before, pair)).not.toBeNull()
      expect(section(after, pair)).toBe(section(before, pair))
    }
    // The hand-kept analysis comes in whole too.
    expect(after).toContain(readFileSync(join(ROOT, 'bench', 'analysis.md'), 'utf8').trim().split('\n').slice(0, 3).join('\n'))
  }, 60_000)
})
