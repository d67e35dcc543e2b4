/**
 * The fixed-offset IANA zone where it is now about midday (Etc/GMT-N is UTC+N: POSIX signs).
 * Browser tests that book "the first free slot today" against the real clock put their location
 * there, so today still has free slots whenever the suite runs: in Europe/Berlin none is left
 * after 23:45, which failed the CI run of 2026-12-01 at 22:50 UTC.
 */
export function zoneAtMidday(now = new Date()): string {
  const offset = 12 - now.getUTCHours() // −11 … +12, within Etc/GMT+12 … Etc/GMT-14
  return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`
}
