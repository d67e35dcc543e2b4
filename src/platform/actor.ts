import type { Credential } from './credentials'

/*
 * Who made a change (contract §16 "Attribution"): every ticket event, audit entry and webhook
 * carries `actor: {type, id}`. Stored as one text column, `type:id` (the first colon splits:
 * a device name may hold colons, a type never does), so the ticket history, its replication
 * to head office and the report roll-ups carry it without a second column.
 */

export const ACTOR_TYPES = ['clerk', 'user', 'device', 'key', 'customer', 'system'] as const
export type ActorType = (typeof ACTOR_TYPES)[number]

export interface Actor {
  type: ActorType
  /** clerk and user: the username; device: the device name; key: the credential ID; customer: the ticket ID; system: what ran. */
  id: string
}

/** The daily close (contract §3, §16): the one change no person or device made. */
export const DAILY_CLOSE_ACTOR: Actor = { type: 'system', id: 'daily-close' }

export function encodeActor(actor: Actor): string {
  return `${actor.type}:${actor.id}`
}

/**
 * The stored text back as an actor. Rows written before actors had a type (Part two) held a
 * credential ID or `system`; migration 0012 rewrote them, and anything else unreadable is
 * shown as a key with the stored text as its ID rather than failing a history read.
 */
export function decodeActor(stored: string): Actor {
  const colon = stored.indexOf(':')
  const type = colon > 0 ? stored.slice(0, colon) : ''
  if ((ACTOR_TYPES as readonly string[]).includes(type)) return { type: type as ActorType, id: stored.slice(colon + 1) }
  return stored === 'system' ? DAILY_CLOSE_ACTOR : { type: 'key', id: stored }
}

/** The prefix every paired device's credential name carries (`device/<name>`: no key name holds a `/`). */
export const DEVICE_NAME_PREFIX = 'device/'

/**
 * Who a request's credential is, as an actor: a desk with a clerk signed in is that clerk
 * (username); another device is its name; a key is its credential ID (a key's name may be
 * reused after a revocation, its ID never).
 */
export function actorOf(caller: Credential): Actor {
  if (caller.clerk) return { type: 'clerk', id: caller.clerk.username }
  if (caller.kind === 'device') {
    return { type: 'device', id: caller.name.startsWith(DEVICE_NAME_PREFIX) ? caller.name.slice(DEVICE_NAME_PREFIX.length) : caller.name }
  }
  return { type: 'key', id: caller.id }
}
