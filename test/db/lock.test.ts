import { describe, expect, test } from 'bun:test'
import { existsSync, linkSync, mkdirSync, statSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../support/cli'
import { DatabaseInUseError, lockDatabase } from '../../src/platform/db-lock'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'

describe('the database lock (contract §13, §23)', () => {
  test('is on the file: the same path spelt otherwise, a symlink, a hard link and a symlinked directory all meet it', () => {
    const dir = tempDir()
    const db = join(dir, 'lobby.db')
    const lock = lockDatabase(db)
    expect(lock.created).toBe(true)
    expect(statSync(db).mode & 0o777).toBe(0o600)
    symlinkSync(db, join(dir, 'symlink.db'))
    linkSync(db, join(dir, 'hardlink.db'))
    const elsewhere = join(tempDir(), 'via')
    symlinkSync(dir, elsewhere)
    for (const other of [db, `${dir}/../${dir.split('/').at(-1)}/lobby.db`, join(dir, 'symlink.db'), join(dir, 'hardlink.db'), join(elsewhere, 'lobby.db')]) {
      let error: unknown
      try {
        lockDatabase(other).release()
      } catch (e) {
        error = e
      }
      expect({ other, refused: error instanceof DatabaseInUseError }).toEqual({ other, refused: true })
      expect((error as Error).message).toBe(`database ${other} is already served by another lobby process (PID ${existsSync('/proc/locks') ? process.pid : 'unknown'}); stop it first`)
    }
    lock.release()
    // Released: any path takes it again; an existing file is not "created".
    const again = lockDatabase(join(dir, 'hardlink.db'))
    expect(again.created).toBe(false)
    again.release()
  })

  test('SQLite reads and writes beside the lock, from this process and the lock holder\'s', () => {
    const dir = tempDir()
    mkdirSync(join(dir, 'sub'))
    const path = join(dir, 'sub', 'lobby.db')
    const lock = lockDatabase(path)
    const db = openDatabase(path)
    migrateDatabase(db.$client)
    db.$client.exec("INSERT INTO workspaces VALUES ('ws_a', 'A', 1, 1)")
    const other = openDatabase(path)
    expect(other.$client.query('SELECT id FROM workspaces').all()).toEqual([{ id: 'ws_a' }])
    other.$client.close()
    db.$client.close()
    lock.release()
  })
})
