/**
 * A soft two-tone chime made with WebAudio (no sound file to embed). Browsers start audio
 * only after a user gesture unless told otherwise: a kiosk browser is started with
 * `--autoplay-policy=no-user-gesture-required` (docs/screens.md), and any key or tap on the
 * screen unlocks it too.
 */
/** The chime's length: two tones, the second starting 0.45 s in and ringing 1.1 s (see `play`). */
export const CHIME_MS = 1700

export class Chime {
  private context: AudioContext | null = null
  played = 0

  constructor() {
    const unlock = () => void this.audio()?.resume().catch(() => {})
    window.addEventListener('pointerdown', unlock)
    window.addEventListener('keydown', unlock)
  }

  /** Plays the chime; resolves when it has rung out (its length is fixed), so a voice never talks over it. */
  play(): Promise<void> {
    this.played += 1
    document.documentElement.dataset.chimes = String(this.played)
    const audio = this.audio()
    if (audio === null) return Promise.resolve()
    if (audio.state === 'suspended') void audio.resume().catch(() => {})
    const start = audio.currentTime + 0.05
    tone(audio, 784, start, 0.7)
    tone(audio, 587, start + 0.45, 1.1)
    return new Promise((resolve) => setTimeout(resolve, CHIME_MS))
  }

  private audio(): AudioContext | null {
    if (this.context === null) {
      try {
        this.context = new AudioContext()
      } catch {
        return null
      }
    }
    return this.context
  }
}

function tone(audio: AudioContext, frequency: number, start: number, seconds: number): void {
  const oscillator = audio.createOscillator()
  const gain = audio.createGain()
  oscillator.type = 'sine'
  oscillator.frequency.value = frequency
  gain.gain.setValueAtTime(0.0001, start)
  gain.gain.exponentialRampToValueAtTime(0.35, start + 0.02)
  gain.gain.exponentialRampToValueAtTime(0.0001, start + seconds)
  oscillator.connect(gain).connect(audio.destination)
  oscillator.start(start)
  oscillator.stop(start + seconds + 0.05)
}
