import type { TSchema, Static } from '@sinclair/typebox'
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import { ApiError, pointer, type ErrorDetail } from './errors'
import { PATTERN_FORMATS, ruled, type DetailParams, type DetailRule } from './detail-rules'

export { TypeCompiler }

/** How many failing paths one response lists; enough to fix a payload, bounded in size. */
const MAX_DETAILS = 100

/**
 * Checks `value` against a compiled TypeBox schema and lists every failing path as a JSON
 * Pointer. Messages describe the rule, never the submitted value. Unknown properties are
 * reported at their own path. Schemas are closed (`additionalProperties: false`), and
 * TypeBox's `Integer`/`Number` refuse numeric strings, unlike Elysia's coercing `t.Numeric`.
 */
export function schemaErrors(check: SchemaCheck<TSchema>, value: unknown): ErrorDetail[] {
  const details: ErrorDetail[] = []
  const seen = new Set<string>()
  /** Paths reported missing: TypeBox says "Expected string" of a missing field too, which adds nothing. */
  const missing = new Set<string>()
  for (const error of check.Errors(value)) {
    let path = error.path
    let message = error.message
    if (missing.has(path)) continue
    if (error.type === ValueErrorType.ObjectRequiredProperty) missing.add(path)
    // TypeBox reports each unknown property at its own path.
    if (error.type === ValueErrorType.ObjectAdditionalProperties) message = 'unknown property'
    if (error.type === ValueErrorType.StringMaxLength) {
      // TypeBox counts UTF-16 units; the contract counts code points.
      const max = (error.schema as unknown as { maxLength: number }).maxLength
      if (codePointLength(error.value as string) <= max) continue
      message = `must be at most ${max} characters`
    }
    if (error.type === ValueErrorType.Union) {
      // A string refused by a union whose one string branch takes it (a break reason: a string or
      // an object) says what that branch refuses ("must not be blank"), not "no allowed form".
      const branch = branchOfSameType(error)
      if (branch !== null) {
        for (const inner of branch) push(inner.path, inner.message, ruleOf(inner))
        continue
      }
      message = 'does not match any allowed form'
    }
    push(path, message, ruleOf(error))
    if (details.length >= MAX_DETAILS) break
  }
  return details

  function push(path: string, message: string, [rule, params]: [DetailRule, DetailParams | undefined]) {
    const key = `${path}\u0000${message}`
    if (seen.has(key) || details.length >= MAX_DETAILS) return
    seen.add(key)
    details.push(ruled(path === '' ? '/' : path, message, rule, params))
  }
}

/** For a string value, the union's one string branch's errors; null when the value is no string or the union has no or several string branches. */
function branchOfSameType(error: ValueError): ValueError[] | null {
  const options = ((error.schema as Record<string, unknown>).anyOf as Record<string, unknown>[] | undefined) ?? []
  const value = error.value
  if (typeof value !== 'string') return null
  const matching = options.flatMap((option, index) => (option.type === 'string' ? [index] : []))
  if (matching.length !== 1 || error.errors[matching[0]!] === undefined) return null
  const errors = [...error.errors[matching[0]!]!]
  return errors.length > 0 ? errors : null
}

/** The schema's words for a value's type (`params.expected` of a `type` detail). */
const EXPECTED: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.String]: 'string', [ValueErrorType.Integer]: 'integer', [ValueErrorType.Number]: 'number',
  [ValueErrorType.Boolean]: 'boolean', [ValueErrorType.Object]: 'object', [ValueErrorType.Array]: 'array', [ValueErrorType.Null]: 'null',
}

/** The rule a TypeBox error breaks, with its bounds from the schema (contract §24: a page says it in words). */
function ruleOf(error: ValueError): [DetailRule, DetailParams | undefined] {
  const schema = error.schema as Record<string, unknown>
  const bounds = (): DetailParams => {
    const params: DetailParams = {}
    if (typeof schema.minimum === 'number') params.min = schema.minimum
    if (typeof schema.maximum === 'number') params.max = schema.maximum
    return params
  }
  switch (error.type) {
    case ValueErrorType.String: case ValueErrorType.Integer: case ValueErrorType.Number: case ValueErrorType.Boolean:
    case ValueErrorType.Object: case ValueErrorType.Array: case ValueErrorType.Null:
      return ['type', { expected: EXPECTED[error.type]! }]
    case ValueErrorType.StringPattern:
      return ['format', { format: PATTERN_FORMATS[String(schema.pattern)] ?? 'other' }]
    case ValueErrorType.StringMinLength: return ['minLength', { min: Number(schema.minLength) }]
    case ValueErrorType.StringMaxLength: return ['maxLength', { max: Number(schema.maxLength) }]
    case ValueErrorType.IntegerMinimum: case ValueErrorType.IntegerMaximum: case ValueErrorType.NumberMinimum: case ValueErrorType.NumberMaximum:
      return ['range', bounds()]
    case ValueErrorType.ArrayMinItems: return ['minItems', { min: Number(schema.minItems) }]
    case ValueErrorType.ArrayMaxItems: return ['maxItems', { max: Number(schema.maxItems) }]
    case ValueErrorType.ObjectMinProperties: return ['minItems', { min: Number(schema.minProperties) }]
    case ValueErrorType.ObjectMaxProperties: return ['maxItems', { max: Number(schema.maxProperties) }]
    case ValueErrorType.ArrayUniqueItems: return ['uniqueItems', undefined]
    case ValueErrorType.Literal: return ['oneOf', { allowed: [String(schema.const)] }]
    case ValueErrorType.Union: {
      const options = (schema.anyOf as Record<string, unknown>[] | undefined) ?? []
      const literals = options.every((o) => 'const' in o) ? options.map((o) => String(o.const)) : null
      return literals === null ? ['form', undefined] : ['oneOf', { allowed: literals }]
    }
    case ValueErrorType.ObjectRequiredProperty: return ['required', undefined]
    case ValueErrorType.ObjectAdditionalProperties: return ['unknownField', undefined]
    default: return ['invalid', undefined]
  }
}

/** Validates or throws 422 with `code` and every failing path. */
export function assertSchema<T extends TSchema>(
  check: SchemaCheck<T>,
  value: unknown,
  code: string,
): asserts value is Static<T> {
  if (check.Check(value)) {
    const illFormed = illFormedStrings(value)
    if (illFormed.length > 0) throw new ApiError(422, code, 'request validation failed', illFormed)
    return
  }
  const details = schemaErrors(check, value)
  // Only code-point-length false alarms failed: the value is valid.
  if (details.length === 0) return
  throw new ApiError(422, code, 'request validation failed', details)
}

/** What the routes need of a compiled schema (TypeBox's `TypeCheck` has both). */
export interface SchemaCheck<T extends TSchema> {
  Check(value: unknown): value is Static<T>
  Errors(value: unknown): Iterable<ValueError>
}

/**
 * A checker compiled on first use, not when its module loads: a route's checker is built by
 * the first request that needs it instead of by every server start (cold start).
 */
class LazyCheck<T extends TSchema> implements SchemaCheck<T> {
  private compiled: TypeCheck<T> | undefined

  constructor(private readonly schema: T) {}

  Check(value: unknown): value is Static<T> {
    return this.checker.Check(value)
  }

  Errors(value: unknown): Iterable<ValueError> {
    return this.checker.Errors(value)
  }

  private get checker(): TypeCheck<T> {
    return (this.compiled ??= TypeCompiler.Compile(this.schema))
  }
}

export function compile<T extends TSchema>(schema: T): SchemaCheck<T> {
  return new LazyCheck(schema)
}

/**
 * Contract §2 counts code points; a string holding a lone surrogate (JSON `"\ud800"`) has none to
 * count and cannot be written as canonical JSON (RFC 8785). Every such string or property name
 * of a value that passed its schema (so its depth is bounded) is listed by its JSON Pointer.
 */
export function illFormedStrings(value: unknown): ErrorDetail[] {
  const out: ErrorDetail[] = []
  const stack: [unknown, string][] = [[value, '']]
  while (stack.length > 0 && out.length < MAX_DETAILS) {
    const [node, path] = stack.pop()!
    if (typeof node === 'string') {
      if (!node.isWellFormed()) out.push(ruled(path || '/', 'must be well-formed Unicode (no lone surrogate)', 'unicode'))
    } else if (Array.isArray(node)) {
      node.forEach((item, i) => stack.push([item, `${path}/${i}`]))
    } else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        const at = `${path}${pointer(key)}`
        if (!key.isWellFormed()) out.push(ruled(at, 'must be well-formed Unicode (no lone surrogate)', 'unicode'))
        stack.push([item, at])
      }
    }
  }
  return out
}

/** Contract §2: string bounds count Unicode code points, not UTF-16 units. */
export function codePointLength(value: string): number {
  let n = 0
  for (const _ of value) n++
  return n
}
