import { Database } from 'bun:sqlite'
import { openDatabase, withLobbyPragmas, type Db } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { createApp } from '../../src/app'
import { createDeps, type AppDeps, type DepsInput } from '../../src/root/deps'
import { ManualClock } from '../../src/platform/clock'
import { SequentialIds } from '../../src/platform/ids'
import type { Logger } from '../../src/platform/log'

export interface TestContext {
  app: ReturnType<typeof createApp>
  deps: AppDeps
  db: Db
  clock: ManualClock
  logs: Record<string, unknown>[]
}

/** The migrated, empty database of this test process, as bytes: made once, copied for each test. */
let migratedImage: Uint8Array | undefined

/**
 * A fresh in-memory database, migrated. It is a copy of one migrated database (`serialize`,
 * then `deserialize`): running every migration took about half of a test context's 40 ms, the
 * copy with its pragmas about 1.5 ms. test/db/ runs the migrations themselves on new databases.
 */
export function testDb(): Db {
  migratedImage ??= (() => {
    const db = openDatabase(':memory:')
    migrateDatabase(db.$client)
    const image = db.$client.serialize()
    db.$client.close()
    return image
  })()
  return withLobbyPragmas(Database.deserialize(migratedImage, { strict: true }))
}

export function testContext(overrides: Partial<AppDeps> & Pick<DepsInput, 'changePollMs' | 'changePollClock'> = {}): TestContext {
  const db = overrides.db ?? testDb()
  const clock = new ManualClock()
  const logs: Record<string, unknown>[] = []
  const log: Logger = (entry) => logs.push(entry)
  // Tests change the database on the app's own connection where an operator would run the CLI
  // in another process: the app looks for such changes on every read here (the server: at most
  // every 5 ms). test/queue/read-model.test.ts runs with the server's bound and a long one.
  const deps = createDeps({ db, clock, ids: new SequentialIds(), log, changePollMs: 0, ...overrides })
  return { app: createApp(deps), deps, db, clock: (deps.clock as ManualClock) ?? clock, logs }
}

export interface RequestOptions {
  headers?: Record<string, string>
  body?: unknown
  /** Sent as is, not JSON-encoded. */
  raw?: RequestInit['body']
}

/** One request through the app, the way a client would send it. */
export function request(app: { handle(r: Request): Promise<Response> }, method: string, path: string, options: RequestOptions = {}) {
  const headers: Record<string, string> = { ...options.headers }
  let body: RequestInit['body'] | undefined = options.raw
  if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    headers['content-type'] ??= 'application/json'
  }
  return app.handle(new Request(`http://localhost${path}`, { method, headers, body }))
}

export async function jsonOf(response: Response): Promise<any> {
  return JSON.parse(await response.text())
}
