import { UsageError } from '../platform/usage-error'

/**
 * `--replicate-to postgres://user:password@host:port/db?sslmode=verify-full` (contract §14),
 * parsed once. The password must never reach a log line, a metric or `lobby status`: everything
 * Lobby shows of the target is `display` (no password, no query), and every message from the
 * driver passes through `redact` before it is shown or stored.
 */
export interface ReplicationTarget {
  /** The connection string as given, for the PostgreSQL client only. */
  readonly url: string
  /** `postgres://user@host:port/db`: what logs and status show, and the key of the cursor. */
  readonly display: string
  /** Removes the password (raw and URL-encoded) from a text. */
  redact(text: string): string
}

/** Parses and checks the connection string; a bad one is a usage error that never repeats the password. */
export function parseReplicationTarget(value: string): ReplicationTarget {
  let parsed: URL
  try {
    parsed = new URL(value)
  } catch {
    throw new UsageError('--replicate-to must be a PostgreSQL URL: postgres://user:password@host:5432/database?sslmode=verify-full')
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new UsageError(`--replicate-to must start with postgres:// or postgresql:// (not ${parsed.protocol}//)`)
  }
  if (parsed.hostname === '') throw new UsageError('--replicate-to needs a host: postgres://user@host:5432/database')
  const encoded = parsed.password
  const secrets = [...new Set([encoded, safeDecode(encoded)].filter((s) => s.length > 0))]
  const user = parsed.username === '' ? '' : `${parsed.username}@`
  const display = `postgres://${user}${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`
  return {
    url: value,
    display,
    redact(text: string): string {
      let out = text.split(value).join(display)
      for (const secret of secrets) out = out.split(secret).join('***')
      return out
    },
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
