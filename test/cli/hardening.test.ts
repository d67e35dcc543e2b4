import { describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runCli, tempDir } from '../support/cli'
import { ROOT } from '../support/binary'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'

const MAIN = join(ROOT, 'src', 'main.ts')

describe('lobby backup (issue 16)', () => {
  test('the copy is owner-only (0600) from the moment it exists, not only once written', async () => {
    const dir = tempDir()
    const path = join(dir, 'lobby.db')
    const db = openDatabase(path)
    migrateDatabase(db.$client)
    // ~48 MB, so VACUUM INTO writes for long enough to be watched.
    db.$client.exec('CREATE TABLE ballast (b BLOB)')
    for (let i = 0; i < 48; i++) db.$client.query('INSERT INTO ballast VALUES (randomblob(1048576))').run()
    db.$client.close()
    const out = join(dir, 'copy.db')
    // umask 022, as on a default system: a file created with the process umask would be 0644.
    const proc = Bun.spawn(['sh', '-c', `umask 022; exec bun ${MAIN} backup --db ${path} --out ${out}`], { stdout: 'pipe', stderr: 'pipe' })
    const modes = new Set<number>()
    let sawSize = 0
    for (let i = 0; proc.exitCode === null; i++) {
      try {
        const st = statSync(out)
        modes.add(st.mode & 0o777)
        sawSize = Math.max(sawSize, st.size)
      } catch {}
      if (i % 200 === 0) await Bun.sleep(0)
    }
    expect(await proc.exited).toBe(0)
    expect(sawSize).toBeGreaterThan(0)
    expect([...modes].map((m) => m.toString(8))).toEqual(['600'])
  }, 60_000)

  test('a missing output directory is named as such, and nothing is left behind', () => {
    const dir = tempDir()
    const path = join(dir, 'lobby.db')
    const db = openDatabase(path)
    migrateDatabase(db.$client)
    db.$client.close()
    const run = runCli(['backup', '--db', path, '--out', join(dir, 'no-such-dir', 'copy.db')])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`the output directory ${join(dir, 'no-such-dir')} does not exist`)
    expect(run.stderr).not.toContain('unable to open database')
  })

  test('an existing file is never overwritten', () => {
    const dir = tempDir()
    const path = join(dir, 'lobby.db')
    const db = openDatabase(path)
    migrateDatabase(db.$client)
    db.$client.close()
    const out = join(dir, 'taken.db')
    writeFileSync(out, 'mine')
    const run = runCli(['backup', '--db', path, '--out', out])
    // The copy goes beside it under a time-suffixed name (docs/operations.md); the file stays as it was.
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout).out).toMatch(/\/taken\.\d{8}T\d{6}Z\.db$/)
    expect(Bun.file(out).size).toBe(4)
  })
})

describe('lobby provision (issue 16)', () => {
  test('a failed run leaves no new database file behind', () => {
    const dir = tempDir()
    const file = join(dir, 'bad.json')
    // Valid JSON, invalid provisioning: refused inside the transaction, after the database was opened.
    writeFileSync(file, JSON.stringify({ workspaces: [{ id: 'ws_x' }], nonsense: true }))
    const db = join(dir, 'new.db')
    const run = runCli(['provision', '--db', db, '--file', file])
    expect(run.code).toBe(2)
    expect(readdirSync(dir).sort()).toEqual(['bad.json'])
    expect(existsSync(db)).toBe(false)
  })
})
