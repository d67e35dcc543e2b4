/**
 * Range reads of reports kept as their JSON text per roll-up revision (contract §23 "Expensive
 * reads"): the roll-ups change only with tickets, and every ticket change commits through the
 * app's writes (or another process's commit), which moves `changes`. An answer is reused while
 * `changes` has not moved and for at most `maxAgeMs` (a business day can begin without a write);
 * everything is dropped when it moves. Bounded: at most `maxEntries` answers, the oldest first out.
 */
export class ReportCache {
  private revision = Number.NaN
  private readonly entries = new Map<string, { text: string; at: number }>()

  constructor(
    private readonly changes: { current(): number },
    private readonly maxEntries = 256,
    private readonly maxAgeMs = 60_000,
  ) {}

  /** The answer for `key`, computed by `compute` when not kept; a throw is never kept. */
  text(key: string, now: number, compute: () => string): string {
    const revision = this.changes.current()
    if (revision !== this.revision) {
      this.entries.clear()
      this.revision = revision
    }
    const kept = this.entries.get(key)
    if (kept !== undefined && now - kept.at < this.maxAgeMs && now >= kept.at) return kept.text
    const text = compute()
    this.entries.delete(key)
    this.entries.set(key, { text, at: now })
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string)
    return text
  }
}
