import { Elysia } from 'elysia'
import { createDeps, type AppDeps, type DepsInput } from './root/deps'
import { composeServices } from './root/services'
import { httpPlatform } from './platform/http'
import { corsPlugin } from './platform/cors'
import { openapiPlugin, healthDetail } from './platform/openapi'
import { VERSION } from './version'
import { widgetRoutes } from './widgets/routes'
import { prayerRoutes } from './prayer/routes'
import { queueRoutes } from './queue/routes'
import { counterRoutes } from './counters/routes'
import { DISPLAY_CORS, displayRoutes } from './display/routes'
import { screenRoutes } from './screens/routes'
import { httpMetricsObserver, opsRoutes } from './ops/routes'
import { deviceRoutes } from './devices/routes'
import { deskRoutes } from './desk/routes'
import { faviconRoute } from './platform/favicon'
import { voiceRoutes } from './voice/routes'
import { kioskRoutes } from './kiosk/routes'
import { phoneRoutes } from './phone/routes'
import { joinRoutes } from './join/routes'
import { reportRoutes } from './reports/routes'
import { peopleRoutes } from './people/routes'
import { manageRoutes } from './manage/routes'
import { webhooksDoc } from './webhooks'
import { adminRoutes } from './admin/routes'
import { appointmentRoutes } from './appointments/routes'
import { notificationRoutes } from './notifications/routes'
import { admissionPlugin } from './access'

export type App = ReturnType<typeof createApp>

/**
 * The whole HTTP app with its dependencies injected: the composition root's HTTP half
 * (src/root/ builds the deps and every service once, and registers hooks and tasks). Tests
 * drive it with `app.handle(new Request('http://localhost/...'))`; `serve` hands it to Bun.
 * Building it starts nothing. The platform comes first so its error and log hooks cover
 * every feature route.
 */
export function createApp(input: DepsInput | AppDeps) {
  const deps = createDeps(input)
  const services = composeServices(deps)
  const { queue, devices } = services
  // The one admission's macros, built once and handed to every route plugin that takes a credential.
  const access = admissionPlugin(services.admission)
  return new Elysia({ normalize: false })
    .use(httpPlatform(deps.log, deps.clients, () => deps.clock.now(), { answered: httpMetricsObserver(deps.metrics), pathHeaders: [DISPLAY_CORS] }))
    .use(corsPlugin(deps.corsOrigins, VERSION))
    .use(opsRoutes(deps))
    .use(openapiPlugin(VERSION, webhooksDoc))
    .get('/health', () => ({ status: 'ok' }), { detail: healthDetail })
    .use(faviconRoute())
    .use(prayerRoutes(deps))
    .use(widgetRoutes(deps))
    .use(queueRoutes(deps, { queue, reads: services.queueReads, access }))
    .use(counterRoutes(deps, { counters: services.counters, access }))
    .use(displayRoutes(deps, { hub: services.liveHub, access, admission: services.admission }))
    .use(screenRoutes(deps))
    .use(deviceRoutes(deps, { devices, access }))
    .use(deskRoutes(deps, { desk: services.desk, access }))
    .use(voiceRoutes(deps, { access }))
    .use(kioskRoutes(deps, { kiosk: services.kiosk, devices, access }))
    .use(phoneRoutes(deps, { phone: services.phone, phoneActions: services.phoneActions, phoneWaits: services.phoneWaits }))
    .use(joinRoutes(deps, { join: services.join, notifications: services.notifications }))
    .use(notificationRoutes(deps, { notifications: services.notifications }))
    .use(reportRoutes(deps, { reports: services.reports, summaries: services.reportSummaries, staff: services.staffReport, feedback: services.feedbackReport, people: services.people, devices, reportCache: services.reportCache, access }))
    .use(peopleRoutes(deps, { people: services.people, access }))
    .use(manageRoutes(deps, { manage: services.manage, people: services.people, access, admission: services.admission }))
    .use(adminRoutes(deps, { people: services.people, branch: services.branch, devices, admin: services.admin, notifications: services.notifications, access }))
    .use(appointmentRoutes(deps, { appointments: services.appointments, kiosk: services.kiosk, access }))
    // The live floor, which `serve` hands head office's link (contract §26), is decorated by
    // manageRoutes already: decorating it here again made Elysia deep-merge the service into
    // itself, walking every object it reaches (about half of the start's CPU, issue 50).
    .decorate('deps', deps)
    // `serve` asks it for a first administrator's setup link (contract §24) once it listens.
    .decorate('people', services.people)
}
