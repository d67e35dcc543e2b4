#!/usr/bin/env bun
/**
 * `bun bench/simulate.ts` (or `BENCH_ONLY=estimates bun run bench`): contract §19's accuracy
 * measurement. Runs every scenario of bench/sim/scenarios.ts (a seeded branch day against the
 * real ticket code in virtual time, bench/sim/branch-day.ts) and reports, per scenario, the
 * production estimate at issue (what the kiosk shows) and Part one's formula against the real
 * waits; writes its own section of bench/RESULTS.md (BENCH_OUT elsewhere, SIM_NO_WRITE=1 not at all),
 * and with SIM_TICKETS=dir every called ticket's figures, one CSV per scenario, for a closer look.
 * SIM_SEEDS=n (default 5, 0: none) runs every scenario again on n seeds for the spread table.
 * The hand-written analysis under the figures is bench/sim/analysis.md, included verbatim.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { simulateBranchDay, type BranchDayOutcome, type Scenario } from './sim/branch-day'
import { accuracyOf, type AccuracyFigures } from './sim/metrics'
import { SCENARIOS } from './sim/scenarios'
import { currentSection, writeSection } from './sections'

const RESULTS = process.env.BENCH_OUT ?? join(import.meta.dir, 'RESULTS.md')
const START = '<!-- estimates: written by bench/simulate.ts -->'
const END = '<!-- /estimates -->'
const SECTION = { file: RESULTS, start: START, end: END }

export interface EstimatorFigures {
  production: AccuracyFigures
  partOne: AccuracyFigures
}

/** Both estimators' figures over called tickets (one simulated day's, or several days' as one pool). */
export function figuresOf(called: BranchDayOutcome['called']): EstimatorFigures {
  return {
    production: accuracyOf(called.map((r) => ({ estimateSeconds: r.productionEstimateSeconds, realWaitSeconds: r.realWaitSeconds }))),
    partOne: accuracyOf(called.map((r) => ({ estimateSeconds: r.partOneEstimateSeconds, realWaitSeconds: r.realWaitSeconds }))),
  }
}

const whole = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : '–')
const percent = (n: number | null) => (n === null ? '–' : `${Math.round(n)} %`)
const signed = (n: number) => (Number.isFinite(n) ? `${n >= 0 ? '+' : '−'}${whole(Math.abs(n))}` : '–')

function row(name: string, estimator: string, f: AccuracyFigures): string {
  return `| ${name} | ${estimator} | ${f.tickets} | ${whole(f.meanAbsoluteErrorSeconds)} | ${percent(f.medianApeOver5MinPercent)} (${f.ticketsOver5Min}) | ${percent(f.medianApePercent)} | ${whole(f.p90AbsoluteErrorSeconds)} | ${signed(f.biasSeconds)} |`
}

function describe(s: Scenario): string {
  const services = s.services.map((v) => `${v.id} (arrivals/h ${v.arrivalsPerHour.join('·')}, service median ${v.medianServiceSeconds} s σ ${v.sigma}, default ${v.defaultServiceSeconds} s, priority ${Math.round(v.priorityShare * 100)} %)`).join('; ')
  const hour = (h: number) => `${String(Math.floor(h)).padStart(2, '0')}:${String(Math.round((h % 1) * 60)).padStart(2, '0')}`
  const counters = s.counters.map((c) => `${c.id} [${c.services.map((id) => id.replace('svc_', '')).join(', ')}] ${hour(c.opens)}–${hour(c.closes)}${c.breaks.map((b) => `, break ${hour(b.at)} ${b.minutes} min`).join('')}`).join('; ')
  const policy = s.priority.mode === 'FIRST' ? 'FIRST' : `INTERLEAVE ${s.priority.normalPerPriority}`
  return `- **${s.name}** (seed ${s.seed}, ${s.warmUpWeeks} warm-up weeks, priority ${policy}, no-show ${Math.round(s.noShowShare * 100)} % and requeue FIRST ${Math.round(s.requeueShare * 100)} % after ${s.noShowGraceSeconds} s, transfers ${Math.round(s.transferShare * 100)} %): ${services}. Counters: ${counters}.`
}

function gitDescription(): string {
  // The last commit that changed src/: the code measured (bench/ changes do not change the estimates).
  const head = Bun.spawnSync(['git', 'log', '-1', '--format=%h', '--', 'src'], { cwd: join(import.meta.dir, '..') }).stdout.toString().trim()
  const dirty = Bun.spawnSync(['git', 'status', '--porcelain', '--', 'src'], { cwd: join(import.meta.dir, '..') }).stdout.toString().trim() !== ''
  return dirty ? `${head} with uncommitted changes in src/` : head
}

/** One scenario's called tickets as CSV: what each estimator said at issue and the real wait, seconds. */
function ticketsCsv(outcome: BranchDayOutcome): string {
  const header = 'ticket_id,service_id,priority,issued_at,production_estimate_s,part_one_estimate_s,real_wait_s'
  const rows = outcome.called.map((t) => [t.ticketId, t.serviceId, t.priority ? 1 : 0, new Date(t.issuedAt).toISOString(), t.productionEstimateSeconds, t.partOneEstimateSeconds, t.realWaitSeconds].join(','))
  return [header, ...rows].join('\n') + '\n'
}

/** How many seeds the spread table runs per scenario (the scenario's own seed and the next ones, +1,000 each). */
const SPREAD_SEEDS = Number(process.env.SIM_SEEDS ?? 5)

const range = (values: number[], format: (n: number) => string) => {
  const sorted = [...values].sort((a, b) => a - b)
  return `${format(sorted[0]!)} · ${format(sorted[Math.floor(sorted.length / 2)]!)} · ${format(sorted.at(-1)!)}`
}

/**
 * The same scenarios on `SPREAD_SEEDS` seeds: min · median · max over the seeds of the MAE
 * ratio (production / Part one) and of production's MdAPE > 5 min, and how many seeds meet the
 * done-when bars (ratio ≤ 0.5 and MdAPE < 30 %).
 */
function spreadRows(): string[] {
  return SCENARIOS.map((scenario) => {
    const ratios: number[] = []
    const mdapes: number[] = []
    const maes: number[] = []
    const pooled: BranchDayOutcome['called'] = []
    let met = 0
    for (let k = 0; k < SPREAD_SEEDS; k++) {
      const outcome = simulateBranchDay({ ...scenario, seed: scenario.seed + 1000 * k })
      pooled.push(...outcome.called)
      const figures = figuresOf(outcome.called)
      const ratio = figures.production.meanAbsoluteErrorSeconds / figures.partOne.meanAbsoluteErrorSeconds
      const mdape = figures.production.medianApeOver5MinPercent ?? 0
      ratios.push(ratio)
      mdapes.push(mdape)
      maes.push(figures.production.meanAbsoluteErrorSeconds)
      if (ratio <= 0.5 && mdape < 30) met++
    }
    // Every seed's tickets as one pool: the scenario as a kind of day rather than one day of it.
    const all = figuresOf(pooled)
    const pooledRatio = all.production.meanAbsoluteErrorSeconds / all.partOne.meanAbsoluteErrorSeconds
    return `| ${scenario.name} | ${SPREAD_SEEDS} | ${range(maes, whole)} | ${range(ratios, (n) => n.toFixed(2))} | ${range(mdapes, (n) => percent(n))} | ${met} of ${SPREAD_SEEDS} | ${pooledRatio.toFixed(2)} | ${percent(all.production.medianApeOver5MinPercent)} (${all.production.ticketsOver5Min}) · ${percent(all.partOne.medianApeOver5MinPercent)} |`
  })
}

export function runEstimateBench(write = process.env.SIM_NO_WRITE !== '1'): string {
  const started = performance.now()
  const lines: string[] = []
  const counts: string[] = []
  for (const scenario of SCENARIOS) {
    const outcome = simulateBranchDay(scenario)
    const figures = figuresOf(outcome.called)
    const ticketsDir = process.env.SIM_TICKETS
    if (ticketsDir) {
      mkdirSync(ticketsDir, { recursive: true })
      writeFileSync(join(ticketsDir, `${scenario.name.replaceAll(/[^a-z0-9]+/gi, '-')}.csv`), ticketsCsv(outcome))
    }
    lines.push(row(scenario.name, 'production', figures.production), row('', 'Part one', figures.partOne))
    counts.push(`| ${scenario.name} | ${outcome.issued} | ${outcome.priorityIssued} | ${outcome.called.length} | ${outcome.called.filter((t) => t.realWaitSeconds === 0).length} | ${outcome.leftAtClose} | ${outcome.noShows} | ${outcome.requeues} | ${outcome.transfers} | ${outcome.completed} |`)
  }
  const spread = SPREAD_SEEDS > 0 ? spreadRows() : []
  const seconds = (performance.now() - started) / 1000
  const section = `${START}
## Wait estimates (contract §19)

\`bun bench/simulate.ts\` (or \`BENCH_ONLY=estimates bun run bench\`), src/ at ${gitDescription()}, ${SCENARIOS.length} scenarios in ${seconds.toFixed(1)} s of wall time.
Each scenario is one seeded branch day (bench/sim/scenarios.ts), after the same weekday of its warm-up
weeks (run, not measured, with the daily close between), in virtual time against the real ticket and
counter code (bench/sim/branch-day.ts): an in-memory database, tickets issued through the Queue service as
a kiosk issues them, counters calling through the counters service's call-next with the unit's priority
policy, then start and complete, no-show or requeue FIRST after the grace, or transfer. For every ticket
the simulator records, at issue, **production** = \`deps.tickets.placeInLine\` of the new ticket (the
kiosk's figure) and **Part one** = ceil((waiting + 1) / max(open counters, 1)) × average, computed by the
simulator from the same moment's line (WAITING tickets before the new one, open counters serving the
service, Part one's moving average of the service's completions, kept by the simulator, else
\`defaultServiceSeconds\`), and the real wait = issue → first call. Tickets never called (left at close)
are excluded and counted. The estimator learns the usual day from the warm-up weeks (contract §19).
Per-ticket records: \`SIM_TICKETS=dir bun bench/simulate.ts\` writes one CSV per scenario there.

Errors are estimate − real, in seconds. MdAPE > 5 min: median |error| / real wait over tickets that waited
more than 5 minutes (their count in brackets); MdAPE all: median |error| / max(real wait, 60 s) over every
called ticket. Bias > 0: the estimate promised longer waits than happened.

| Scenario | Estimator | Tickets | MAE (s) | MdAPE > 5 min | MdAPE all | P90 \\|error\\| (s) | Bias (s) |
|---|---|---:|---:|---:|---:|---:|---:|
${lines.join('\n')}

Over seeds (the scenario's seed, then +1,000, +2,000, …), min · median · max of the per-day figures, and
the same bars over every seed's tickets taken as one pool (a quiet day has 1–20 waits over 5 minutes,
so one day's median of them moves 12–79 % from seed to seed, for either estimator):

| Scenario | Seeds | Production MAE (s) | MAE production / Part one | Production MdAPE > 5 min | Seeds meeting both bars | All seeds as one: MAE ratio | All seeds as one: MdAPE > 5 min, production · Part one |
|---|---:|---:|---:|---:|---:|---:|---:|
${spread.join('\n')}

| Scenario | Issued | Priority issued | Called | Called at once (0 s) | Left at close | No-shows | Requeues | Transfers | Completed |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${counts.join('\n')}

Scenarios (branch on UTC, doors 08:30, hourly arrival rates from 08:30, counters till 17:00, customers
walk up 30 s after a call):

${SCENARIOS.map(describe).join('\n')}

${readFileSync(join(import.meta.dir, 'sim', 'analysis.md'), 'utf8').trim()}
${END}`
  if (write) writeSection(SECTION, section)
  return section
}

/** The estimates section now in RESULTS.md, for run.ts to keep when it writes the file again. */
export function currentEstimatesSection(): string {
  return currentSection(SECTION)
}

if (import.meta.main) {
  const section = runEstimateBench()
  console.log(section)
}
