import { request, testContext, type TestContext } from '../support/app'
import { provision } from '../support/fixtures'
import type { ProvisioningFile } from '../../src/provisioning/model'
import { dateInPeriod, daysInMonth, isFriday, umalquraDate } from '../../src/prayer/calendar'
import type { Month } from '../../src/prayer/model'

export const SOURCE = 'psrc_centralmosque-0001-london'
/** A second source of the same workspace, with a lower push rate. */
export const EAST_SOURCE = 'psrc_eastmosque-0003-london-east'
/** A source of another workspace. */
export const OTHER_SOURCE = 'psrc_othermosque-0002-karachi'
export const MONTHS_PATH = `/api/public/v1/prayer-schedules/sources/${SOURCE}/months`

/** Two workspaces, each with a workspace key and a display token, and three prayer sources. */
export function prayerDocument(): ProvisioningFile {
  return {
    workspaces: [
      {
        id: 'ws_demo',
        name: 'Demo workspace',
        apiKeys: [{ name: 'cms' }],
        displayTokens: [{ name: 'screens' }],
        prayerSources: [
          {
            id: SOURCE,
            name: 'Central Mosque',
            timezone: 'Europe/London',
            location: { name: 'Central Mosque', city: 'London', country: 'GB', latitude: 51.52, longitude: -0.08 },
          },
          { id: EAST_SOURCE, name: 'East Mosque', timezone: 'Europe/London', pushRateLimitPerMinute: 5 },
        ],
      },
      {
        id: 'ws_other',
        name: 'Other workspace',
        apiKeys: [{ name: 'cms' }],
        prayerSources: [{ id: OTHER_SOURCE, name: 'Other Mosque', timezone: 'Asia/Karachi' }],
      },
    ],
  }
}

export interface PrayerContext extends TestContext {
  /** Workspace key of ws_demo (owns SOURCE and EAST_SOURCE). */
  key: string
  /** Workspace key of ws_other (owns OTHER_SOURCE). */
  otherKey: string
  /** Display token of ws_demo: a credential of the wrong kind for these routes. */
  displayToken: string
}

export function prayerContext(): PrayerContext {
  const ctx = testContext()
  const provisioned = provision(ctx, prayerDocument())
  return {
    ...ctx,
    key: provisioned.secret('workspace', 'ws_demo', 'cms'),
    otherKey: provisioned.secret('workspace', 'ws_other', 'cms'),
    displayToken: provisioned.secret('display', 'ws_demo', 'screens'),
  }
}

export interface MonthOptions {
  timezone?: string
  /** Add iqamah times (default true). */
  iqamah?: boolean
  /** Add a jumuah session on every Friday (default true). */
  jumuah?: boolean
  /** Add the Umm al-Qura hijri date (default true). */
  hijri?: boolean
  /** Add a calculation object (default true). */
  calculation?: boolean
  /** Shift every time by this many minutes, to make other content (default 0). */
  shiftMinutes?: number
}

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`

/**
 * A valid month for `period`: one entry per day, times in order that drift a little from day
 * to day, iqamah after each adhan, jumuah on Fridays, hijri dates continuous.
 */
export function makeMonth(period: string, options: MonthOptions = {}): Month {
  const { timezone = 'Europe/London', iqamah = true, jumuah = true, hijri = true, calculation = true, shiftMinutes = 0 } = options
  const days = Array.from({ length: daysInMonth(period) }, (_, i) => {
    const date = dateInPeriod(period, i + 1)
    const drift = (i % 10) + shiftMinutes
    const fajr = 5 * 60 + 30 + drift
    const sunrise = 7 * 60 + drift
    const dhuhr = 12 * 60 + drift
    const asr = 14 * 60 + 30 + drift
    const maghrib = 16 * 60 + 30 + drift
    const isha = 18 * 60 + drift
    return {
      date,
      fajr: hhmm(fajr),
      sunrise: hhmm(sunrise),
      dhuhr: hhmm(dhuhr),
      asr: hhmm(asr),
      maghrib: hhmm(maghrib),
      isha: hhmm(isha),
      ...(iqamah
        ? { iqamah: { fajr: hhmm(fajr + 20), dhuhr: hhmm(dhuhr + 15), asr: hhmm(asr + 10), maghrib: hhmm(maghrib + 5), isha: hhmm(isha + 15) } }
        : {}),
      ...(jumuah && isFriday(date) ? { jumuah: [{ khutbah: '12:30', iqamah: '13:00' }, { iqamah: '14:00' }] } : {}),
      ...(hijri ? { hijri: umalquraDate(date) } : {}),
    }
  })
  return {
    period,
    timezone,
    ...(calculation ? { calculation: { method: 'MWL', asrSchool: 'STANDARD' as const, fajrAngle: 18, ishaAngle: 17, highLatitudeRule: 'ANGLE_BASED', hijriAdjustmentDays: 0 } } : {}),
    days,
  }
}

/** A deep copy to break on purpose, typed loosely so a test may write anything into it. */
export function broken(month: Month): any {
  return structuredClone(month)
}

/** The first date of `period` that is (or is not) a Friday, as a day index. */
export function dayIndexWhere(period: string, friday: boolean): number {
  for (let i = 0; i < daysInMonth(period); i++) if (isFriday(dateInPeriod(period, i + 1)) === friday) return i
  throw new Error(`no such day in ${period}`)
}

let keyCounter = 0
/** A fresh valid Idempotency-Key. */
export function newKey(): string {
  keyCounter += 1
  return `test-key-${String(keyCounter).padStart(6, '0')}`
}

export interface PushOptions {
  /** The secret to present (default: ws_demo's key); null for none. */
  secret?: string | null
  /** Send the secret as x-service-api-key instead of Authorization. */
  viaHeader?: boolean
  /** Idempotency-Key (default: a fresh one); null to leave it out. */
  idempotencyKey?: string | null
  sourceId?: string
  headers?: Record<string, string>
  /** Exact body text or bytes, sent as is. */
  raw?: string | Uint8Array | ReadableStream<Uint8Array>
}

/** POST a month the way an integrator would. */
export function push(ctx: PrayerContext, body: unknown, options: PushOptions = {}): Promise<Response> {
  const { secret = ctx.key, viaHeader = false, idempotencyKey = newKey(), sourceId = SOURCE } = options
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (secret !== null) headers[viaHeader ? 'x-service-api-key' : 'authorization'] = viaHeader ? secret : `Bearer ${secret}`
  if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey
  Object.assign(headers, options.headers)
  const raw = options.raw ?? JSON.stringify(body)
  return ctx.app.handle(new Request(`http://localhost/api/public/v1/prayer-schedules/sources/${sourceId}/months`, { method: 'POST', headers, body: raw }))
}

/** GET a stored month. */
export function readStored(ctx: PrayerContext, period: string, options: { secret?: string | null; sourceId?: string; headers?: Record<string, string> } = {}) {
  const { secret = ctx.key, sourceId = SOURCE } = options
  const headers: Record<string, string> = { ...options.headers }
  if (secret !== null) headers.authorization = `Bearer ${secret}`
  return request(ctx.app, 'GET', `/api/public/v1/prayer-schedules/sources/${sourceId}/months/${period}`, { headers })
}

/** Rows of prayer_months, for asserting stored state. */
export function storedMonths(ctx: TestContext): { source_id: string; period: string; revision: number; checksum: string; body: string; day_count: number; stored_at: number }[] {
  return ctx.db.$client.query('SELECT * FROM prayer_months ORDER BY source_id, period').all() as never
}

/** Idempotency records of the prayer feature. */
export function prayerIdempotencyRecords(ctx: TestContext): { scope: string; key: string; status: number; body: string }[] {
  return ctx.db.$client.query("SELECT scope, key, status, body FROM idempotency_records WHERE scope LIKE 'prayer:%' ORDER BY created_at").all() as never
}

/** Asserts the error envelope and returns the body. */
export async function expectError(response: Response, status: number, code: string): Promise<any> {
  const text = await response.text()
  if (response.status !== status) throw new Error(`expected ${status} ${code}, got ${response.status}: ${text}`)
  const body = JSON.parse(text)
  if (body?.error?.code !== code) throw new Error(`expected code ${code}, got ${text}`)
  if (typeof body.error.message !== 'string') throw new Error(`error without message: ${text}`)
  if (!response.headers.get('content-type')?.includes('application/json')) throw new Error('error is not JSON')
  const correlationId = response.headers.get('x-correlation-id')
  if (!correlationId || body.error.correlationId !== correlationId) throw new Error(`correlation ID missing or different: ${text}`)
  return body
}

/** The JSON Pointers a 422 names. */
export function pathsOf(body: any): string[] {
  return (body.error.details ?? []).map((d: { path: string }) => d.path)
}
