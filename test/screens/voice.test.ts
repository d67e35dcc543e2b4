import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { ensureBinary } from '../support/binary'
import { clipDirectory, FULL_SET, wav } from '../voice/support'
import { CHROMIUM, HAVE_CHROMIUM, launchBrowser, Lobby } from './support'

/**
 * Spoken calls (contract §11) in Chromium against dist/lobby. Headless Chromium has no speech
 * voices and no sound card, so the page gets stand-ins installed before it loads: a
 * `speechSynthesis` with one local English voice (and a network French one, which must not be
 * used) that takes 400 ms per utterance, an `Audio` that "plays" a clip in 60 ms, and an
 * `AudioContext` whose tones are the chime. Each records what the page asked for, when, and
 * whether anything else was sounding at that moment.
 */

declare const window: any

interface Sound {
  kind: 'tone' | 'speak' | 'spoken' | 'clip' | 'clip-end' | 'cancel'
  what: string
  at: number
  /** How many voices (speech or clips) were sounding when this started. */
  busy: number
  src?: string
}

/** Runs in the page before its own script. */
function installSoundStubs(): void {
  const log: Sound[] = []
  window.__sounds = log
  let busy = 0
  const mark = (kind: Sound['kind'], what: string, src?: string) => log.push({ kind, what, at: performance.now(), busy, ...(src ? { src } : {}) })

  class FakeAudioContext {
    currentTime = 0
    state = 'running'
    destination = {}
    resume() { return Promise.resolve() }
    createOscillator() {
      return { type: 'sine', frequency: { value: 0 }, connect: (n: unknown) => n, start() { mark('tone', String(this.frequency.value)) }, stop() {} }
    }
    createGain() {
      return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (n: unknown) => n }
    }
  }
  window.AudioContext = FakeAudioContext

  const voices = [
    { name: 'Test English', lang: 'en-US', localService: true, default: true, voiceURI: 'test-en' },
    { name: 'Network French', lang: 'fr-FR', localService: false, default: false, voiceURI: 'net-fr' },
  ]
  class FakeUtterance extends EventTarget {
    voice: unknown = null
    lang = ''
    constructor(readonly text: string) { super() }
  }
  const synth = Object.assign(new EventTarget(), {
    speaking: false,
    getVoices: () => voices,
    speak(utterance: FakeUtterance) {
      mark('speak', utterance.text)
      busy += 1
      this.speaking = true
      setTimeout(() => {
        busy -= 1
        this.speaking = false
        mark('spoken', utterance.text)
        utterance.dispatchEvent(new Event('end'))
      }, 400)
    },
    cancel() { mark('cancel', '') },
  })
  Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true })
  window.SpeechSynthesisUtterance = FakeUtterance

  class FakeAudio extends EventTarget {
    preload = ''
    constructor(readonly src: string) { super() }
    play() {
      const name = decodeURIComponent(new URL(this.src, window.location.href).pathname.split('/').pop() ?? '')
      mark('clip', name, this.src)
      busy += 1
      setTimeout(() => {
        busy -= 1
        mark('clip-end', name)
        this.dispatchEvent(new Event('ended'))
      }, 60)
      return Promise.resolve()
    }
    pause() {}
  }
  window.Audio = FakeAudio
}

/** The chime's two tones are started together; the voice may begin only once it has rung out. */
const CHIME_MS = 1600

if (!HAVE_CHROMIUM) console.warn(`SKIPPED spoken-call browser tests: no Chromium at ${CHROMIUM}`)

describe.skipIf(!HAVE_CHROMIUM)('spoken calls on the queue board (&voice=1)', () => {
  const lobby = new Lobby()
  let browser: BrowserContext
  const pageErrors: string[] = []
  let clipDir = ''

  beforeAll(async () => {
    await lobby.start()
    // Arabic clips for the whole demo unit, imported by the CLI while the server runs.
    clipDir = clipDirectory(join(lobby.dir, 'clips-ar'), FULL_SET)
    const run = Bun.spawnSync([ensureBinary(), 'voice', 'import', '--db', lobby.db, '--lang', 'ar', '--dir', clipDir], { stdout: 'pipe', stderr: 'pipe' })
    if (run.exitCode !== 0) throw new Error(`voice import: ${run.stderr.toString()}`)
    browser = await launchBrowser()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await lobby.kill()
  })

  async function board(lang: string): Promise<Page> {
    const page = await browser.newPage()
    page.on('pageerror', (error) => pageErrors.push(`${lang}: ${error.message}`))
    await page.addInitScript(installSoundStubs)
    await page.goto(lobby.screen('/screens/queue/qu_main', { location: 'loc_hall', voice: '1', lang }))
    await page.waitForSelector('.svc .svc-name')
    return page
  }

  const sounds = (page: Page): Promise<Sound[]> => page.evaluate(() => window.__sounds)
  async function until(page: Page, kind: Sound['kind'], count: number, timeout = 15_000): Promise<Sound[]> {
    await page.waitForFunction(([k, n]) => window.__sounds.filter((s: Sound) => s.kind === k).length >= (n as number), [kind, count] as const, { timeout })
    return sounds(page)
  }
  const spelt = (number: string) => [...number].join(' ')
  async function serveOut(id: string): Promise<void> {
    await lobby.operate(`tickets/${id}/start`)
    await lobby.operate(`tickets/${id}/complete`)
  }

  test('two calls in quick succession are spoken in order after the chime, never overlapping; a recall is spoken again', async () => {
    const page = await board('en')
    await page.waitForSelector('#screen[data-voice="speech"]')
    expect(await page.locator('#screen-voice').innerText()).toBe('Voice: Test English')

    await lobby.issueTicket('loc_hall', 'svc_accounts')
    await lobby.issueTicket('loc_hall', 'svc_accounts')
    const first = (await lobby.callNext('cnt_1'))!
    const second = (await lobby.callNext('cnt_2'))!
    let log = await until(page, 'spoken', 2)
    const said = [`Ticket ${spelt(first.ticketNumber)}, please go to Counter 1`, `Ticket ${spelt(second.ticketNumber)}, please go to Counter 2`]
    expect(log.filter((s) => s.kind === 'speak').map((s) => s.what)).toEqual(said)
    // chime, voice, chime, voice: each voice after its chime has rung out, the second after the first ended.
    expect(log.map((s) => s.kind)).toEqual(['tone', 'tone', 'speak', 'spoken', 'tone', 'tone', 'speak', 'spoken'])
    const [, chime1, speak1, spoken1, , chime2, speak2] = log as [Sound, Sound, Sound, Sound, Sound, Sound, Sound]
    expect(speak1.at - chime1.at).toBeGreaterThanOrEqual(CHIME_MS)
    expect(chime2.at).toBeGreaterThanOrEqual(spoken1.at)
    expect(speak2.at - chime2.at).toBeGreaterThanOrEqual(CHIME_MS)
    expect(log.every((s) => s.busy === 0 || s.kind === 'spoken')).toBe(true)

    await lobby.operate(`tickets/${first.id}/recall`)
    log = await until(page, 'spoken', 3)
    expect(log.filter((s) => s.kind === 'speak').map((s) => s.what)).toEqual([said[0]!, said[1]!, said[0]!])
    expect(log.filter((s) => s.kind === 'clip' || s.kind === 'cancel')).toEqual([])
    await serveOut(first.id)
    await serveOut(second.id)
    await page.close()
  }, 45_000)

  test('imported clips are used when present: ticket, the number sign by sign, please-go-to, the counter', async () => {
    const page = await board('ar')
    await page.waitForSelector('#screen[data-voice="clips"]')
    expect(await page.locator('#screen-voice').innerText()).toBe('الصوت: تسجيلات')

    await lobby.issueTicket('loc_hall', 'svc_accounts')
    const call = (await lobby.callNext('cnt_1'))!
    const expected = ['ticket', ...call.ticketNumber, 'please-go-to', 'counter-cnt_1']
    const log = await until(page, 'clip-end', expected.length)
    const clips = log.filter((s) => s.kind === 'clip')
    expect(clips.map((s) => s.what)).toEqual(expected)
    expect(log.filter((s) => s.kind === 'speak')).toEqual([])
    expect(clips.every((s) => s.busy === 0)).toBe(true)
    expect(clips[0]!.at - log.filter((s) => s.kind === 'tone')[0]!.at).toBeGreaterThanOrEqual(CHIME_MS)

    // What the board asked for is the clip that was imported, served with its display token.
    const response = await fetch(new URL(clips[0]!.src!, lobby.url))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('audio/wav')
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([...wav(400, FULL_SET.indexOf('ticket') + 1)])
    await serveOut(call.id)
    await page.close()

    // And a real <audio> element on a board page (its Content Security Policy) loads that clip.
    const real = await browser.newPage()
    await real.goto(lobby.screen('/screens/queue/qu_main', { location: 'loc_hall', lang: 'ar' }))
    const seconds = await real.evaluate(
      (src) =>
        new Promise<number>((resolve, reject) => {
          const audio = new window.Audio(src)
          audio.addEventListener('loadedmetadata', () => resolve(audio.duration))
          audio.addEventListener('error', () => reject(new Error(`clip did not load: ${audio.error?.message}`)))
        }),
      clips[0]!.src!,
    )
    expect(seconds).toBeCloseTo(400 / 8000, 2)
    await real.close()
  }, 45_000)

  test('no clips and no local voice for the language: the chime alone, and the board says so', async () => {
    const page = await board('fr')
    await page.waitForSelector('#screen[data-voice="chime"]')
    expect(await page.locator('#screen-voice').innerText()).toBe('Son : carillon seul')
    await lobby.issueTicket('loc_hall', 'svc_accounts')
    await lobby.issueTicket('loc_hall', 'svc_accounts')
    const first = (await lobby.callNext('cnt_1'))!
    const second = (await lobby.callNext('cnt_2'))!
    // The second chime starts only when the first announcement is over: nothing was said in between.
    const log = await until(page, 'tone', 4)
    expect(log.map((s) => s.kind)).toEqual(['tone', 'tone', 'tone', 'tone'])
    expect(log[2]!.at - log[0]!.at).toBeGreaterThanOrEqual(CHIME_MS)
    await serveOut(first.id)
    await serveOut(second.id)
    await page.close()
  }, 45_000)

  test('no page had a script error', () => {
    expect(pageErrors).toEqual([])
  })
})
