/**
 * Lobby with less of itself, for the start's floors (issue 50): what a start would cost if
 * features were loaded on first use, measured rather than guessed. Each variant is this
 * checkout's src/main.ts compiled as Lobby is (minified, bytecode) with src/app.ts rewritten as
 * it is read (a build plugin; the work tree is not touched):
 *
 * - `no-feature-routes`: the app without any feature's route plugin (the platform, CORS, the
 *   OpenAPI plugin, `/health` and the favicon stay), every service still built. The bundler then
 *   leaves out the route modules nothing else imports: their docs, schemas and pages.
 * - `no-features`: that, and no service either (`composeServices` not called): what a start
 *   would be if every feature were loaded on its first request. The database, its migrations
 *   check, the dependencies (`createDeps`), the server's tasks and the CLI stay, as they must.
 *   No `people` service also means no first-administrator setup link at start (one write
 *   transaction on a database without an administrator): this floor is, if anything, low.
 *
 * Neither variant serves Lobby's API: they exist to be started and stopped by bench/start.ts
 * (`START_FLOORS=1`).
 */
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..')

export type FloorVariant = 'no-feature-routes' | 'no-features'

/** Route plugins that are the platform's, not a feature's: kept in every variant. */
const PLATFORM_USES = ['httpPlatform(', 'corsPlugin(', 'openapiPlugin(', 'faviconRoute(']

/**
 * src/app.ts's source as `variant` has it. Throws when the source no longer has the shape this
 * expects (a composition root that calls `composeServices` and mounts route plugins with
 * `.use(…)` lines), so a changed app.ts fails the floor loudly instead of measuring the wrong thing.
 */
export function appWithout(source: string, variant: FloorVariant): string {
  const lines = source.split('\n')
  const isFeatureUse = (line: string) => line.trim().startsWith('.use(') && !PLATFORM_USES.some((kept) => line.includes(kept))
  const dropped = lines.filter(isFeatureUse)
  if (dropped.length < 10) throw new Error(`src/app.ts mounts ${dropped.length} feature route plugins with .use(…) lines; expected the composition root's list`)
  let rewritten = lines.filter((line) => !isFeatureUse(line)).join('\n')
  if (variant === 'no-features') {
    const removals = [
      /^ {2}const services = composeServices\(deps\)\n/m,
      /^ {2}const \{[^}]*\} = services\n/m,
      /^ {2}const access = admissionPlugin\(services\.admission\)\n/m,
      /^ {4}\.decorate\('people', services\.people\)\n/m,
    ]
    for (const pattern of removals) {
      if (!pattern.test(rewritten)) throw new Error(`src/app.ts has no line matching ${pattern}: update bench/floors.ts`)
      rewritten = rewritten.replace(pattern, '')
    }
    if (/\bservices\./.test(rewritten)) throw new Error('src/app.ts still uses `services.` outside the lines bench/floors.ts removes: update it')
  }
  return rewritten
}

/** Compiles this checkout's Lobby as `variant` to `outfile`. */
export async function buildFloorVariant(variant: FloorVariant, outfile: string): Promise<void> {
  const appPath = join(ROOT, 'src', 'app.ts')
  const result = await Bun.build({
    entrypoints: [join(ROOT, 'src', 'main.ts')],
    compile: { outfile },
    minify: true,
    bytecode: true,
    plugins: [{
      name: `lobby-floor-${variant}`,
      setup(build) {
        build.onLoad({ filter: /[\\/]src[\\/]app\.ts$/ }, async (args) => {
          if (args.path !== appPath) return undefined
          return { contents: appWithout(await Bun.file(appPath).text(), variant), loader: 'ts' }
        })
      },
    }],
  })
  if (!result.success) throw new Error(`building the ${variant} floor failed: ${result.logs.map(String).join('\n')}`)
}

/** Both floors compiled into `dir`: the binaries' paths, for bench/run.ts and bench/start.ts. */
export async function buildFloors(dir: string): Promise<{ routeless: string; featureless: string }> {
  const routeless = join(dir, 'lobby-no-feature-routes')
  const featureless = join(dir, 'lobby-no-features')
  await buildFloorVariant('no-feature-routes', routeless)
  await buildFloorVariant('no-features', featureless)
  return { routeless, featureless }
}
