#!/usr/bin/env bun
/**
 * `bun bench/sim/diagnose.ts [scenario substring] [seeds] [first seed offset]`: contract §19's error breakdown per
 * ticket, grouped by hour of issue. For every called ticket it sets what the estimator knew at
 * issue (the line's waiting count, the open counters serving it, the learned average) beside
 * what really happened until its call: how many calls of its line came first (those waiting at
 * issue, and those that jumped ahead: priority tickets issued later, requeued tickets called
 * again, tickets transferred in), the mean counter time of the calls its counters made meanwhile
 * (call → release, whatever the outcome), and the time-weighted number of its counters open.
 */
import { simulateBranchDay, type BranchDayOutcome } from './branch-day'
import { SCENARIOS } from './scenarios'

const pick = process.argv[2] ?? ''
const seeds = Number(process.argv[3] ?? 1)
/** The first seed's offset: seeds scenario.seed + 1,000 × (offset … offset + seeds − 1). */
const offset = Number(process.argv[4] ?? 0)

interface Row { issuedAt: number; hour: number; real: number; error: number; ahead: number; aheadCalled: number; prio: number; requeue: number; transfer: number; avg: number; hold: number; c0: number; cReal: number; otherService: number }

function breakdown(outcome: BranchDayOutcome, counterServices: Map<string, string[]>): Row[] {
  const { trace } = outcome
  const issued = new Map(outcome.called.map((t) => [t.ticketId, t]))
  const callCount = new Map<string, number>()
  const nth = trace.calls.map((c) => {
    const k = (callCount.get(c.ticketId) ?? 0) + 1
    callCount.set(c.ticketId, k)
    return k
  })
  const rows: Row[] = []
  for (const t of outcome.called) {
    const t0 = t.issuedAt
    const t1 = t0 + t.realWaitSeconds * 1000
    const info = trace.issues.get(t.ticketId)!
    const mine = [...counterServices].filter(([, s]) => s.includes(t.serviceId)).map(([id]) => id)
    let aheadCalled = 0, prio = 0, requeue = 0, transfer = 0, otherService = 0
    let holdSum = 0, holdN = 0
    trace.calls.forEach((c, i) => {
      if (c.at < t0 || c.at >= t1 || c.ticketId === t.ticketId) return
      if (mine.includes(c.counterId) && c.releasedAt > 0) { holdSum += c.releasedAt - c.at; holdN++ }
      if (c.serviceId !== t.serviceId) { if (mine.includes(c.counterId)) otherService++; return }
      const origin = issued.get(c.ticketId)
      if (nth[i]! > 1) { if (origin?.serviceId === c.serviceId) requeue++; else transfer++ }
      else if (origin === undefined || origin.serviceId !== c.serviceId) transfer++
      else if (origin.issuedAt > t0) prio++
      else aheadCalled++
    })
    // Time-weighted open counters serving the service over [t0, t1].
    let cReal = info.openCounters
    if (t1 > t0) {
      let area = 0
      for (const id of mine) {
        let open = false
        for (const ch of trace.counterChanges) if (ch.counterId === id && ch.at <= t0) open = ch.open
        let at = t0
        for (const ch of trace.counterChanges) {
          if (ch.counterId !== id || ch.at <= t0 || ch.at >= t1) continue
          if (open) area += ch.at - at
          open = ch.open
          at = ch.at
        }
        if (open) area += t1 - at
      }
      cReal = area / (t1 - t0)
    }
    rows.push({ issuedAt: t0, hour: new Date(t0).getUTCHours(), real: t.realWaitSeconds, error: t.productionEstimateSeconds - t.realWaitSeconds, ahead: info.waitingAhead, aheadCalled, prio, requeue, transfer, avg: info.averageSeconds, hold: holdN ? holdSum / holdN / 1000 : NaN, c0: info.openCounters, cReal, otherService })
  }
  return rows
}

const mean = (xs: number[]) => { const v = xs.filter(Number.isFinite); return v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN }
const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '–')

for (const scenario of SCENARIOS.filter((s) => s.name.includes(pick))) {
  const counterServices = new Map(scenario.counters.map((c) => [c.id, c.services]))
  for (let k = offset; k < offset + seeds; k++) {
    const seed = scenario.seed + 1000 * k
    const outcome = simulateBranchDay({ ...scenario, seed })
    const rows = breakdown(outcome, counterServices)
    if (process.env.DIAG_USUAL) {
      // The usual day from 10:00 to 17:00, one character per 10-minute slot: P present, a away, . unknown.
      for (const [id, slots] of outcome.trace.usualSlots) console.log(`${id} 10:00 ${[...slots.slice(60, 102)].map((v) => (v === 1 ? 'P' : v === 2 ? 'a' : '.')).join('')} 17:00`)
      for (const ch of outcome.trace.counterChanges) console.log(`  ${new Date(ch.at).toISOString().slice(11, 16)} ${ch.counterId} ${ch.open ? 'opens' : 'closes'}`)
    }
    if (process.env.DIAG_TICKETS) {
      // Every ticket that waited over 5 minutes (the MdAPE bar's tickets), one line each.
      console.log(`\n${scenario.name} seed ${seed}, waits over 5 min: issued · real · estimate · APE · waiting at issue · called first · jumped (priority, requeued, transferred, other service) · counters at issue · really · avg used · real hold`)
      for (const r of rows.filter((x) => x.real > 300)) {
        console.log(`  ${new Date(r.issuedAt).toISOString().slice(11, 16)} ${f(r.real)} ${f(r.real + r.error)} ${f((100 * Math.abs(r.error)) / r.real)}% ${r.ahead} ${r.aheadCalled} (${r.prio}, ${r.requeue}, ${r.transfer}, ${r.otherService}) ${r.c0} ${f(r.cReal, 2)} ${f(r.avg)} ${f(r.hold)}`)
      }
    }
    console.log(`\n${scenario.name} seed ${seed}: MAE ${f(mean(rows.map((r) => Math.abs(r.error))))} bias ${f(mean(rows.map((r) => r.error)))}`)
    console.log('| hour | n | MAE | bias | real | waiting at issue | of them called first | priority later | requeued | transferred in | other service | avg used | real hold | counters at issue | counters really |')
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for (let h = 8; h <= 16; h++) {
      const r = rows.filter((x) => x.hour === h)
      if (r.length === 0) continue
      const m = (g: (x: Row) => number, d = 1) => f(mean(r.map(g)), d)
      console.log(`| ${h} | ${r.length} | ${m((x) => Math.abs(x.error), 0)} | ${m((x) => x.error, 0)} | ${m((x) => x.real, 0)} | ${m((x) => x.ahead)} | ${m((x) => x.aheadCalled)} | ${m((x) => x.prio)} | ${m((x) => x.requeue)} | ${m((x) => x.transfer)} | ${m((x) => x.otherService)} | ${m((x) => x.avg, 0)} | ${m((x) => x.hold, 0)} | ${m((x) => x.c0)} | ${m((x) => x.cReal, 2)} |`)
    }
  }
}
