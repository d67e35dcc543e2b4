import { integerFlag } from './args'
import type { Limits } from '../platform/limits'
import { MiB } from '../platform/body'

/** The flags of `serve` (and `demo`) that change the limits of docs/reliability.md "Limits". */
export const limitFlags = {
  'ws-per-credential': { type: 'string' },
  'ws-max': { type: 'string' },
  'body-memory-mib': { type: 'string' },
} as const

export const limitsHelp = `Limits (docs/reliability.md): --ws-per-credential N (LOBBY_WS_PER_CREDENTIAL, 50) open
display websockets per token or device; --ws-max N (LOBBY_WS_MAX, 2000) in all;
--body-memory-mib N (LOBBY_BODY_MEMORY_MIB, 64) request bodies held in flight, 503 beyond.`

type LimitFlagValues = { [K in keyof typeof limitFlags]?: string }

export function limitsFrom(flags: LimitFlagValues): Partial<Limits> {
  const perCredential = integerFlag(flags['ws-per-credential'] ?? process.env.LOBBY_WS_PER_CREDENTIAL, 'ws-per-credential', 1, 100_000)
  const total = integerFlag(flags['ws-max'] ?? process.env.LOBBY_WS_MAX, 'ws-max', 1, 1_000_000)
  const bodyMiB = integerFlag(flags['body-memory-mib'] ?? process.env.LOBBY_BODY_MEMORY_MIB, 'body-memory-mib', 1, 65_536)
  return {
    ...(perCredential !== undefined ? { socketsPerCredential: perCredential } : {}),
    ...(total !== undefined ? { socketsTotal: total } : {}),
    ...(bodyMiB !== undefined ? { bodyBytesInFlight: bodyMiB * MiB } : {}),
  }
}
