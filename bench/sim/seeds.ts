#!/usr/bin/env bun
/**
 * `bun bench/sim/seeds.ts [scenario substring] [seeds] [first seed offset]`: contract §19's two
 * bars per seed, one line per seed (MAE, Part one's MAE, their ratio, MdAPE > 5 min and its ticket
 * count, whether both bars are met), for comparing a change of the estimator seed by seed.
 */
import { simulateBranchDay } from './branch-day'
import { accuracyOf } from './metrics'
import { SCENARIOS } from './scenarios'

const pick = process.argv[2] ?? ''
const seeds = Number(process.argv[3] ?? 10)
const first = Number(process.argv[4] ?? 0)

for (const scenario of SCENARIOS.filter((s) => s.name.includes(pick))) {
  let met = 0
  const cells: string[] = []
  const pooledProduction: { estimateSeconds: number; realWaitSeconds: number }[] = []
  const pooledPartOne: { estimateSeconds: number; realWaitSeconds: number }[] = []
  for (let k = first; k < first + seeds; k++) {
    const outcome = simulateBranchDay({ ...scenario, seed: scenario.seed + 1000 * k })
    const production = accuracyOf(outcome.called.map((r) => ({ estimateSeconds: r.productionEstimateSeconds, realWaitSeconds: r.realWaitSeconds })))
    const partOne = accuracyOf(outcome.called.map((r) => ({ estimateSeconds: r.partOneEstimateSeconds, realWaitSeconds: r.realWaitSeconds })))
    for (const r of outcome.called) {
      pooledProduction.push({ estimateSeconds: r.productionEstimateSeconds, realWaitSeconds: r.realWaitSeconds })
      pooledPartOne.push({ estimateSeconds: r.partOneEstimateSeconds, realWaitSeconds: r.realWaitSeconds })
    }
    const ratio = production.meanAbsoluteErrorSeconds / partOne.meanAbsoluteErrorSeconds
    const mdape = production.medianApeOver5MinPercent ?? 0
    const ok = ratio <= 0.5 && mdape < 30
    if (ok) met++
    cells.push(`${scenario.seed + 1000 * k}: ${Math.round(production.meanAbsoluteErrorSeconds)}/${Math.round(partOne.meanAbsoluteErrorSeconds)}=${ratio.toFixed(2)} ${Math.round(mdape)}%(${production.ticketsOver5Min})${ok ? '' : ' ✗'}`)
  }
  const pooled = accuracyOf(pooledProduction)
  const pooledOne = accuracyOf(pooledPartOne)
  const pooledRatio = pooled.meanAbsoluteErrorSeconds / pooledOne.meanAbsoluteErrorSeconds
  console.log(`${scenario.name}: ${met} of ${seeds}\n  ${cells.join('\n  ')}`)
  console.log(`  all ${seeds} days as one: MAE ${Math.round(pooled.meanAbsoluteErrorSeconds)}/${Math.round(pooledOne.meanAbsoluteErrorSeconds)}=${pooledRatio.toFixed(2)} MdAPE > 5 min ${Math.round(pooled.medianApeOver5MinPercent ?? 0)}%(${pooled.ticketsOver5Min}), Part one ${Math.round(pooledOne.medianApeOver5MinPercent ?? 0)}%`)
}
