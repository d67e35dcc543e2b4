/*
 * The toolkit's request to this server's API (same origin, its cookies): the device pages and
 * the sign-in pages use it. Nothing here is page-specific, so a small bundle stays small.
 */

/** An answer of the Lobby API: status, the parsed body, and the envelope's code and message. */
export interface ApiAnswer<T = unknown> {
  status: number
  body: T | null
  code: string | null
  message: string
  headers: Headers
}

/**
 * One request to this server with the device cookie (same origin; the browser adds `Origin`
 * to a POST, which the server checks). `null`: no answer (offline); the caller never retries
 * on its own, so nothing is sent twice.
 */
export async function api<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer<T> | null> {
  let response: Response
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      cache: 'no-store',
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  } catch {
    return null
  }
  let parsed: unknown = null
  try {
    parsed = await response.json()
  } catch {}
  const error = (parsed as { error?: { code?: string; message?: string } } | null)?.error
  return { status: response.status, body: parsed as T, code: error?.code ?? null, message: error?.message ?? '', headers: response.headers }
}

/**
 * The rest of the first `details` message of an error answer that starts with `prefix`, or
 * null: `detailAfter(answer, 'check-in opens at ')` is the ISO instant CHECK_IN_TOO_EARLY names
 * (src/appointments/service.ts), so a page can say from when in its own words and clock.
 */
export function detailAfter(answer: ApiAnswer<unknown> | null, prefix: string): string | null {
  const details = (answer?.body as { error?: { details?: { message?: unknown }[] } } | null | undefined)?.error?.details
  if (!Array.isArray(details)) return null
  for (const detail of details) {
    if (typeof detail?.message === 'string' && detail.message.startsWith(prefix)) return detail.message.slice(prefix.length)
  }
  return null
}
