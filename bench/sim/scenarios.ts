import type { CounterSpec, Scenario, ServiceSpec } from './branch-day'

/** A branch day: doors at 08:30, last arrival before 16:30 (8 hourly rates), counters till 17:00. */
const OPEN_HOUR = 8.5
const CLOSE_HOUR = 17

const counter = (id: string, services: string[], breaks: CounterSpec['breaks'] = [], opens = OPEN_HOUR, closes = CLOSE_HOUR): CounterSpec => ({ id, services, opens, closes, breaks })

const accounts = (arrivalsPerHour: number[], priorityShare = 0.05): ServiceSpec => ({
  id: 'svc_accounts', prefix: 'A', defaultServiceSeconds: 300, medianServiceSeconds: 240, sigma: 0.6, arrivalsPerHour, priorityShare,
})
const loans = (arrivalsPerHour: number[], priorityShare = 0.05): ServiceSpec => ({
  id: 'svc_loans', prefix: 'L', defaultServiceSeconds: 600, medianServiceSeconds: 720, sigma: 0.8, arrivalsPerHour, priorityShare,
})
const cash = (arrivalsPerHour: number[], priorityShare = 0.05): ServiceSpec => ({
  id: 'svc_cash', prefix: 'C', defaultServiceSeconds: 180, medianServiceSeconds: 120, sigma: 0.5, arrivalsPerHour, priorityShare,
})

const common = {
  openHour: OPEN_HOUR,
  priority: { mode: 'FIRST' as const },
  noShowShare: 0.05,
  noShowGraceSeconds: 120,
  requeueShare: 0.03,
  walkUpSeconds: 30,
  transferShare: 0,
  warmUpWeeks: 4,
}

/** The scenarios RESULTS.md reports, each with its fixed seed. */
export const SCENARIOS: Scenario[] = [
  {
    ...common, name: 'quiet day', seed: 101,
    services: [accounts([8, 10, 10, 12, 10, 8, 8, 6])],
    counters: [counter('cnt_1', ['svc_accounts'], [{ at: 12, minutes: 30 }]), counter('cnt_2', ['svc_accounts'], [{ at: 13, minutes: 30 }])],
  },
  {
    ...common, name: 'lunch peak', seed: 202,
    services: [accounts([12, 14, 20, 44, 46, 22, 14, 10])],
    counters: [
      counter('cnt_1', ['svc_accounts'], [{ at: 11, minutes: 20 }]),
      counter('cnt_2', ['svc_accounts'], [{ at: 14.5, minutes: 20 }]),
      counter('cnt_3', ['svc_accounts'], [], 11.5, 14.5),
    ],
  },
  {
    ...common, name: 'one counter on a long break', seed: 303,
    services: [accounts([22, 24, 26, 26, 26, 24, 22, 18])],
    counters: [
      counter('cnt_1', ['svc_accounts'], [{ at: 10.5, minutes: 120 }]),
      counter('cnt_2', ['svc_accounts'], [{ at: 12.5, minutes: 30 }]),
      counter('cnt_3', ['svc_accounts'], [{ at: 13.5, minutes: 30 }]),
    ],
  },
  {
    ...common, name: 'mixed services on shared counters', seed: 404, transferShare: 0.05,
    services: [accounts([8, 10, 12, 14, 14, 10, 8, 6]), loans([2, 3, 3, 3, 3, 3, 2, 1]), cash([10, 14, 18, 20, 18, 14, 10, 8])],
    counters: [
      counter('cnt_1', ['svc_accounts', 'svc_loans'], [{ at: 12, minutes: 30 }]),
      counter('cnt_2', ['svc_accounts', 'svc_cash'], [{ at: 12.5, minutes: 30 }]),
      counter('cnt_3', ['svc_cash'], [{ at: 13, minutes: 30 }]),
      counter('cnt_4', ['svc_loans', 'svc_accounts', 'svc_cash'], [{ at: 13.5, minutes: 30 }]),
    ],
  },
  {
    ...common, name: 'priority-heavy', seed: 505,
    priority: { mode: 'INTERLEAVE', normalPerPriority: 2 },
    services: [accounts([24, 26, 28, 30, 30, 28, 24, 18], 0.3)],
    counters: [
      counter('cnt_1', ['svc_accounts'], [{ at: 12, minutes: 30 }]),
      counter('cnt_2', ['svc_accounts'], [{ at: 12.5, minutes: 30 }]),
      counter('cnt_3', ['svc_accounts'], [{ at: 13, minutes: 30 }]),
    ],
  },
]

/** A tiny day for the test: one service, one counter, two hours. */
export const TINY_SCENARIO: Scenario = {
  ...common, name: 'tiny', seed: 7, transferShare: 0.1, warmUpWeeks: 1,
  services: [accounts([10, 10], 0.2), cash([6, 6])],
  counters: [counter('cnt_1', ['svc_accounts', 'svc_cash'], [{ at: 9.25, minutes: 15 }], OPEN_HOUR, 11)],
}
