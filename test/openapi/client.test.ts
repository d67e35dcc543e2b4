import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { jsonOf, request } from '../support/app'
import { ROOT } from '../support/binary'
import { queueContext } from '../queue/helpers'

/*
 * Contract §15 as an integrator sees it: generate a client with openapi-typescript from
 * /swagger/json, type-check a program that handles every error code by its enum (tsc
 * --strict), then run that program against the app.
 */

const dir = mkdtempSync(join(tmpdir(), 'lobby-client-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const TSCONFIG = {
  compilerOptions: {
    strict: true, noEmit: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler',
    lib: ['es2022', 'dom'], types: [], noFallthroughCasesInSwitch: true, allowImportingTsExtensions: true,
  },
  files: ['client.ts'],
}

function tsc(project: string) {
  const run = Bun.spawnSync([join(ROOT, 'node_modules', '.bin', 'tsc'), '-p', project], { cwd: project, stdout: 'pipe', stderr: 'pipe' })
  return { exitCode: run.exitCode, output: run.stdout.toString() + run.stderr.toString() }
}

async function generated(): Promise<{ ctx: ReturnType<typeof queueContext>; project: string }> {
  const ctx = queueContext()
  const document = await jsonOf(await request(ctx.app, 'GET', '/swagger/json'))
  const project = join(dir, 'client')
  await Bun.write(join(project, 'openapi.json'), JSON.stringify(document))
  const generate = Bun.spawnSync(['bun', join(ROOT, 'test/openapi/generate-client.ts'), join(project, 'openapi.json'), join(project, 'api.ts')], { cwd: ROOT, stderr: 'pipe' })
  expect(generate.stderr.toString()).toBe('')
  expect(generate.exitCode).toBe(0)
  await Bun.write(join(project, 'client.ts'), Bun.file(join(ROOT, 'test/openapi/client-program.ts')))
  await Bun.write(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG))
  return { ctx, project }
}

describe('a TypeScript client generated with openapi-typescript', () => {
  test('type-checks a program that issues, reads, pushes each widget type and a prayer month, and switches over every error code', async () => {
    const { ctx, project } = await generated()
    const api = await Bun.file(join(project, 'api.ts')).text()
    // Operation names an integrator calls, and the ticket headers required in the generated type.
    for (const id of ['issueTicket', 'readLiveState', 'pushWidgetData', 'pushPrayerMonth', 'callNextTicket']) expect(api).toContain(`${id}: {`)
    expect(api).toMatch(/"X-Request-Timestamp": string;/)
    expect(api).toMatch(/"X-Request-Nonce": string;/)

    const checked = tsc(project)
    expect(checked.output).toBe('')
    expect(checked.exitCode).toBe(0)

    // The program runs against the app, with the test clock's time.
    const client = await import(join(project, 'client.ts'))
    const send = (r: Request) => ctx.app.handle(r)
    const keys = { queue: ctx.key('all'), workspace: ctx.provisioned.secret('workspace', 'ws_demo', 'cms') }
    const now = new Date(ctx.clock.now())

    const issued = await client.issueTicket(send, keys, now, { locationId: 'loc_hall', serviceId: 'svc_accounts', externalReference: 'crm-4711' }, 'nonce-client-0001')
    expect(issued.status).toBe(201)
    expect(issued.ok.data.ticketNumber).toBe('A001')
    const replayed = await client.issueTicket(send, keys, now, { locationId: 'loc_hall', serviceId: 'svc_accounts' }, 'nonce-client-0001')
    expect(replayed.status).toBe(409)
    expect(replayed.error.error.code).toBe('NONCE_REPLAYED')
    expect(client.onIssueError(replayed.error)).toBe('retry-new-nonce')

    const state = await client.readLiveState(send, keys)
    expect(state.status).toBe(200)
    expect(state.ok.data.services.find((s: { id: string; locationId: string }) => s.id === 'svc_accounts' && s.locationId === 'loc_hall').waiting).toBe(1)
    const refused = await client.readLiveState(send, { ...keys, queue: 'lbq_not-a-key' })
    expect(client.onStateError(refused.error)).toBe('check the key')

    for (const [widgetId, push] of Object.entries(client.widgetPushes('2026-11-25'))) {
      const accepted = await client.pushWidget(send, keys, widgetId, push)
      expect({ widgetId, status: accepted.status }).toEqual({ widgetId, status: 200 })
    }
    const wrongType = await client.pushWidget(send, keys, 'wdg_events', client.widgetPushes('2026-11-25').wdg_schedule_lobby)
    expect(wrongType.error.error.code).toBe('WIDGET_TYPE_MISMATCH')
    expect(client.onWidgetError(wrongType.error)).toBe('fix the data')

    const month = await client.pushPrayerMonth(send, keys, 'psrc_centralmosque-0001-london', client.prayerMonth('2026-11', 'Europe/London'))
    expect(month.status).toBe(201)
    expect(month.ok.dayCount).toBe(30)
    const wrongZone = await client.pushPrayerMonth(send, keys, 'psrc_centralmosque-0001-london', client.prayerMonth('2026-12', 'Europe/Berlin'))
    expect(client.onPrayerError(wrongZone.error)).toBe('fix the request')
  }, 120_000)

  test('the check can fail: an unhandled code the document lists, or a case for a code it does not list, is a compile error', async () => {
    const { project } = await generated()
    const program = await Bun.file(join(project, 'client.ts')).text()
    const mutated = program
      .replace("    case 'NONCE_REPLAYED':\n", '')
      .replace("    case 'SCHEMA_VALIDATION_FAILED':\n      return 'fix the request'", "    case 'SCHEMA_VALIDATION_FAILED':\n    case 'COUNTER_BUSY':\n      return 'fix the request'")
    expect(mutated).not.toBe(program)
    await Bun.write(join(project, 'client.ts'), mutated)
    const checked = tsc(project)
    expect(checked.exitCode).not.toBe(0)
    expect(checked.output).toContain(`Type '"NONCE_REPLAYED"' is not assignable to type 'never'`)
    expect(checked.output).toContain(`Type '"COUNTER_BUSY"' is not comparable to type`)
  }, 120_000)
})
