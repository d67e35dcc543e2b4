import screensScript from './generated/screens.js' with { type: 'text' }
import screensStylesheet from './styles/screens.css' with { type: 'text' }
import devicesScript from './generated/devices.js' with { type: 'text' }
import devicesStylesheet from './styles/devices.css' with { type: 'text' }
import phoneScript from './generated/phone.js' with { type: 'text' }
import phoneStylesheet from './styles/phone.css' with { type: 'text' }
import phoneServiceWorker from './generated/phone-sw.js' with { type: 'text' }
import reportsScript from './generated/reports.js' with { type: 'text' }
import reportsStylesheet from './styles/reports.css' with { type: 'text' }
import loginScript from './generated/login.js' with { type: 'text' }
import loginStylesheet from './styles/login.css' with { type: 'text' }
import manageScript from './generated/manage.js' with { type: 'text' }
import manageStylesheet from './styles/manage.css' with { type: 'text' }
import adminScript from './generated/admin.js' with { type: 'text' }
import adminStylesheet from './styles/admin.css' with { type: 'text' }
import hqScript from './generated/hq.js' with { type: 'text' }
import hqStylesheet from './styles/hq.css' with { type: 'text' }
import chartStylesheet from 'uplot/dist/uPlot.min.css' with { type: 'text' }
import { precompress, type Precompressed } from './precompress' with { type: 'macro' }

/*
 * The one registry of the pages' embedded files (bundles and stylesheets): name → bytes,
 * content type, cache policy, and their gzip and brotli forms made at build time (the
 * `precompress` macro). One route serves them all (`assetRoutes`, ./asset-route.ts); every page
 * names its files through `ASSETS`.
 */

import type { Encoding } from '../platform/compression'

export type { Encoding }

/** One embedded file, served under a name that carries its content hash. */
export interface Asset {
  /** `screens.js`: the name the registry knows it by. */
  name: string
  /** URL path, e.g. `/screens/assets/screens.3f2a9c1b0d4e.js`. */
  path: string
  /** The folder of URLs it is served under (`/screens/assets`). */
  prefix: string
  /** Any hashed name of this asset under its prefix (a page from before an upgrade still gets the current file). */
  pattern: RegExp
  body: string
  contentType: string
  /** Under its current hashed path: cached for good; under an older name: revalidated. */
  cache: { current: string; other: string }
  /** The body compressed, made at build time; decoded from the binary on first use. */
  readonly encoded: Record<Encoding, Uint8Array<ArrayBuffer>>
}

const JS = 'text/javascript; charset=utf-8'
const CSS = 'text/css; charset=utf-8'
const HASHED_CACHE = { current: 'public, max-age=31536000, immutable', other: 'no-cache' }

/**
 * The fallback's compression. node:zlib is required here, not imported at the top: loading it
 * (and the streams it brings) costs ~20 ms of every start, and a built binary never needs it.
 */
function compressNow(body: string): Record<Encoding, Uint8Array<ArrayBuffer>> {
  const zlib = require('node:zlib') as typeof import('node:zlib')
  return { br: new Uint8Array(zlib.brotliCompressSync(body)), gzip: new Uint8Array(zlib.gzipSync(body, { level: 9 })) }
}

function decode(base64: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(base64, 'base64'))
}

/**
 * An asset of `prefix`, named `stem.<hash>.extension`. The hash in the name changes with the
 * content, so a browser may keep a file for good and still gets the new one after Lobby is
 * upgraded (the pages themselves are never cached).
 */
function asset(prefix: string, stem: string, extension: 'js' | 'css', body: string, built: Precompressed): Asset {
  const bodyHash = Bun.hash(body).toString(16)
  const hash = bodyHash.padStart(16, '0').slice(0, 12)
  // The macro compressed the files on disk when the code was bundled; should they differ from
  // what was embedded (a transpiler cache), compress the embedded text instead. Either way on
  // the first request that asks for them, not at every start (cold start, idle memory).
  let encoded: Record<Encoding, Uint8Array<ArrayBuffer>> | undefined
  const encode = (): Record<Encoding, Uint8Array<ArrayBuffer>> => built.hash === bodyHash
    ? { br: decode(built.br), gzip: decode(built.gzip) }
    : compressNow(body)
  return {
    name: `${stem}.${extension}`,
    path: `${prefix}/${stem}.${hash}.${extension}`,
    prefix,
    pattern: new RegExp(`^${stem}\\.[0-9a-f]+\\.${extension}$`),
    body,
    contentType: extension === 'js' ? JS : CSS,
    cache: HASHED_CACHE,
    get encoded() {
      return (encoded ??= encode())
    },
  }
}

const reportsCss = `${chartStylesheet}\n${reportsStylesheet}`

/** Every page asset, by name. */
export const ASSETS = {
  /** The screens' bundle (src/client/main.ts) and stylesheet: the TV boards. */
  'screens.js': asset('/screens/assets', 'screens', 'js', screensScript, precompress('src/screens/generated/screens.js')),
  'screens.css': asset('/screens/assets', 'screens', 'css', screensStylesheet, precompress('src/screens/styles/screens.css')),
  /** The device pages' bundle (/pair, /desk, /kiosk, /screens), on the screens' toolkit. */
  'devices.js': asset('/devices/assets', 'devices', 'js', devicesScript, precompress('src/screens/generated/devices.js')),
  'devices.css': asset('/devices/assets', 'devices', 'css', devicesStylesheet, precompress('src/screens/styles/devices.css')),
  /** The phone page's own small bundle: under 60 KB together (contract §10). */
  'phone.js': asset('/phone/assets', 'phone', 'js', phoneScript, precompress('src/screens/generated/phone.js')),
  'phone.css': asset('/phone/assets', 'phone', 'css', phoneStylesheet, precompress('src/screens/styles/phone.css')),
  /** /reports: its bundle (uPlot bundled in) and uPlot's stylesheet then its own; never from a CDN. */
  'reports.js': asset('/reports/assets', 'reports', 'js', reportsScript, precompress('src/screens/generated/reports.js')),
  'reports.css': asset('/reports/assets', 'reports', 'css', reportsCss, precompress('node_modules/uplot/dist/uPlot.min.css', 'src/screens/styles/reports.css')),
  /** The sign-in and setup pages (/login, /login/setup; contract §16). */
  'login.js': asset('/login/assets', 'login', 'js', loginScript, precompress('src/screens/generated/login.js')),
  'login.css': asset('/login/assets', 'login', 'css', loginStylesheet, precompress('src/screens/styles/login.css')),
  /** The live floor (/manage; contract §22). */
  'manage.js': asset('/manage/assets', 'manage', 'js', manageScript, precompress('src/screens/generated/manage.js')),
  'manage.css': asset('/manage/assets', 'manage', 'css', manageStylesheet, precompress('src/screens/styles/manage.css')),
  /** The administration console (/admin) and the start page (/; contract §17). */
  'admin.js': asset('/admin/assets', 'admin', 'js', adminScript, precompress('src/screens/generated/admin.js')),
  'admin.css': asset('/admin/assets', 'admin', 'css', adminStylesheet, precompress('src/screens/styles/admin.css')),
  /** The head-office console (`lobby hq serve`: /hq, /hq/live, /hq/reports; contract §26). */
  'hq.js': asset('/hq/assets', 'hq', 'js', hqScript, precompress('src/screens/generated/hq.js')),
  'hq.css': asset('/hq/assets', 'hq', 'css', hqStylesheet, precompress('src/screens/styles/hq.css')),
} as const satisfies Record<string, Asset>

export type AssetName = keyof typeof ASSETS

/**
 * The phone page's service worker (contract §25 web push). Not a hashed asset: a service
 * worker's URL must stay the same for the browser to update it, and its folder is its scope, so
 * the phone feature serves it at `/t/sw.js` (scope `/t/`), revalidated on every check.
 */
export const PHONE_SERVICE_WORKER: string = phoneServiceWorker

/** The URL prefixes the registry's files are served under. */
export const ASSET_PREFIXES: readonly string[] = [...new Set(Object.values(ASSETS).map((a) => a.prefix))]

// The names the pages and older tests use.
export const ASSET_PREFIX = '/screens/assets'
export const SCRIPT = ASSETS['screens.js']
export const STYLESHEET = ASSETS['screens.css']
