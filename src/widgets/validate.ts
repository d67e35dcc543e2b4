import type { TSchema } from '@sinclair/typebox'
import { ApiError, pointer, type ErrorDetail } from '../platform/errors'
import { compile, schemaErrors } from '../platform/validation'
import { WidgetCodes, WidgetWarnings } from './errors'
import { formatMessage } from './formats'
import { ENVELOPES, isWidgetType, PAYLOADS, WIDGET_TYPES, type PushEnvelope, type PushWarning, type WidgetType } from './model'

/** As many failing paths as the platform lists (docs/decisions.md). */
const MAX_DETAILS = 100

/** Each type's compiled check, built on first use: compiling all four costs ~15 ms at every start. */
const checks: Partial<Record<WidgetType, ReturnType<typeof compile>>> = {}
function checkOf(type: WidgetType) {
  return (checks[type] ??= compile(ENVELOPES[type]))
}

export interface ValidPush {
  envelope: PushEnvelope
  warnings: PushWarning[]
}

/**
 * Checks a parsed push body for a widget of `widgetType` (contract §4): the type codes first,
 * then the closed envelope and payload schema together with the rules across fields, so one
 * 422 lists every failing path. Returns the envelope and the warnings of an accepted push.
 */
export function validatePush(widgetType: WidgetType, body: unknown): ValidPush {
  assertWidgetTypeMatches(widgetType, body)
  const definition = PAYLOADS[widgetType]
  const check = checkOf(widgetType)
  const data = isObject(body) ? body.data : undefined
  const errors = check.Check(body) ? [] : readableErrors(schemaErrors(check, body), ENVELOPES[widgetType])
  errors.push(...definition.rules(data))
  if (errors.length > 0) {
    throw new ApiError(422, WidgetCodes.SCHEMA_VALIDATION_FAILED, 'the push envelope or its payload is invalid', errors.slice(0, MAX_DETAILS))
  }
  const envelope = body as PushEnvelope
  const warnings: PushWarning[] = []
  if (envelope.source?.sequence === undefined) {
    warnings.push({
      code: WidgetWarnings.SEQUENCE_MISSING,
      message: 'source.sequence is absent, so this push cannot be ordered against others; send an increasing sequence',
      path: pointer('source', 'sequence'),
    })
  }
  warnings.push(...definition.warnings(data))
  return { envelope, warnings }
}

/**
 * Contract §4: `widgetType` none of the four is 422 UNSUPPORTED_WIDGET_TYPE; another of the
 * four than the widget's is 422 WIDGET_TYPE_MISMATCH. Either is answered on its own: the
 * payload cannot be judged against a type the widget is not. A missing or non-string
 * `widgetType` is an ordinary schema failure.
 */
export function assertWidgetTypeMatches(widgetType: WidgetType, body: unknown): void {
  if (!isObject(body) || typeof body.widgetType !== 'string') return
  const path = pointer('widgetType')
  if (!isWidgetType(body.widgetType)) {
    throw new ApiError(422, WidgetCodes.UNSUPPORTED_WIDGET_TYPE, 'widgetType is not a supported widget type', [
      { path, message: `must be one of ${WIDGET_TYPES.join(', ')}` },
    ])
  }
  if (body.widgetType !== widgetType) {
    throw new ApiError(422, WidgetCodes.WIDGET_TYPE_MISMATCH, 'widgetType does not match the target widget', [
      { path, message: `this widget is ${widgetType}` },
    ])
  }
}

/**
 * Our formats and closed value lists get messages that name the rule, not TypeBox's wording;
 * a missing required field is one "is required" (TypeBox adds a type error at the same path).
 */
function readableErrors(details: ErrorDetail[], schema: TSchema): ErrorDetail[] {
  const missing = new Set(details.filter((d) => d.message === 'Expected required property').map((d) => d.path))
  const out: ErrorDetail[] = []
  for (const { path, message } of details) {
    if (missing.has(path)) {
      if (message === 'Expected required property') out.push({ path, message: 'is required' })
      continue
    }
    const format = /^Expected string to match '([^']+)' format$/.exec(message)
    const allowed = message === 'does not match any allowed form' ? literalsAt(schema, path) : null
    if (format !== null) out.push({ path, message: formatMessage(format[1]!) ?? message })
    else if (allowed !== null) out.push({ path, message: `must be one of ${allowed.join(', ')}` })
    else out.push({ path, message })
  }
  return out
}

/** The allowed values when the schema at `path` is a union of literals, else null. */
function literalsAt(schema: TSchema, path: string): string[] | null {
  let node: TSchema | undefined = schema
  for (const raw of path.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (node === undefined) return null
    if (node.type === 'object') node = (node.properties as Record<string, TSchema> | undefined)?.[segment]
    else if (node.type === 'array') node = node.items as TSchema | undefined
    else return null
  }
  const options = node?.anyOf as TSchema[] | undefined
  if (!options?.every((o) => o.const !== undefined)) return null
  return options.map((o) => String(o.const))
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The payload as stored: the accepted `data` with each item's documented defaults filled in. */
export function withItemDefaults(widgetType: WidgetType, data: PushEnvelope['data']): PushEnvelope['data'] {
  const defaults = Object.entries(PAYLOADS[widgetType].itemDefaults)
  if (defaults.length === 0) return data
  const items = data.items.map((item) => {
    const filled: Record<string, unknown> = { ...item }
    for (const [key, value] of defaults) if (filled[key] === undefined) filled[key] = value
    return filled
  })
  return { ...data, items }
}
