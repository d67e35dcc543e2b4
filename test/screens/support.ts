import jsQR from 'jsqr'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { ensureBinary, ROOT, startBinary, type RunningBinary } from '../support/binary'
import { tempDir } from '../support/cli'
import { SHOTS } from '../support/shots'
import { PROCESS_BROWSER_KEY, PROCESS_FULL_BROWSER_KEY } from '../support/process-browser'

/** Debian's chromium (`apt-get install chromium`); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const HAVE_CHROMIUM = existsSync(CHROMIUM)
/**
 * Debian's headless shell (`apt-get install chromium-headless-shell`, .ci/run), the same engine
 * without the desktop browser around it, which is what Playwright itself runs headless: a browser
 * file takes about a quarter less time in it. Unless CHROMIUM_PATH names a browser, the tests use
 * it when it is there. The push tests take the full browser (`launchBrowser({ full: true })`):
 * the shell has no Push API. (The desk's two files took it too for a while, for a failure that
 * was Playwright's request events, not the shell: see guardNetwork.)
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell'
const TEST_CHROMIUM: string = process.env.CHROMIUM_PATH === undefined && existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM
/** Where screenshots go: a temp directory unless SCREENSHOTS_DIR says otherwise (test/support/shots.ts); never docs/images by default. */
export const IMAGES = SHOTS

export const LANDSCAPE = { width: 1920, height: 1080 }
export const PORTRAIT = { width: 1080, height: 1920 }

/**
 * The flags that keep Chromium off the network: no background services, no component
 * updates, no sync (this machine has no internet), and no host name but 127.0.0.1 resolves,
 * so a page's request to anywhere else fails inside the browser at once (guardNetwork records it);
 * and one renderer process per site in a context.
 */
const CHROMIUM_ARGS = [
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
  // A context's new tab of 127.0.0.1 joins the renderer process (and main thread) its other tabs
  // use instead of starting one: a new tab and its load, 0.8 → 0.53 CPU-s; the 25 browser
  // files, 699 → 670 CPU-s (back to back, 2026-12-02).
  '--process-per-site',
]

/** What every test browser context shares: the window, the locale, the zone. */
const CONTEXT_OPTIONS = { viewport: LANDSCAPE, locale: 'en-GB', timezoneId: 'Europe/Berlin' }

/**
 * How long one browser step (a click, a wait for a locator) may take unless it says otherwise:
 * below the tests' own timeouts (30 s and more), so a hung step fails as itself, naming its
 * locator, instead of the runner's timeout ending the file's server and browsers (issue 49).
 */
export const STEP_MS = 20_000

/** The Chromiums of this test process, each started on first use (their handles: test/support/process-browser.ts). */
type Holder = { [key: symbol]: Promise<Browser> | undefined }

/**
 * The test process's one headless Chromium, with the flags that keep it off the network: every
 * file's browsers are contexts of it (a context is a fresh profile: its own cookies, storage and
 * cache), which costs a fraction of a browser launch. A browser that went away (the runner ends
 * a timed-out file's processes) is started again for the next one.
 */
async function processBrowser(full: boolean): Promise<Browser> {
  const holder = globalThis as Holder
  const key = full ? PROCESS_FULL_BROWSER_KEY : PROCESS_BROWSER_KEY
  const running = await holder[key]?.catch(() => undefined)
  if (running?.isConnected()) return running
  const { chromium } = await import('playwright-core')
  const starting = chromium.launch({ executablePath: full ? CHROMIUM : TEST_CHROMIUM, headless: true, args: CHROMIUM_ARGS })
  holder[key] = starting
  const browser = await starting
  browser.on('disconnected', () => { if (holder[key] === starting) delete holder[key] })
  return browser
}

/**
 * A fresh browser context (its own profile) of the process's Chromium; closing it leaves the
 * browser for the next. `full`: of the full Chromium, not the headless shell (see TEST_CHROMIUM).
 */
export async function launchBrowser(options: { bypassCSP?: boolean; full?: boolean } = {}): Promise<BrowserContext> {
  const context = await (await processBrowser(options.full === true)).newContext({
    ...CONTEXT_OPTIONS,
    // Only for tests that inject a script of their own (axe-core): the pages' CSP forbids inline scripts.
    ...(options.bypassCSP ? { bypassCSP: true } : {}),
  })
  context.setDefaultTimeout(STEP_MS)
  return context
}

/**
 * Several people or devices, each in a context of its own (its own cookies), of the process's
 * Chromium. `close` ends the contexts it made, not the browser.
 */
export async function launchSharedBrowser(options: { full?: boolean } = {}): Promise<{ newContext: () => Promise<BrowserContext>; close: () => Promise<void> }> {
  const contexts: BrowserContext[] = []
  return {
    newContext: async () => {
      const context = await launchBrowser(options)
      contexts.push(context)
      return context
    },
    close: async () => { await Promise.all(contexts.splice(0).map((c) => c.close().catch(() => undefined))) },
  }
}

/**
 * Waits in the page's own script world until `predicate(arg)` is truthy, and returns its value.
 *
 * Why not Playwright's waitForFunction or waitForSelector: they (and every locator) first put
 * Playwright's injected script, 340 KB of source, into each new document, which costs Chromium
 * 0.1–0.2 CPU-s a load (a board's load 0.59 → 0.39 CPU-s, 2026-12-02). Where a test only reads a
 * page (page.evaluate), waiting this way keeps that script out of it. Where the test then uses a
 * locator on the same document anyway, nothing is saved.
 *
 * `predicate` runs in the page, so like page.evaluate's function it may use only its argument
 * and the page's globals. It is polled every 20 ms; a navigation of the page meanwhile is waited
 * out and the new document polled in turn. Past `timeout` the step fails naming `what`.
 */
export async function waitInPage<A, R>(page: Page, predicate: (arg: A) => R | Promise<R>, arg: A, options: { timeout?: number; what?: string } = {}): Promise<R> {
  const timeout = options.timeout ?? STEP_MS
  const what = options.what ?? `the page's condition ${predicate.name || ''}`.trim()
  const deadline = Date.now() + timeout
  // A string expression, not a function: the predicate travels as its source and is called in
  // the page. (A page's own eval is refused by its CSP; an evaluation from the test is not.)
  for (;;) {
    const left = Math.max(0, deadline - Date.now())
    const expression = `(async () => {
      const predicate = (${predicate.toString()});
      const arg = ${JSON.stringify(arg) ?? 'undefined'};
      const until = Date.now() + ${left};
      for (;;) {
        const value = await predicate(arg);
        if (value) return { value };
        if (Date.now() >= until) return { timedOut: true };
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })()`
    try {
      const result = (await page.evaluate(expression)) as { value?: R; timedOut?: true }
      if (result.timedOut) throw new Error(`waitInPage: ${what} not within ${timeout} ms (${page.url()})`)
      return result.value as R
    } catch (error) {
      // The document went away while it was polled (a navigation or reload): poll the next one.
      const gone = error instanceof Error && /Execution context was destroyed|navigation|Target page, context or browser has been closed|Cannot find context/i.test(error.message)
      if (!gone || page.isClosed() || Date.now() >= deadline) throw error
      await page.waitForLoadState('domcontentloaded', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined)
    }
  }
}

/** Waits, as `waitInPage`, until an element matching `selector` is shown (a box of some size, not `visibility: hidden`). */
export function waitForShown(page: Page, selector: string, options: { timeout?: number } = {}): Promise<boolean> {
  return waitInPage(page, (sel: string) => {
    const { document, getComputedStyle } = globalThis as any // the page's, where this runs
    const el = document.querySelector(sel)
    if (el === null) return false
    const box = el.getBoundingClientRect()
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden'
  }, selector, { ...options, what: `an element ${selector} shown` })
}

/**
 * The sizes in the order a language checks them: each language starts at another size (the
 * `index`-th, turning), so every size is loaded fresh in some language and turned into in the
 * others (fit.test.ts, fit-staff-and-phone.test.ts).
 */
export function turnedSizes<T>(sizes: T[], index: number): T[] {
  const first = index % sizes.length
  return [...sizes.slice(first), ...sizes.slice(0, first)]
}

/**
 * Every request the browser makes, and those that went elsewhere than 127.0.0.1 (which fail in
 * the browser: CHROMIUM_ARGS), so the test that checks the list fails loudly.
 *
 * Read from Chromium itself (a DevTools session per page, `Network.requestWillBeSent` and
 * `Network.webSocketCreated`), not from Playwright's request and websocket events: with those
 * subscribed, Playwright 1.65's client was sometimes told of a response before the request it
 * belongs to, or of a request of a page it had closed, and threw ("Cannot find parent object
 * request@… to create response@…"), failing whatever test ran then: 5 of 30 runs of the desk's
 * pairing step beside a busy loop, and 0 of 30 without them (2026-12-02). Recorded, not routed:
 * a route on every request made each one wait for this process, which is busy while a test
 * runs the CLI (one such wait was the suspect of a 29 s hang of the desk page, issue 49).
 *
 * A page the test opens (`context.newPage()`) is watched before the test gets it, so its first
 * request is seen; a page a page opens (a popup) from when Playwright reports it.
 */
export async function guardNetwork(context: BrowserContext): Promise<{ all: string[]; outside: string[] }> {
  const seen = { all: [] as string[], outside: [] as string[] }
  const record = (href: string) => {
    seen.all.push(href)
    const url = new URL(href)
    const local = url.hostname === '127.0.0.1' || url.protocol === 'data:' || url.protocol === 'blob:'
    if (!local) seen.outside.push(href)
  }
  // One session a page, however often it is asked for: the context's 'page' event and the
  // wrapped newPage below both ask, and newPage must wait for the session the event started.
  const sessions = new WeakMap<Page, Promise<void>>()
  const watch = (page: Page): Promise<void> => {
    let ready = sessions.get(page)
    if (ready === undefined) {
      ready = (async () => {
        const session = await context.newCDPSession(page)
        session.on('Network.requestWillBeSent', (event) => record(event.request.url))
        session.on('Network.webSocketCreated', (event) => record(event.url))
        await session.send('Network.enable')
      })()
      sessions.set(page, ready)
    }
    return ready
  }
  for (const page of context.pages()) await watch(page)
  const newPage = context.newPage.bind(context)
  context.newPage = async () => {
    const page = await newPage()
    await watch(page)
    return page
  }
  context.on('page', (page) => void watch(page).catch(() => undefined))
  return seen
}

export interface Secrets {
  workspace: string
  display: string
  kiosk: string
  operator: string
}

/** dist/lobby on 127.0.0.1 with a temp database provisioned from the demo file by the CLI. */
export class Lobby {
  server: RunningBinary | null = null
  readonly dir = tempDir('lobby-screens-')
  readonly db = join(this.dir, 'lobby.db')
  port = 0
  secrets!: Secrets
  /** Every secret the provisioning run printed. */
  private printed: { kind: string; owner: string; name: string; secret: string }[] = []

  /** A secret the provisioning run printed (`queue`, `qu_two`, `operator`). */
  secret(kind: string, owner: string, name: string): string {
    const found = this.printed.find((s) => s.kind === kind && s.owner === owner && s.name === name)
    if (!found) throw new Error(`provision printed no ${kind} secret ${owner}/${name}`)
    return found.secret
  }

  /** Provisions from `file` (default: the demo branch, which must define the secrets of `Secrets`) and serves. */
  async start(file = join(ROOT, 'src/provisioning/demo.yaml')): Promise<void> {
    const binary = ensureBinary()
    mkdirSync(this.dir, { recursive: true })
    const run = Bun.spawnSync([binary, 'provision', '--db', this.db, '--file', file], { stdout: 'pipe', stderr: 'pipe' })
    if (run.exitCode !== 0) throw new Error(`provision failed: ${run.stderr.toString()}`)
    this.printed = (JSON.parse(run.stdout.toString()) as { secrets: { kind: string; owner: string; name: string; secret: string }[] }).secrets
    const find = (kind: string, owner: string, name: string) => this.secret(kind, owner, name)
    this.secrets = {
      workspace: find('workspace', 'ws_demo', 'cms'),
      display: find('display', 'ws_demo', 'lobby-screens'),
      kiosk: find('queue', 'qu_main', 'kiosk'),
      operator: find('queue', 'qu_main', 'operator'),
    }
    await this.serve('0')
  }

  /** (Re)starts the server on the same database; the first start picks a free port, later ones reuse it. */
  async serve(port = String(this.port)): Promise<void> {
    this.server = await startBinary(['serve', '--port', port, '--host', '127.0.0.1', '--db', this.db])
    this.port = Number(new URL(this.server.url).port)
  }

  async kill(): Promise<void> {
    if (this.server && this.server.proc.exitCode === null) await this.server.stop('SIGKILL')
    else if (this.server) {
      // It ended before the test stopped it: say how, so a failure under it is explained.
      console.error(`lobby server ended before kill(); its last lines:\n${this.server.lines.slice(-30).join('\n')}`)
    }
    this.server = null
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  screen(path: string, query: Record<string, string> = {}): string {
    const params = new URLSearchParams({ token: this.secrets.display, ...query })
    return `${this.url}${path}?${params}`
  }

  async pushWidget(widgetId: string, widgetType: string, data: unknown): Promise<Response> {
    const response = await fetch(`${this.url}/api/public/v1/widgets/${widgetId}/data/push`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.secrets.workspace}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ pushVersion: 1, widgetType, writeMode: 'REPLACE_SNAPSHOT', data }),
    })
    if (response.status !== 200) throw new Error(`widget push ${response.status}: ${await response.text()}`)
    return response
  }

  async pushMonth(sourceId: string, month: unknown): Promise<Response> {
    const response = await fetch(`${this.url}/api/public/v1/prayer-schedules/sources/${sourceId}/months`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.secrets.workspace}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify(month),
    })
    if (response.status !== 201 && response.status !== 200) throw new Error(`month push ${response.status}: ${await response.text()}`)
    return response
  }

  async issueTicket(locationId: string, serviceId: string, key = this.secrets.kiosk): Promise<{ ticketNumber: string }> {
    const response = await fetch(`${this.url}/api/public/v1/queue/tickets`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'x-request-timestamp': new Date().toISOString(),
        'x-request-nonce': crypto.randomUUID(),
        'idempotency-key': crypto.randomUUID(),
      },
      body: JSON.stringify({ locationId, serviceId }),
    })
    if (response.status !== 201 && response.status !== 200) throw new Error(`ticket issue ${response.status}: ${await response.text()}`)
    return ((await response.json()) as { data: { ticketNumber: string } }).data
  }

  /** An operator action (`counters/cnt_1/call-next`, `tickets/tkt_…/start`); null when this build has no operator API. */
  async operate(path: string, key = this.secrets.operator): Promise<{ id: string; ticketNumber: string } | null> {
    const response = await fetch(`${this.url}/api/operator/v1/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    })
    if (response.status === 404) {
      const body = (await response.json().catch(() => null)) as { error?: { code?: string } } | null
      if (body?.error?.code === 'NOT_FOUND') return null
      throw new Error(`${path}: 404 ${JSON.stringify(body)}`)
    }
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: { id: string; ticketNumber: string } }).data
  }

  /**
   * Opens the counter (a no-op when it is open), then calls the next ticket there: call-next at a
   * closed counter is 409 COUNTER_CLOSED (contract §27), as a clerk opens the desk first.
   */
  async callNext(counterId: string, key = this.secrets.operator) {
    await this.operate(`counters/${counterId}/open`, key)
    return this.operate(`counters/${counterId}/call-next`, key)
  }

  /** Serves a called ticket to the end, freeing its counter for the next call. */
  async finish(ticketId: string): Promise<void> {
    await this.operate(`tickets/${ticketId}/start`)
    await this.operate(`tickets/${ticketId}/complete`)
  }
}

/** The calendar date `YYYY-MM-DD` and `YYYY-MM` period of an instant in a zone. */
export function localDate(instant: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant)
}

/** The offset of `timeZone` at `instant`, as `+01:00`. */
export function offsetOf(instant: number, timeZone: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT'
  const m = /GMT([+-]\d{2}):?(\d{2})?/.exec(name)
  return m ? `${m[1]}:${m[2] ?? '00'}` : '+00:00'
}

/** An ISO date-time `minutes` from now, written with the zone's offset as a source system would. */
export function at(minutesFromNow: number, timeZone = 'Europe/Berlin', now = Date.now()): string {
  const instant = Math.round((now + minutesFromNow * 60_000) / 60_000) * 60_000
  const offset = offsetOf(instant, timeZone)
  const sign = offset.startsWith('-') ? -1 : 1
  const [h, m] = offset.slice(1).split(':').map(Number) as [number, number]
  const local = new Date(instant + sign * (h * 60 + m) * 60_000).toISOString().slice(0, 16)
  return `${local}:00${offset}`
}

/** Decodes the QR code in a PNG screenshot: the browser turns the PNG into pixels, jsQR reads them. */
export async function decodeQr(page: Page, png: Buffer): Promise<string | null> {
  // Decoded in a blank page of the same browser: Lobby's pages allow images from their own
  // origin only (contract §27, no `data:`), so the screenshot cannot be loaded there.
  const blank = await page.context().newPage()
  try {
    return await decodeIn(blank, png)
  } finally {
    await blank.close()
  }
}

async function decodeIn(page: Page, png: Buffer): Promise<string | null> {
  const { width, height, pixels } = await page.evaluate(async (dataUrl) => {
    const { Image, document } = globalThis as any
    const image = new Image()
    image.src = dataUrl
    await image.decode()
    const canvas = document.createElement('canvas')
    canvas.width = image.naturalWidth
    canvas.height = image.naturalHeight
    const context = canvas.getContext('2d')!
    context.drawImage(image, 0, 0)
    // Base64 in chunks: a plain array of every byte would take seconds to cross the protocol.
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data
    let binary = ''
    for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000))
    return { width: canvas.width, height: canvas.height, pixels: btoa(binary) }
  }, `data:image/png;base64,${png.toString('base64')}`)
  return jsQR(new Uint8ClampedArray(Buffer.from(pixels, 'base64')), width, height)?.data ?? null
}
