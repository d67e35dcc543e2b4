/*
 * The console's save (contract §24): the JSON Merge Patch (RFC 7386) that turns what a form
 * showed when it was opened into what it shows now. Only what the person changed is sent, so
 * a field the form does not show (appointment settings, a name in a language the form hides,
 * anything a later version adds) keeps its value on the server.
 */

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/** An own property only (`__proto__` is a key like any other, never the prototype). */
const own = (object: Record<string, unknown>, key: string): unknown => (Object.hasOwn(object, key) ? object[key] : undefined)

/** The patch from `before` to `after`: changed keys, `null` for removed ones, objects diffed key by key. */
export function mergeDiff(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = {}
  const set = (key: string, value: unknown) => Object.defineProperty(patch, key, { value, enumerable: true, writable: true, configurable: true })
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue
    const old = own(before, key)
    if (isPlainObject(old) && isPlainObject(value)) {
      const inner = mergeDiff(old, value)
      if (Object.keys(inner).length > 0) set(key, inner)
    } else if (!same(old, value)) {
      set(key, value)
    }
  }
  for (const [key, value] of Object.entries(before)) if (value !== undefined && own(after, key) === undefined) set(key, null)
  return patch
}
