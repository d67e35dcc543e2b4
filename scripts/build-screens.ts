/**
 * Builds the screens' browser bundle: src/screens/client/main.ts (plain TypeScript and DOM)
 * → one minified script, written to src/screens/generated/screens.js. The server imports that
 * file as text, so `bun build --compile` embeds it in dist/lobby. The output is committed, so
 * a fresh clone serves screens with no build step; `bun run build` rebuilds it first, and a
 * test (test/screens/bundle.test.ts) fails when the committed file is older than its sources.
 *
 *   bun scripts/build-screens.ts           write the bundle
 *   bun scripts/build-screens.ts --check   exit 1 when the committed bundle is stale
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { Glob } from 'bun'

export const ROOT = join(import.meta.dir, '..')
export const ENTRY = join(ROOT, 'src/screens/client/main.ts')
export const OUTPUT = join(ROOT, 'src/screens/generated/screens.js')
/** The device pages' bundle (/pair, /desk, /screens): the same toolkit, its own entry. */
export const DEVICES_ENTRY = join(ROOT, 'src/screens/client/devices/main.ts')
export const DEVICES_OUTPUT = join(ROOT, 'src/screens/generated/devices.js')
/** The phone page's bundle (/t/{code}): small on purpose (contract §10: under 60 KB with its styles). */
export const PHONE_ENTRY = join(ROOT, 'src/screens/client/phone/main.ts')
export const PHONE_OUTPUT = join(ROOT, 'src/screens/generated/phone.js')
/** The phone page's service worker (`/t/sw.js`; contract §25 web push): shows a push's message. */
export const PHONE_SW_ENTRY = join(ROOT, 'src/screens/client/phone/sw.ts')
export const PHONE_SW_OUTPUT = join(ROOT, 'src/screens/generated/phone-sw.js')
/** The /reports page's bundle: the same toolkit, with uPlot (npm `uplot`) bundled in. */
export const REPORTS_ENTRY = join(ROOT, 'src/screens/client/reports/main.ts')
export const REPORTS_OUTPUT = join(ROOT, 'src/screens/generated/reports.js')
/** The sign-in and setup pages' bundle (/login, /login/setup): a form posted with `fetch`. */
export const LOGIN_ENTRY = join(ROOT, 'src/screens/client/login/main.ts')
export const LOGIN_OUTPUT = join(ROOT, 'src/screens/generated/login.js')
/** The live floor's bundle (/manage; contract §22). */
export const MANAGE_ENTRY = join(ROOT, 'src/screens/client/manage/main.ts')
export const MANAGE_OUTPUT = join(ROOT, 'src/screens/generated/manage.js')
/** The administration console's bundle (/admin; contract §17): a list of sections, each a module. */
export const ADMIN_ENTRY = join(ROOT, 'src/screens/client/admin/main.ts')
export const ADMIN_OUTPUT = join(ROOT, 'src/screens/generated/admin.js')
/** The head-office console's bundle (`lobby hq serve`: /hq, /hq/live, /hq/reports; contract §26). */
export const HQ_ENTRY = join(ROOT, 'src/screens/client/hq/main.ts')
export const HQ_OUTPUT = join(ROOT, 'src/screens/generated/hq.js')
/** Every bundle: entry → output. */
export const BUNDLES: { entry: string; output: string }[] = [
  { entry: ENTRY, output: OUTPUT },
  { entry: DEVICES_ENTRY, output: DEVICES_OUTPUT },
  { entry: PHONE_ENTRY, output: PHONE_OUTPUT },
  { entry: PHONE_SW_ENTRY, output: PHONE_SW_OUTPUT },
  { entry: REPORTS_ENTRY, output: REPORTS_OUTPUT },
  { entry: LOGIN_ENTRY, output: LOGIN_OUTPUT },
  { entry: MANAGE_ENTRY, output: MANAGE_OUTPUT },
  { entry: ADMIN_ENTRY, output: ADMIN_OUTPUT },
  { entry: HQ_ENTRY, output: HQ_OUTPUT },
]
/** Every file the bundle is built from. */
const SOURCE_GLOBS = ['src/screens/client/**/*.ts', 'src/screens/shared/**/*.ts', 'src/reports/csv.ts', 'src/contract/**/*.ts']

/** SHA-256 over the bundle's sources (paths and contents, in path order): what the bundle was built from. */
export function sourceHash(): string {
  const files = SOURCE_GLOBS.flatMap((pattern) => [...new Glob(pattern).scanSync({ cwd: ROOT, absolute: true })]).sort()
  const hash = createHash('sha256')
  for (const file of files) {
    hash.update(relative(ROOT, file).replaceAll('\\', '/'))
    hash.update('\0')
    // Line endings do not change the bundle; a checkout with CRLF must not look stale.
    hash.update(readFileSync(file, 'utf8').replaceAll('\r\n', '\n'))
    hash.update('\0')
  }
  return hash.digest('hex')
}

/** The hash recorded in a bundle's first line, or null. */
export function recordedHash(bundle: string): string | null {
  return /sources sha256:([0-9a-f]{64})/.exec(bundle.slice(0, 400))?.[1] ?? null
}

export async function buildBundle(entry: string = ENTRY): Promise<string> {
  const result = await Bun.build({
    entrypoints: [entry],
    target: 'browser',
    format: 'iife',
    minify: true,
    sourcemap: 'none',
  })
  if (!result.success) {
    throw new Error(`screens bundle failed:\n${result.logs.map((log) => String(log)).join('\n')}`)
  }
  const output = result.outputs.find((o) => o.kind === 'entry-point')
  if (output === undefined) throw new Error('screens bundle produced no entry point')
  const code = await output.text()
  const header = `/*! Lobby screens: generated by scripts/build-screens.ts from src/screens/client; do not edit. sources sha256:${sourceHash()} */\n`
  return header + code
}

if (import.meta.main) {
  if (process.argv.includes('--check')) {
    for (const { output } of BUNDLES) {
      let committed = ''
      try {
        committed = readFileSync(output, 'utf8')
      } catch {}
      if (recordedHash(committed) !== sourceHash()) {
        console.error(`${relative(ROOT, output)} is stale: run \`bun run build:screens\``)
        process.exit(1)
      }
    }
  } else {
    for (const { entry, output } of BUNDLES) {
      const bundle = await buildBundle(entry)
      writeFileSync(output, bundle)
      console.log(`${relative(ROOT, output)}: ${(bundle.length / 1024).toFixed(1)} KiB`)
    }
  }
}
