import { Elysia } from 'elysia'
import { createDeps, type AppDeps, type DepsInput } from './platform/deps'
import { httpPlatform } from './platform/http'
import { corsPlugin } from './platform/cors'
import { openapiPlugin, healthDetail } from './platform/openapi'
import { VERSION } from './version'
import { widgetRoutes } from './widgets/routes'
import { prayerRoutes } from './prayer/routes'
import { queueRoutes } from './queue/routes'
import { QueueService } from './queue/service'
import { counterRoutes } from './counters/routes'
import { displayRoutes } from './display/routes'
import { screenRoutes } from './screens/routes'
import { opsRoutes } from './ops/routes'
import { deviceRoutes } from './devices/routes'
import { deskRoutes } from './desk/routes'
import { faviconRoute } from './platform/favicon'
import { voiceRoutes } from './voice/routes'
import { kioskRoutes } from './kiosk/routes'
import { phoneRoutes } from './phone/routes'
import { reportRoutes } from './reports/routes'

export type App = ReturnType<typeof createApp>

/**
 * The whole HTTP app with its dependencies injected. Tests drive it with
 * `app.handle(new Request('http://localhost/...'))`; `serve` hands it to Bun.
 * The platform comes first so its error and log hooks cover every feature route.
 */
export function createApp(input: DepsInput | AppDeps) {
  const deps = createDeps(input)
  // One Queue service for the public and the operator routes (its statements are prepared once).
  const queue = new QueueService(deps)
  return new Elysia({ normalize: false })
    .use(httpPlatform(deps.log, deps.clients, () => deps.clock.now()))
    .use(corsPlugin(deps.corsOrigins, VERSION))
    .use(opsRoutes(deps))
    .use(openapiPlugin(VERSION))
    .get('/health', () => ({ status: 'ok' }), { detail: healthDetail })
    .use(faviconRoute())
    .use(prayerRoutes(deps))
    .use(widgetRoutes(deps))
    .use(queueRoutes(deps, queue))
    .use(counterRoutes(deps, queue))
    .use(displayRoutes(deps))
    .use(screenRoutes(deps))
    .use(deviceRoutes(deps))
    .use(deskRoutes(deps, queue))
    .use(voiceRoutes(deps))
    .use(kioskRoutes(deps, queue))
    .use(phoneRoutes(deps))
    .use(reportRoutes(deps))
    .decorate('deps', deps)
}
