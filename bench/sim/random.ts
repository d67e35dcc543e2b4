/** A seeded PRNG (mulberry32): the same seed gives the same branch day on every machine. */
export class SeededRandom {
  private state: number
  constructor(seed: number) {
    this.state = seed >>> 0
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  /** Exponential with `rate` events per unit (inter-arrival times of a Poisson process). */
  exponential(rate: number): number {
    return -Math.log(1 - this.next()) / rate
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next()
    const v = this.next()
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)
  }

  /** Log-normal with the given median and σ of its logarithm: long-tailed service times. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal())
  }
}
