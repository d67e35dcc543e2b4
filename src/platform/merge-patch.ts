/*
 * JSON Merge Patch (RFC 7386): how the console saves an entity (contract §24, "a save changes
 * what it names, nothing else"). An object in the patch merges key by key into the target; a
 * `null` removes the key; anything else (a string, a number, an array) replaces it. Fields the
 * patch does not name keep their values, at every depth.
 */

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** `target` with `patch` applied; neither is changed. A key `__proto__` is an ordinary key, never the prototype. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch
  const out: Record<string, unknown> = {}
  if (isPlainObject(target)) for (const [key, value] of Object.entries(target)) define(out, key, value)
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key]
    else define(out, key, applyMergePatch(Object.hasOwn(out, key) ? out[key] : undefined, value))
  }
  return out
}

function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true })
}
