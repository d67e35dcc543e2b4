/** Used when neither completions nor the service say otherwise (contract §3). */
export const DEFAULT_SERVICE_SECONDS = 300

/**
 * Contract §3: `estimatedWaitSeconds` = ceil((waiting ahead + 1) / max(open counters, 1))
 * × average service seconds. Inputs come from `service_stats` and one grouped count of open
 * counters, never from a scan of the ticket history.
 */
export function estimatedWaitSeconds(waitingAhead: number, openCounters: number, averageServiceSeconds: number): number {
  return Math.ceil((Math.max(waitingAhead, 0) + 1) / Math.max(openCounters, 1)) * Math.max(averageServiceSeconds, 0)
}

/** The average from recent completions when there is one, else the service's default. */
export function averageServiceSeconds(recentAverage: number | null | undefined, serviceDefault: number | null | undefined): number {
  return recentAverage ?? serviceDefault ?? DEFAULT_SERVICE_SECONDS
}
