import type { Clock } from '../platform/clock'
import type { Credential, CredentialStore } from '../platform/credentials'
import type { RateLimiter } from '../platform/rate-limit'
import type { Device, User } from './principals'

/** What admission reads of the platform: the keys, the clock, the rate windows and `--public-origin`. */
export interface AccessDeps {
  credentials: CredentialStore
  clock: Clock
  limiter: RateLimiter
  publicOrigin?: string | null
}

/**
 * What admission asks the features that own the other credentials, handed in by the
 * composition root (src/root/), so that this folder imports no feature: the paired devices
 * (`DeviceService`), the clerk signed in at a desk (`StaffIntervals`) and the sessions
 * (`PeopleService`).
 */
export interface AccessPorts {
  devices: {
    authenticate(store: CredentialStore, secret: string | null, now: number): Device | null
    /** The services a desk's counter serves now. */
    counterServiceIds(counterId: string): string[]
  }
  staff: { deskClerk(queueUnitId: string, counterId: string): { required: boolean; clerk: Credential['clerk'] } }
  people: { authenticate(sessionId: string | null, now: number): Promise<{ user: User; startedAt: number } | null> }
}
