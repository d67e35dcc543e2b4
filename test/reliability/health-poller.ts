/**
 * `bun health-poller.ts BASE_URL DURATION_MS INTERVAL_MS`: polls `GET /health` on one
 * keep-alive connection for DURATION_MS, one request every INTERVAL_MS (or as soon as the
 * previous answer came, when slower), and prints one JSON line of latency figures. Run as its
 * own process by the hostile-clients scenario, so the attackers' work cannot delay the clock
 * that measures the server.
 */
const [base, durationArg, intervalArg] = process.argv.slice(2)
if (!base || !durationArg || !intervalArg) {
  console.error('usage: health-poller.ts BASE_URL DURATION_MS INTERVAL_MS')
  process.exit(2)
}
const duration = Number(durationArg)
const interval = Number(intervalArg)
const samples: { at: number; ms: number; error?: string }[] = []
// Warm up (connection, the server's first-request work) before the clock starts.
for (let i = 0; i < 5; i++) await (await fetch(`${base}/health`)).text()
const t0 = performance.now()
const startedAt = Date.now()
while (performance.now() - t0 < duration) {
  const started = performance.now()
  try {
    const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(5_000) })
    const text = await res.text()
    const ms = performance.now() - started
    samples.push(res.status === 200 && text === '{"status":"ok"}' ? { at: started - t0, ms } : { at: started - t0, ms, error: `status ${res.status}` })
  } catch (error) {
    samples.push({ at: started - t0, ms: performance.now() - started, error: String((error as Error)?.message ?? error) })
  }
  const wait = interval - (performance.now() - started)
  if (wait > 0) await Bun.sleep(wait)
}
const sorted = samples.map((s) => s.ms).sort((a, b) => a - b)
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0
const round = (ms: number) => Math.round(ms * 100) / 100
console.log(JSON.stringify({
  startedAt,
  samples: samples.length,
  failures: samples.filter((s) => s.error !== undefined).length,
  maxMs: round(sorted[sorted.length - 1] ?? 0),
  p50Ms: round(pct(0.5)),
  p99Ms: round(pct(0.99)),
  slowest: [...samples].sort((a, b) => b.ms - a.ms).slice(0, 5).map((s) => ({ ...s, at: round(s.at), ms: round(s.ms) })),
}))

export {}
