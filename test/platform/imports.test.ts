import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/**
 * The direction of imports (docs/architecture.md): `src/platform/` imports no feature (nor the
 * composition root, nor `src/db/` beyond the connection, `db/open.ts`); no feature imports `src/cli/` or another feature's `routes.ts`; a
 * feature reaches the composition root (`src/root/`) for types only (`AppDeps`), and never
 * imports the app or the server (`src/app.ts`, `src/server.ts`, `src/main.ts`).
 * A feature is any folder of `src/` other than platform, cli, db and root.
 */
const SRC = resolve(import.meta.dir, '../../src')
const NOT_FEATURES = new Set(['platform', 'cli', 'db', 'root'])

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
    for (const { specifier, typeOnly } of importsOf(text)) {
      const to = target(join(SRC, path), specifier)
      if (to === null || to[0] === '..') continue
      const toFolder = to.length > 1 ? to[0]! : null
      const toFeature = toFolder !== null && !NOT_FEATURES.has(toFolder)
      // db/open.ts is the connection; db/schema.ts and db/migrate.ts gather every feature's tables.
      const dbOpen = toFolder === 'db' && /^open(\.ts)?$/.test(to[1] ?? '')
      if (folder === 'platform' && toFolder !== 'platform' && !dbOpen) {
        problems.push(`${path}: platform imports ${specifier} (platform may import only platform and db/open)`)
      }
      if (fromFeature && toFolder === 'cli') problems.push(`${path}: a feature imports the CLI (${specifier})`)
      if (fromFeature && toFeature && toFolder !== folder && /^routes(\.ts)?$/.test(to[to.length - 1]!)) {
        problems.push(`${path}: imports another feature's routes (${specifier}); move what it needs to that feature's service or model`)
      }
      if (fromFeature && toFolder === 'root' && !typeOnly) problems.push(`${path}: a feature imports the composition root for more than types (${specifier})`)
      if (fromFeature && toFolder === null && /^(app|server|main)(\.ts)?$/.test(to[0]!)) problems.push(`${path}: a feature imports the app or the server (${specifier})`)
    }
  }
  return problems
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

  test('the check sees each kind of violation', () => {
    const files = new Map([
      ['platform/a.ts', "import { Tickets } from '../tickets/service'\nimport type { X } from '../widgets/store'\nimport { y } from './b'\nimport type { Db } from '../db/open'"],
      ['platform/b.ts', "import type { AppDeps } from '../root/deps'\nimport * as schema from '../db/schema'"],
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
      'ops/config.ts: a feature imports the CLI (../cli/args)',
      "kiosk/routes.ts: imports another feature's routes (../devices/routes); move what it needs to that feature's service or model",
      "queue/routes.ts: imports another feature's routes (../screens/routes.ts); move what it needs to that feature's service or model",
      "voice/service.ts: imports another feature's routes (../display/routes); move what it needs to that feature's service or model",
      'desk/service.ts: a feature imports the composition root for more than types (../root/deps)',
      'desk/service.ts: a feature imports the app or the server (../app)',
    ])
  })
})
