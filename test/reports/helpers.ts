import { expect } from 'bun:test'
import { counterContext, callNext, act, ok, issued } from '../counters/helpers'
import { mainUnit, get, type QueueTestContext } from '../queue/helpers'
import { jsonOf } from '../support/app'
import type { ProvisioningFile } from '../../src/provisioning/model'
import type { AppDeps } from '../../src/root/deps'

export const REPORTS = '/api/operator/v1/reports'

/** The example app with a `reports` key (scope reports:read) and Accounts' wait target at 600 s. */
export function reportContext(edit: (doc: ProvisioningFile) => void = () => {}, overrides: Partial<AppDeps> = {}): QueueTestContext {
  return counterContext((doc) => {
    const unit = mainUnit(doc)
    unit.services![0]!.waitTargetSeconds = 600
    unit.apiKeys!.push({ name: 'reports', scopes: ['reports:read'] })
    unit.apiKeys!.push({ name: 'reports-hall-loans', scopes: ['reports:read'], locations: ['loc_hall'], services: ['svc_loans'] })
    edit(doc)
  }, overrides)
}

export async function report(ctx: QueueTestContext, path: string, key = 'reports') {
  const res = await get(ctx, `${REPORTS}${path}`, ctx.key(key))
  const text = await res.text()
  expect({ status: res.status, text }).toMatchObject({ status: 200 })
  return JSON.parse(text).data as any[]
}

/** Moves the clock to `iso` and runs `step`. */
export async function at<T>(ctx: QueueTestContext, iso: string, step: () => Promise<T>): Promise<T> {
  ctx.clock.set(iso)
  return step()
}

export const hours = (entries: Record<number, number>) => Array.from({ length: 24 }, (_, h) => entries[h] ?? 0)

export { callNext, act, ok, issued, jsonOf }
