import { afterEach, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, type Db } from '../../src/db/open'
import { WriteBatcher } from '../../src/platform/write-batch'
import { inReadTransaction, inWriteTransaction } from '../../src/platform/transactions'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A WAL database file with one table, and a second connection to watch what is committed. */
function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'lobby-batch-'))
  dirs.push(dir)
  const path = join(dir, 'x.db')
  const db = openDatabase(path)
  db.$client.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)')
  const other = new Database(path, { readonly: true })
  const committed = () => other.query<{ text: string }, []>('SELECT text FROM notes ORDER BY id').all().map((r) => r.text)
  const insert = (text: string) => () => {
    db.$client.query('INSERT INTO notes (text) VALUES (?)').run(text)
    return text
  }
  return { db, other, committed, insert }
}

describe('WriteBatcher: group commit', () => {
  test('writes submitted together run in order in one transaction and are committed before any resolves', async () => {
    const { db, committed, insert } = setup()
    const batcher = new WriteBatcher(db)
    const seen: string[][] = []
    const jobs = ['a', 'b', 'c'].map((text) =>
      batcher.run(() => {
        expect(db.$client.inTransaction).toBe(true)
        seen.push(committed())
        return insert(text)()
      }),
    )
    expect(committed()).toEqual([])
    expect(await Promise.all(jobs)).toEqual(['a', 'b', 'c'])
    // Inside the batch another connection saw nothing yet: one transaction for all three.
    expect(seen).toEqual([[], [], []])
    expect(committed()).toEqual(['a', 'b', 'c'])
    expect(db.$client.inTransaction).toBe(false)
  })

  test('a write that throws is undone alone and rejects with its own error; the others are kept', async () => {
    const { db, committed, insert } = setup()
    const batcher = new WriteBatcher(db)
    const boom = new Error('refused')
    const results = await Promise.allSettled([
      batcher.run(insert('a')),
      batcher.run(() => {
        insert('half')()
        throw boom
      }),
      batcher.run(insert('a')), // UNIQUE violation: undone alone
      batcher.run(insert('c')),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled'])
    expect((results[1] as PromiseRejectedResult).reason).toBe(boom)
    expect(String((results[2] as PromiseRejectedResult).reason)).toContain('UNIQUE')
    expect(committed()).toEqual(['a', 'c'])
  })

  test('afterCommit runs after the commit, in order, and is dropped with an undone write; outside a batch at once', async () => {
    const { db, committed, insert } = setup()
    const batcher = new WriteBatcher(db)
    const heard: string[] = []
    await Promise.allSettled([
      batcher.run(() => {
        insert('a')()
        batcher.afterCommit(() => heard.push(`a sees ${committed().join(',')}`))
      }),
      batcher.run(() => {
        batcher.afterCommit(() => heard.push('undone'))
        throw new Error('refused')
      }),
      batcher.run(() => {
        insert('b')()
        batcher.afterCommit(() => heard.push(`b sees ${committed().join(',')}`))
      }),
    ])
    expect(heard).toEqual(['a sees a,b', 'b sees a,b'])
    expect(batcher.inBatch).toBe(false)
    batcher.afterCommit(() => heard.push('now'))
    expect(heard.at(-1)).toBe('now')
  })

  test('a throwing afterCommit callback is reported and harms neither the write nor the others', async () => {
    const { db, committed, insert } = setup()
    const errors: unknown[] = []
    const batcher = new WriteBatcher(db, (error) => errors.push(error))
    const heard: string[] = []
    const results = await Promise.all([
      batcher.run(() => {
        insert('a')()
        batcher.afterCommit(() => {
          throw new Error('listener failed')
        })
        return 'a'
      }),
      batcher.run(() => {
        batcher.afterCommit(() => heard.push('b'))
        return insert('b')()
      }),
    ])
    expect(results).toEqual(['a', 'b'])
    expect(heard).toEqual(['b'])
    expect(errors.map(String)).toEqual(['Error: listener failed'])
    expect(committed()).toEqual(['a', 'b'])
  })

  test('when the transaction cannot begin, every write of the batch gets the error and nothing is written', async () => {
    const { db, committed, insert } = setup()
    db.$client.exec('PRAGMA busy_timeout = 0')
    const path = db.$client.filename
    const holder = new Database(path)
    holder.exec('BEGIN IMMEDIATE')
    const batcher = new WriteBatcher(db)
    const results = await Promise.allSettled([batcher.run(insert('a')), batcher.run(insert('b'))])
    holder.exec('ROLLBACK')
    holder.close()
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(committed()).toEqual([])
    // The next batch works again.
    expect(await batcher.run(insert('c'))).toBe('c')
    expect(committed()).toEqual(['c'])
  })

  test('more writes than one batch holds go in the following turns, still in order', async () => {
    const { db, committed, insert } = setup()
    const batcher = new WriteBatcher(db, () => {}, 2)
    const texts = ['a', 'b', 'c', 'd', 'e']
    expect(await Promise.all(texts.map((t) => batcher.run(insert(t))))).toEqual(texts)
    expect(committed()).toEqual(texts)
  })
})

describe('transaction helpers', () => {
  test('inWriteTransaction commits, or undoes everything on a throw; nested it is a savepoint', () => {
    const { db, committed, insert } = setup()
    inWriteTransaction(db, insert('a'))
    expect(() =>
      inWriteTransaction(db, () => {
        insert('b')()
        throw new Error('refused')
      }),
    ).toThrow('refused')
    inWriteTransaction(db, () => {
      insert('c')()
      expect(() =>
        inWriteTransaction(db, () => {
          insert('inner')()
          throw new Error('inner refused')
        }),
      ).toThrow('inner refused')
      insert('d')()
    })
    expect(committed()).toEqual(['a', 'c', 'd'])
  })

  test('inReadTransaction gives one snapshot and ends its transaction, also on a throw', () => {
    const { db, insert } = setup()
    const db2: Db = openDatabase(db.$client.filename)
    const count = () => db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM notes').get()!.n
    const seen = inReadTransaction(db, () => {
      const before = count()
      inWriteTransaction(db2, () => db2.$client.query("INSERT INTO notes (text) VALUES ('x')").run())
      return [before, count()]
    })
    expect(seen).toEqual([0, 0])
    expect(count()).toBe(1)
    expect(() => inReadTransaction(db, () => {
      throw new Error('read failed')
    })).toThrow('read failed')
    expect(db.$client.inTransaction).toBe(false)
    inWriteTransaction(db, insert('y'))
    expect(count()).toBe(2)
    db2.$client.close()
  })
})

describe('WriteBatcher: one way to tell listeners, never before COMMIT', () => {
  test('a work that registers a callback and then throws is undone, and the callback never runs (run and now)', async () => {
    const { db, committed, insert } = setup()
    const batcher = new WriteBatcher(db)
    const heard: string[] = []
    const refused = batcher.run(() => {
      insert('a')()
      batcher.afterCommit(() => heard.push('run'))
      throw new Error('refused after notifying')
    })
    await expect(refused).rejects.toThrow('refused after notifying')
    expect(() => batcher.now(() => {
      insert('b')()
      batcher.afterCommit(() => heard.push('now'))
      throw new Error('refused after notifying')
    })).toThrow('refused after notifying')
    expect(heard).toEqual([])
    expect(committed()).toEqual([])
  })

  test('now: callbacks run after its own COMMIT; nested in a batch work, after the batch COMMIT', async () => {
    const { db, committed, insert } = setup()
    const batcher = new WriteBatcher(db)
    const heard: string[] = []
    batcher.now(() => {
      insert('a')()
      batcher.afterCommit(() => heard.push(`now sees ${committed().join(',')}`))
    })
    await batcher.run(() => {
      batcher.now(() => {
        insert('b')()
        batcher.afterCommit(() => heard.push(`nested sees ${committed().join(',')}`))
      })
      insert('c')()
    })
    expect(heard).toEqual(['now sees a', 'nested sees a,b,c'])
  })

  test('afterCommit inside a transaction the batcher does not own refuses, so nothing is told before that COMMIT', () => {
    const { db, insert } = setup()
    const batcher = new WriteBatcher(db)
    const heard: string[] = []
    expect(() => inWriteTransaction(db, () => {
      insert('a')()
      batcher.afterCommit(() => heard.push('too early'))
    })).toThrow('not opened by the WriteBatcher')
    expect(heard).toEqual([])
  })

  test('callbacks with the same key in one work are told once, the last one, in the place of the first', async () => {
    const { db } = setup()
    const batcher = new WriteBatcher(db)
    const heard: string[] = []
    await batcher.run(() => {
      batcher.afterCommit(() => heard.push('unit 1'), 'unit')
      batcher.afterCommit(() => heard.push('other'))
      batcher.afterCommit(() => heard.push('unit 2'), 'unit')
    })
    await batcher.run(() => batcher.afterCommit(() => heard.push('unit 3'), 'unit'))
    expect(heard).toEqual(['unit 2', 'other', 'unit 3'])
  })

  test('keys told once per work, not once per batch: two works of one batch each tell theirs', async () => {
    const { db } = setup()
    const batcher = new WriteBatcher(db)
    const heard: string[] = []
    await Promise.all([
      batcher.run(() => batcher.afterCommit(() => heard.push('first'), 'unit')),
      batcher.run(() => batcher.afterCommit(() => heard.push('second'), 'unit')),
    ])
    expect(heard).toEqual(['first', 'second'])
  })
})

describe('WriteBatcher: gather', () => {
  /** A counter row that `flush` adds the gathered items to, recording each flush's items. */
  function counting(db: Db) {
    db.$client.exec('CREATE TABLE counts (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)')
    db.$client.exec('INSERT INTO counts (id, n) VALUES (1, 0)')
    const flushes: number[][] = []
    const flush = (items: number[]) => {
      flushes.push(items)
      db.$client.query('UPDATE counts SET n = n + ?1 WHERE id = 1').run(items.reduce((a, b) => a + b, 0))
    }
    const count = () => db.$client.query<{ n: number }, []>('SELECT n FROM counts WHERE id = 1').get()!.n
    return { flushes, flush, count }
  }

  test('one flush per key per batch, with the items of every kept work in order, inside the transaction before COMMIT', async () => {
    const { db, other, insert } = setup()
    const { flushes, flush, count } = counting(db)
    const batcher = new WriteBatcher(db)
    const seenByOther: number[] = []
    const results = await Promise.allSettled([
      batcher.run(() => { insert('a')(); batcher.gather('counts', 1, flush) }),
      batcher.run(() => {
        batcher.gather('counts', 100, flush)
        throw new Error('refused')
      }),
      batcher.run(() => { batcher.gather('counts', 2, flush); batcher.gather('counts', 3, flush) }),
      batcher.run(() => seenByOther.push(other.query<{ n: number }, []>('SELECT n FROM counts').get()!.n)),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled'])
    // The undone work took its item with it; the kept ones' items came in order, in one flush.
    expect(flushes).toEqual([[1, 2, 3]])
    expect(count()).toBe(6)
    // Nothing of it was visible before the batch committed.
    expect(seenByOther).toEqual([0])
    expect(other.query<{ n: number }, []>('SELECT n FROM counts').get()!.n).toBe(6)
  })

  test('a flush that throws fails the whole batch: every write undone, every request rejected', async () => {
    const { db, committed, insert } = setup()
    const batcher = new WriteBatcher(db)
    const broken = () => { throw new Error('flush failed') }
    const results = await Promise.allSettled([
      batcher.run(() => { insert('a')(); batcher.gather('broken', 1, broken) }),
      batcher.run(insert('b')),
    ])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(committed()).toEqual([])
  })

  test('in now: flushed before its own COMMIT; nested in a work: gathered with that work', async () => {
    const { db } = setup()
    const { flushes, flush, count } = counting(db)
    const batcher = new WriteBatcher(db)
    batcher.now(() => batcher.gather('counts', 5, flush))
    expect(flushes).toEqual([[5]])
    expect(count()).toBe(5)
    await batcher.run(() => {
      batcher.gather('counts', 1, flush)
      batcher.now(() => batcher.gather('counts', 2, flush))
    })
    expect(flushes).toEqual([[5], [1, 2]])
    expect(count()).toBe(8)
  })

  test('outside a write of the batcher there is no COMMIT to write before: it refuses', () => {
    const { db } = setup()
    const batcher = new WriteBatcher(db)
    expect(() => batcher.gather('counts', 1, () => {})).toThrow('outside a write of the WriteBatcher')
  })
})
