import type { DisplayDeps } from './deps'
import type { BackgroundTask } from '../platform/lifecycle'
import { LiveHub } from './hub'
import { widgetView, prayerTodayView, queueStateView } from './service'

const HEARTBEAT_MS = 25_000

/**
 * The display feeds' hub, one per app (built by the composition root, src/root/): it reads a
 * topic through the display views. Who publishes to it (the after-commit listeners) and when
 * its timers run (`liveHubTask`) is the root's to register.
 */
export function createLiveHub(deps: DisplayDeps): LiveHub {
  const hub = new LiveHub({
    log: deps.log,
    maxSocketsPerCredential: deps.limits.socketsPerCredential,
    maxSockets: deps.limits.socketsTotal,
    messageBurst: deps.limits.socketMessageBurst,
    messageRefillMs: deps.limits.socketMessageRefillMs,
  })
  hub.register('widget', (id, workspaceId) => widgetView(deps, id, workspaceId))
  hub.register('prayer', (id, workspaceId) => prayerTodayView(deps, id, workspaceId))
  hub.register('queue', (id, workspaceId) => queueStateView(deps, id, workspaceId))
  return hub
}

/** The hub's timers while the server runs: pings, and the re-check of credentials; its sockets are closed first at shutdown. */
export function liveHubTask(hub: LiveHub, recheckMs: number): BackgroundTask {
  let heartbeat: ReturnType<typeof setInterval> | undefined
  let recheck: ReturnType<typeof setInterval> | undefined
  return {
    start: () => {
      heartbeat = setInterval(() => hub.heartbeat(), HEARTBEAT_MS)
      // A revoked token's screens are closed within a second (contract §7), not at the next ping.
      recheck = setInterval(() => hub.recheckCredentials(), recheckMs)
    },
    beforeStop: () => hub.closeAll(),
    stop: () => {
      clearInterval(heartbeat)
      clearInterval(recheck)
    },
  }
}
