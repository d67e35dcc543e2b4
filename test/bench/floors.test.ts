import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { appWithout } from '../../bench/floors'

const appSource = await Bun.file(join(import.meta.dir, '..', '..', 'src', 'app.ts')).text()

describe("bench/floors.ts: Lobby's floors rewrite the composition root", () => {
  test('without feature routes: every feature plugin goes, the platform, the OpenAPI plugin and /health stay', () => {
    const rewritten = appWithout(appSource, 'no-feature-routes')
    for (const kept of ['.use(httpPlatform(', '.use(corsPlugin(', '.use(openapiPlugin(', ".get('/health'", '.use(faviconRoute(', 'composeServices(deps)']) expect(rewritten).toContain(kept)
    for (const gone of ['.use(queueRoutes(', '.use(adminRoutes(', '.use(opsRoutes(', '.use(appointmentRoutes(']) {
      expect(appSource).toContain(gone)
      expect(rewritten).not.toContain(gone)
    }
  })

  test('without features: no service is built and nothing refers to one', () => {
    const rewritten = appWithout(appSource, 'no-features')
    expect(rewritten).not.toContain('composeServices(deps)')
    expect(rewritten).not.toMatch(/\bservices\./)
    expect(rewritten).toContain(".decorate('deps', deps)")
  })

  test('a composition root of another shape is refused, not measured', () => {
    expect(() => appWithout("export const createApp = () => new Elysia().get('/health', () => 'ok')", 'no-feature-routes')).toThrow(/feature route plugins/)
    const withoutServicesLine = appSource.replace('  const services = composeServices(deps)\n', '  const services = buildEverything(deps)\n')
    expect(() => appWithout(withoutServicesLine, 'no-features')).toThrow(/composeServices/)
  })
})
