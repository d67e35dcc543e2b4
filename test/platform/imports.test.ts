import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/**
 * The direction of imports (docs/architecture.md): `src/platform/` imports no feature (nor the
 * composition root, nor `src/db/` beyond the connection, `db/open.ts`); no feature imports `src/cli/` or another feature's `routes.ts`; no
 * feature imports the composition root (`src/root/`), not even for a type: each declares the
 * dependencies it is handed as its own type (`src/<feature>/deps.ts`), and none imports the app or
 * the server (`src/app.ts`, `src/server.ts`, `src/main.ts`).
 * A feature is any folder of `src/` other than platform, cli, db, root and contract.
 *
 * Doors: a module of a feature is imported from outside that feature only through its door,
 * `src/<feature>/index.ts`, types included, or, for a page, through its page door (`page.ts`,
 * `pages.ts`: the page frame and the device page, which load the embedded assets, so no
 * index.ts exports them); the composition root (`src/root/`, `src/app.ts`) mounts each
 * feature's plugin from its `routes.ts`, which no door exports either. Three readers are exempt, each for its own reason:
 * `src/schema.ts` (the drizzle-kit barrel gathers every `tables.ts`); the browser program
 * `src/client/` (a door brings server code into a bundle; test/screens/contract.test.ts
 * keeps it to the contract, `screens/shared/` and `reports/csv.ts`); and the wire,
 * `src/contract/`, which reads the features' schema modules with `import type` only (this test
 * fails on a value import there). A data file (`.yaml`, `.css`, a bundle) is not a module.
 *
 * Circles: drawn from every import (types included) between feature folders, the contract and
 * the browser program (`client`, its own node: it is built and type-checked apart),
 * the house has no circle.
 */
const SRC = resolve(import.meta.dir, '../../src')
const NOT_FEATURES = new Set(['platform', 'cli', 'db', 'root', 'contract'])
const BROWSER = 'client'

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

interface Import {
  specifier: string
  typeOnly: boolean
}

/** Static imports and re-exports (`import … from`, `export … from`, `import '…'`) and dynamic `import('…')`. */
function importsOf(text: string): Import[] {
  const found: Import[] = []
  const statement = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/g
  for (const m of text.matchAll(statement)) found.push({ specifier: m[3]!, typeOnly: m[2] !== undefined })
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ specifier: m[1]!, typeOnly: false })
  return found
}

/** `src/`-relative path segments of what `specifier` names from `file` (null: a package). */
function target(file: string, specifier: string): string[] | null {
  if (!specifier.startsWith('.')) return null
  return relative(SRC, resolve(dirname(file), specifier)).split('/')
}

/** Every broken rule in `files` (path under src → text), one line each. */
export function importViolations(files: Map<string, string>): string[] {
  const problems: string[] = []
  for (const [path, text] of files) {
    const from = path.split('/')
    const folder = from.length > 1 ? from[0]! : null
    const fromFeature = folder !== null && !NOT_FEATURES.has(folder)
    for (const { specifier } of importsOf(text)) {
      const to = target(join(SRC, path), specifier)
      if (to === null || to[0] === '..') continue
      const toFolder = to.length > 1 ? to[0]! : null
      const toFeature = toFolder !== null && !NOT_FEATURES.has(toFolder)
      // db/open.ts is the connection; the database layer imports no feature (src/root/migrate.ts hands it the data steps).
      const dbOpen = toFolder === 'db' && /^open(\.ts)?$/.test(to[1] ?? '')
      if (folder === 'platform' && toFolder !== 'platform' && !dbOpen) {
        problems.push(`${path}: platform imports ${specifier} (platform may import only platform and db/open)`)
      }
      if (folder === 'db' && unitOf(to) !== null) problems.push(`${path}: the database layer imports a feature (${specifier}); the caller hands it what it needs (src/root/migrate.ts)`)
      if (fromFeature && toFolder === 'cli') problems.push(`${path}: a feature imports the CLI (${specifier})`)
      if (fromFeature && toFeature && toFolder !== folder && /^routes(\.ts)?$/.test(to[to.length - 1]!)) {
        problems.push(`${path}: imports another feature's routes (${specifier}); move what it needs to that feature's service or model`)
      }
      if (fromFeature && toFolder === 'root') problems.push(`${path}: a feature imports the composition root (${specifier}); declare what it is handed as its own type (deps.ts)`)
      if (fromFeature && toFolder === null && /^(app|server|main)(\.ts)?$/.test(to[0]!)) problems.push(`${path}: a feature imports the app or the server (${specifier})`)
    }
  }
  return problems
}

/** The node of the house a `src/`-relative path belongs to: a feature folder, the contract, the browser program, or null (platform, db, root, cli, the app's top files). */
function unitOf(path: string[]): string | null {
  // A one-segment path is a top file (app.ts, server.ts, …) or a folder: a feature's door.
  if (path.length < 2 && (path[0]!.includes('.') || /^(app|server|main|version)$/.test(path[0]!))) return null
  if (path[0] === 'client') return BROWSER
  if (path[0] === 'contract') return 'contract'
  return NOT_FEATURES.has(path[0]!) ? null : path[0]!
}

/** A module (not a data file: `.yaml`, `.css`, `.txt`, a generated bundle). */
const isModule = (path: string[]) => !/\.(ya?ml|css|txt|js|json)$/.test(path[path.length - 1]!)

/** Every import of a feature's module other than its door from outside the feature, one line each. */
export function deepImports(files: Map<string, string>): string[] {
  const problems: string[] = []
  for (const [path, text] of files) {
    const from = path.split('/')
    const fromUnit = unitOf(from)
    if (path === 'schema.ts' || fromUnit === BROWSER) continue
    for (const { specifier, typeOnly } of importsOf(text)) {
      const to = target(join(SRC, path), specifier)
      if (to === null || to[0] === '..' || to.length < 2 || !isModule(to)) continue
      const feature = NOT_FEATURES.has(to[0]!) ? null : to[0]!
      if (feature === null || feature === from[0]) continue
      if (fromUnit === 'contract') {
        if (!typeOnly) problems.push(`${path}: the contract imports ${specifier} by value (the wire reads schemas with import type only)`)
        continue
      }
      const door = to.length === 2 && /^index(\.ts)?$/.test(to[1]!)
      // The page door: a feature's pages (`page.ts`, `pages.ts`) load the embedded assets, so
      // another feature's pages reach them there, never through index.ts; the root mounts routes.
      const pageDoor = to.length === 2 && /^pages?(\.ts)?$/.test(to[1]!)
      const mounted = (from[0] === 'root' || path === 'app.ts') && to.length === 2 && /^routes(\.ts)?$/.test(to[1]!)
      // The program door: what only a command loads on demand (`lobby hq serve`, a branch's link
      // to head office), apart from index.ts so a feature's door stays light; the CLI and the root only.
      const programDoor = (from[0] === 'root' || from[0] === 'cli') && to.length === 2 && /^program(\.ts)?$/.test(to[1]!)
      if (!door && !pageDoor && !mounted && !programDoor) problems.push(`${path}: imports ${specifier}, inside ${feature}/; import it from its door, ${feature}/index.ts`)
    }
  }
  return problems
}

/** The circles between feature folders, the contract and the browser program (types included), each as its sorted nodes with the imports that close it. */
export function circles(files: Map<string, string>): string[] {
  const edges = new Map<string, Map<string, string>>()
  for (const [path, text] of files) {
    const a = unitOf(path.split('/'))
    if (a === null) continue
    for (const { specifier } of importsOf(text)) {
      const to = target(join(SRC, path), specifier)
      if (to === null || to[0] === '..' || !isModule(to)) continue
      const b = unitOf(to)
      if (b === null || b === a) continue
      if (!edges.has(a)) edges.set(a, new Map())
      if (!edges.get(a)!.has(b)) edges.get(a)!.set(b, `${path} → ${specifier}`)
    }
  }
  // Tarjan's strongly connected components: a component of more than one node is a circle.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[] = []
  const visit = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    let w: string
    do {
      w = stack.pop()!
      onStack.delete(w)
      component.push(w)
    } while (w !== v)
    if (component.length < 2) return
    component.sort()
    const closing = component.flatMap((x) => component.flatMap((y) => edges.get(x)?.get(y) ?? []))
    found.push(`a circle between ${component.join(', ')}: ${closing.join('; ')}`)
  }
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v)
  return found
}

function readSrc(): Map<string, string> {
  return new Map(sourceFiles(SRC).map((file) => [relative(SRC, file), readFileSync(file, 'utf8')]))
}

describe('the direction of imports', () => {
  test('src/ breaks none of the rules', () => {
    const files = readSrc()
    expect(files.size).toBeGreaterThan(100)
    expect(importViolations(files)).toEqual([])
  })

  test("no feature imports another feature's module other than its door (types included)", () => {
    expect(deepImports(readSrc())).toEqual([])
  })

  test('there is no circle between feature folders, the contract and the browser program', () => {
    expect(circles(readSrc())).toEqual([])
  })

  test('the door check sees a deep import (it can fail)', () => {
    const files = new Map([
      ['queue/service.ts', "import { DeviceService } from '../devices/service'\nimport type { Scope } from '../devices/model.ts'\nimport { x } from './model'\nimport { QueueReadModel } from '../queue/read-model'"],
      ['kiosk/routes.ts', "import { DeviceService, type Device } from '../devices'\nimport { y } from '../devices/index'\nimport words from '../provisioning/demo.yaml'"],
      ['root/services.ts', "import { KioskService } from '../kiosk/service'\nimport { z } from '../platform/clock'\nimport { kioskRoutes } from '../kiosk/routes'"],
      ['app.ts', "import { deskRoutes } from './desk/routes'\nimport { DeskService } from './desk/service'"],
      ['reports/page.ts', "import { pageShell } from '../screens/page'\nimport { reportRoutes } from './routes'\nimport { kioskRoutes } from '../kiosk/routes'"],
      ['cli/demo.ts', "const m = await import('../replication/replicator')"],
      ['schema.ts', "export * from './queue/tables'"],
      ['db/migrate.ts', "export * from '../queue/tables'"],
      ['client/reports/main.ts', "import { toCsv } from '../../reports/csv'\nimport { formatNumber } from '../../screens/shared/format'"],
      ['screens/page.ts', "import { formatNumber } from './shared/format'"],
      ['desk/page.ts', "import { formatNumber } from '../screens/shared/format'"],
      ['contract/wire.ts', "import type { DeskView } from '../desk/model'\nimport { DeskCodes } from '../desk/errors'"],
    ])
    expect(deepImports(files)).toEqual([
      'queue/service.ts: imports ../devices/service, inside devices/; import it from its door, devices/index.ts',
      'queue/service.ts: imports ../devices/model.ts, inside devices/; import it from its door, devices/index.ts',
      'root/services.ts: imports ../kiosk/service, inside kiosk/; import it from its door, kiosk/index.ts',
      'app.ts: imports ./desk/service, inside desk/; import it from its door, desk/index.ts',
      'reports/page.ts: imports ../kiosk/routes, inside kiosk/; import it from its door, kiosk/index.ts',
      'cli/demo.ts: imports ../replication/replicator, inside replication/; import it from its door, replication/index.ts',
      'db/migrate.ts: imports ../queue/tables, inside queue/; import it from its door, queue/index.ts',
      'desk/page.ts: imports ../screens/shared/format, inside screens/; import it from its door, screens/index.ts',
      'contract/wire.ts: the contract imports ../desk/errors by value (the wire reads schemas with import type only)',
    ])
  })

  test('the circle check sees a circle, through doors, types or the contract (it can fail)', () => {
    const files = new Map([
      ['queue/service.ts', "import { Tickets } from '../tickets'"],
      ['tickets/wait.ts', "import type { QueueService } from '../queue'"],
      ['devices/access.ts', "import { admitQueueCaller } from '../queue'\nimport { x } from '../platform/http'"],
      ['desk/errors.ts', "import { DeviceCodes } from '../devices'"],
      ['screens/page.ts', "import { x } from './shared/options'"],
      ['client/desk.ts', "import type { DeskView } from '../contract/wire'\nimport { y } from '../screens/shared/options'"],
      ['contract/wire.ts', "import type { DeskView } from '../desk/model'"],
      ['widgets/store.ts', "import { z } from '../root/deps'\nimport css from '../screens/styles/screens.css'"],
    ])
    expect(circles(files)).toEqual([
      'a circle between queue, tickets: queue/service.ts → ../tickets; tickets/wait.ts → ../queue',
    ])
    files.set('desk/page.ts', "import { x } from '../client/format'")
    expect(circles(files)).toEqual([
      'a circle between queue, tickets: queue/service.ts → ../tickets; tickets/wait.ts → ../queue',
      'a circle between client, contract, desk: client/desk.ts → ../contract/wire; contract/wire.ts → ../desk/model; desk/page.ts → ../client/format',
    ])
  })

  test('the check sees each kind of violation', () => {
    const files = new Map([
      ['platform/a.ts', "import { Tickets } from '../tickets/service'\nimport type { X } from '../widgets/store'\nimport { y } from './b'\nimport type { Db } from '../db/open'"],
      ['platform/b.ts', "import type { AppDeps } from '../root/deps'\nimport * as schema from '../db/schema'"],
      ['db/migrate.ts', "import { rebuildReportRollups } from '../tickets'\nimport { embeddedMigrations } from './migrations.generated'"],
      ['ops/config.ts', "import { UsageError } from '../cli/args'"],
      ['kiosk/routes.ts', "import {\n  DEVICES_API,\n} from '../devices/routes'\nimport { x } from './service'"],
      ['queue/routes.ts', "import { a } from './routes'\nexport { b } from '../screens/routes.ts'"],
      ['voice/service.ts', "const m = await import('../display/routes')"],
      ['desk/service.ts', "import { createDeps } from '../root/deps'\nimport type { AppDeps } from '../root/deps'\nimport { createApp } from '../app'\nimport { VERSION } from '../version'"],
    ])
    expect(importViolations(files)).toEqual([
      'platform/a.ts: platform imports ../tickets/service (platform may import only platform and db/open)',
      'platform/a.ts: platform imports ../widgets/store (platform may import only platform and db/open)',
      'platform/b.ts: platform imports ../root/deps (platform may import only platform and db/open)',
      'platform/b.ts: platform imports ../db/schema (platform may import only platform and db/open)',
      'db/migrate.ts: the database layer imports a feature (../tickets); the caller hands it what it needs (src/root/migrate.ts)',
      'ops/config.ts: a feature imports the CLI (../cli/args)',
      "kiosk/routes.ts: imports another feature's routes (../devices/routes); move what it needs to that feature's service or model",
      "queue/routes.ts: imports another feature's routes (../screens/routes.ts); move what it needs to that feature's service or model",
      "voice/service.ts: imports another feature's routes (../display/routes); move what it needs to that feature's service or model",
      'desk/service.ts: a feature imports the composition root (../root/deps); declare what it is handed as its own type (deps.ts)',
      'desk/service.ts: a feature imports the composition root (../root/deps); declare what it is handed as its own type (deps.ts)',
      'desk/service.ts: a feature imports the app or the server (../app)',
    ])
  })
})
