import { Chime } from './chime'
import type { VoiceManifest } from '../contract/wire'
import type { ScreenContext } from './context'
import { h } from './dom'
import { fill } from './i18n'

/**
 * Spoken calls on the queue board (`&voice=1`, contract §11). Each call goes into one queue
 * and is said after the chime, one at a time, in the order the calls were made: an announcement
 * starts only when the one before has ended, so two calls never talk over each other. A recall
 * is a new call and is said again.
 *
 * The voice is the first of:
 * 1. the clips the branch recorded for the board's language (`lobby voice import`), played one
 *    after the other: `ticket`, the number letter by letter and digit by digit, `please-go-to`,
 *    `counter-<counterId>`; used when the language has `ticket`, `please-go-to` and every digit,
 *    and the call's letters and counter have a clip;
 * 2. the browser's speech synthesis, when it has a voice for the language on the device itself
 *    (a network voice would send the call elsewhere, and a branch has no internet);
 * 3. none: the chime alone.
 * The board shows which one it uses (bottom corner).
 */

export type VoiceSource = 'clips' | 'speech' | 'chime'

export interface SpokenCall {
  number: string
  /** The counter's name in the unit's default language: how its recorded clip is found. */
  counterName: string
  /** The counter's name in the board's language (contract §18): what speech says. */
  spokenCounter: string
  locationId: string
}

/** The clip list is read again this often (a branch may import clips while boards run). */
const MANIFEST_REFRESH_MS = 10 * 60_000
/** A clip that neither ends nor fails within this is given up (a stalled decoder must not stall the queue). */
const CLIP_LIMIT_MS = 10_000
/** Speech that has not ended after this is cancelled (some engines never fire `end`). */
const SPEECH_LIMIT_MS = 20_000

export class Announcer {
  private readonly pending: SpokenCall[] = []
  private running = false
  private manifest: VoiceManifest | null = null
  private voice: SpeechSynthesisVoice | null = null
  private readonly chime = new Chime()
  private readonly badge: HTMLElement

  constructor(
    private readonly ctx: ScreenContext,
    private readonly queueUnitId: string,
  ) {
    this.badge = h('div', { id: 'screen-voice', class: 'voice-source' })
    document.getElementById('screen')?.append(this.badge)
    ctx.onLangChange(() => {
      void this.loadManifest()
      this.pickVoice()
    })
  }

  start(): void {
    this.pickVoice()
    const synth = speechSynthesisOrNull()
    // Chromium lists its voices only after `voiceschanged`.
    synth?.addEventListener?.('voiceschanged', () => this.pickVoice())
    void this.loadManifest()
    setInterval(() => void this.loadManifest(), MANIFEST_REFRESH_MS)
  }

  /** What the board says calls with now. */
  get source(): VoiceSource {
    if (this.manifest?.complete) return 'clips'
    return this.voice !== null ? 'speech' : 'chime'
  }

  announce(call: SpokenCall): void {
    this.pending.push(call)
    if (!this.running) void this.run()
  }

  private async run(): Promise<void> {
    this.running = true
    try {
      for (let call = this.pending.shift(); call !== undefined; call = this.pending.shift()) {
        await this.chime.play()
        await this.say(call)
      }
    } finally {
      this.running = false
    }
  }

  private async say(call: SpokenCall): Promise<void> {
    const clips = this.clipsFor(call)
    if (clips !== null && (await playInTurn(clips))) return
    if (this.voice !== null) await speak(this.utterance(call), this.voice)
  }

  /** "Ticket A 0 1 2, please go to Counter 3": the number spelt out, so it is read sign by sign. */
  private utterance(call: SpokenCall): string {
    return fill(this.ctx.labels.announce, { number: [...call.number].join(' '), counter: call.spokenCounter })
  }

  /** The clip URLs that say `call`, or null when one is missing (the next source says it then). */
  private clipsFor(call: SpokenCall): string[] | null {
    const manifest = this.manifest
    if (manifest === null || !manifest.complete) return null
    const counters = manifest.counters.filter((c) => c.name === call.counterName && c.locationId === call.locationId)
    if (counters.length !== 1) return null
    const names = ['ticket', ...[...call.number.toUpperCase()], 'please-go-to', `counter-${counters[0]!.id}`]
    const hrefs = new Map(manifest.clips.map((c) => [c.name, c.href]))
    if (!names.every((n) => hrefs.has(n))) return null
    const token = this.ctx.options.token
    // An <audio> element cannot send a header: the token goes in the query, as for the websocket.
    return names.map((n) => (token ? `${hrefs.get(n)!}&token=${encodeURIComponent(token)}` : hrefs.get(n)!))
  }

  private async loadManifest(): Promise<void> {
    const token = this.ctx.options.token
    try {
      // Without a token in the URL, a paired display's cookie authenticates (contract §7).
      const response = await fetch(`/api/display/v1/queue-units/${encodeURIComponent(this.queueUnitId)}/voice?lang=${encodeURIComponent(this.ctx.lang)}`, {
        headers: token === null ? {} : { authorization: `Bearer ${token}` },
        cache: 'no-store',
      })
      if (response.ok) this.manifest = (await response.json()) as VoiceManifest
    } catch {
      // Unreachable now: keep what we had; the next refresh tries again.
    }
    this.paint()
  }

  /** A voice on the device for the board's language: the same tag first, else the same language. */
  private pickVoice(): void {
    const voices = (speechSynthesisOrNull()?.getVoices() ?? []).filter((v) => v.localService)
    const lang = this.ctx.lang.toLowerCase()
    const base = lang.split('-')[0]
    const tagOf = (v: SpeechSynthesisVoice) => v.lang.toLowerCase().replace('_', '-')
    this.voice = voices.find((v) => tagOf(v) === lang) ?? voices.find((v) => tagOf(v).split('-')[0] === base) ?? null
    this.paint()
  }

  private paint(): void {
    const { labels } = this.ctx
    const source = this.source
    const text = source === 'clips' ? labels.voiceClips : source === 'speech' ? fill(labels.voiceSpeech, { name: this.voice?.name ?? '' }) : labels.voiceChime
    if (this.badge.textContent !== text) this.badge.textContent = text
    this.badge.dataset.source = source
    document.getElementById('screen')?.setAttribute('data-voice', source)
  }
}

function speechSynthesisOrNull(): SpeechSynthesis | null {
  return 'speechSynthesis' in window ? window.speechSynthesis : null
}

/** Says `text` and resolves when it has been said (or failed, or was cut off after a limit). */
function speak(text: string, voice: SpeechSynthesisVoice): Promise<void> {
  const synth = speechSynthesisOrNull()
  if (synth === null) return Promise.resolve()
  return new Promise((resolve) => {
    const utterance = new SpeechSynthesisUtterance(text)
    utterance.voice = voice
    utterance.lang = voice.lang
    let done = false
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(limit)
      resolve()
    }
    const limit = setTimeout(() => {
      synth.cancel()
      finish()
    }, SPEECH_LIMIT_MS)
    utterance.addEventListener('end', finish)
    utterance.addEventListener('error', finish)
    synth.speak(utterance)
  })
}

/** Plays the clips one after the other; false as soon as one cannot be played. */
async function playInTurn(hrefs: string[]): Promise<boolean> {
  // All are created (and start loading) at once, so there is no gap between words.
  const clips = hrefs.map((href) => {
    const audio = new Audio(href)
    audio.preload = 'auto'
    return audio
  })
  for (const clip of clips) if (!(await playToEnd(clip))) return false
  return true
}

function playToEnd(audio: HTMLAudioElement): Promise<boolean> {
  return new Promise((resolve) => {
    let done = false
    const finish = (ok: boolean) => {
      if (done) return
      done = true
      clearTimeout(limit)
      resolve(ok)
    }
    const limit = setTimeout(() => {
      audio.pause()
      finish(false)
    }, CLIP_LIMIT_MS)
    audio.addEventListener('ended', () => finish(true))
    audio.addEventListener('error', () => finish(false))
    audio.play().catch(() => finish(false))
  })
}
