import { availableParallelism, loadavg } from 'node:os'

/**
 * How long a live page may take to show a change: `contractMs` (1 s: contract §8, §17, §22) on a machine no
 * busier than its cores, stretched by how far the last minute's load is over them (at most 3×).
 * The bound is for the branch's box, which runs Lobby alone; a test machine running two browsers,
 * the server and other work on 2 cores measured its own queue instead (issue 49: the phone page's
 * 1.5 s missed by 18 ms at load 14). A page that polls instead of being pushed to (every 5 s or
 * more) still fails at 3×.
 */
export function liveMs(contractMs: number): number {
  const overCommitted = loadavg()[0]! / availableParallelism()
  return Math.round(contractMs * Math.min(3, Math.max(1, overCommitted)))
}
