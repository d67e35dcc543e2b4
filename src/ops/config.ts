import { UsageError } from '../platform/usage-error'
import { DEFAULT_RETAIN_DAYS } from './retention'

/** `--retain-days N` / `LOBBY_RETAIN_DAYS`: whole days, at least 1 (default 400). */
export function retainDaysOption(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_RETAIN_DAYS
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 36_500) {
    throw new UsageError('--retain-days must be a whole number of days between 1 and 36500')
  }
  return Number(value)
}

/**
 * `--metrics-token T` / `LOBBY_METRICS_TOKEN`: opens `/metrics` to callers other than loopback
 * with `Authorization: Bearer T`. At least 16 visible characters, so it cannot be guessed.
 */
export function metricsTokenOption(value: string | undefined): string | null {
  if (value === undefined || value === '') return null
  if (!/^[\x21-\x7e]{16,256}$/.test(value)) {
    throw new UsageError('--metrics-token must be 16 to 256 visible ASCII characters (e.g. openssl rand -hex 32)')
  }
  return value
}
