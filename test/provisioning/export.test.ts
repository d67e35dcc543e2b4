import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { testContext } from '../support/app'
import { runCli, tempDir } from '../support/cli'
import { applyProvisioning, parseProvisioningText } from '../../src/provisioning/service'
import { exportProvisioning } from '../../src/provisioning/export'
import { revokeKey, rotateKey } from '../../src/structure/keys'
import { SequentialIds } from '../../src/platform/ids'
import provisionExample from '../../src/ops/provision-example.yaml' with { type: 'text' }

/** The annotated example (every field of the schema, names in two languages, hours), applied. */
function exampleBranch() {
  const ctx = testContext()
  applyProvisioning(ctx.db, parseProvisioningText(provisionExample, 'example.yaml'), ctx.clock.now())
  return ctx
}

describe('lobby provision --export (contract §17)', () => {
  test('applied to the same database it changes nothing and makes no secret; applied to an empty one it gives the same structure', () => {
    const ctx = exampleBranch()
    const exported = exportProvisioning(ctx.db)
    const again = applyProvisioning(ctx.db, exported, ctx.clock.now())
    expect(again.secrets).toEqual([])
    for (const [kind, counts] of Object.entries(again.applied)) expect({ kind, created: counts.created, updated: counts.updated }).toEqual({ kind, created: 0, updated: 0 })

    const empty = testContext()
    const made = applyProvisioning(empty.db, exported, empty.clock.now())
    expect(made.secrets.length).toBeGreaterThan(0)
    expect(exportProvisioning(empty.db)).toEqual(exported)
    // No secret and no hash in the file.
    expect(JSON.stringify(exported)).not.toMatch(/lb[wqdhv]_[a-z2-7]{10}/)
  })

  test('the names per language, hours and every unit setting come back as provisioned', () => {
    const unit = exportProvisioning(exampleBranch().db).workspaces[0]!.queueUnits![0]!
    expect(unit).toMatchObject({ defaultLanguage: 'en', languages: ['en', 'ar'], priority: { mode: 'INTERLEAVE', normalPerPriority: 3 }, kioskPriority: true })
    expect(unit.locations![0]).toMatchObject({ name: { en: 'Main hall', ar: 'القاعة الرئيسية' }, closedDates: ['2026-12-25', '2026-12-26'], lastTicketMinutesBeforeClose: 15 })
    expect(unit.locations![0]!.openingHours!.mon).toEqual([['08:30', '12:00'], ['13:00', '16:30']])
    expect(unit.services![0]!.openingHours).toEqual({ mon: [['08:30', '12:00']], tue: [['08:30', '12:00']] })
  })

  test('a revoked key is left out (re-created elsewhere it would be live); a rotated one is there once', () => {
    const ctx = exampleBranch()
    const ids = new SequentialIds()
    rotateKey(ctx.db, ids, 'queue', 'qu_branch', 'kiosk', 0, ctx.clock.now())
    revokeKey(ctx.db, 'display', 'ws_branch', exportProvisioning(ctx.db).workspaces[0]!.displayTokens![0]!.name, ctx.clock.now())
    const ws = exportProvisioning(ctx.db).workspaces[0]!
    expect(ws.displayTokens).toEqual([])
    expect(ws.queueUnits![0]!.apiKeys!.map((k) => k.name)).toEqual(['kiosk'])
  })

  test('the command: YAML by default, JSON on request, one workspace; bad flags exit 2', async () => {
    const dir = tempDir()
    const db = join(dir, 'lobby.db')
    const file = join(dir, 'branch.yaml')
    await Bun.write(file, provisionExample)
    expect(runCli(['provision', '--db', db, '--file', file]).code).toBe(0)
    const yaml = runCli(['provision', '--export', '--db', db])
    expect(yaml.code).toBe(0)
    const json = runCli(['provision', '--export', '--db', db, '--format', 'json', '--workspace', 'ws_branch'])
    expect(json.code).toBe(0)
    expect(parseProvisioningText(yaml.stdout, 'export.yaml')).toEqual(JSON.parse(json.stdout))
    // The exported YAML applies to the same database with nothing to do.
    const exportedFile = join(dir, 'export.yaml')
    await Bun.write(exportedFile, yaml.stdout)
    const reapplied = JSON.parse(runCli(['provision', '--db', db, '--file', exportedFile]).stdout)
    expect(reapplied.secrets).toEqual([])
    expect(runCli(['provision', '--export', '--db', db, '--format', 'xml']).code).toBe(2)
    expect(runCli(['provision', '--export', '--db', join(dir, 'none.db')]).code).toBe(2)
    expect(runCli(['provision', '--export', '--db', db, '--workspace', 'ws_nope']).code).toBe(2)
  })
})
