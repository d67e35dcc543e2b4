import { Elysia } from 'elysia'

/**
 * The icon every page declares (`<link rel="icon" href="/favicon.ico">`) and browsers ask for
 * anyway: a 32x32 PNG in an ICO container, embedded (no file beside the binary, no CDN).
 * Made by scripts/make-favicon.ts.
 */
export const FAVICON_ICO = Buffer.from(
  'AAABAAEAICAAAAEAIACXAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAF5JREFUeNpjYMACuP1z/tMCM+ADtLKUKMfQ23IMR4xsBwyU5XBHDAkHYAPY1H3aaIKBRx0w6gC6OmDAc8GoA0YdMOoAujqAWDDqgFEHDI8m2bBtGY92TAZP53Qgu+cAwfgeboTS8FwAAAAASUVORK5CYII=',
  'base64',
)

export const FAVICON_PATH = '/favicon.ico'

export function faviconRoute() {
  return new Elysia({ name: 'lobby.favicon' }).get(
    FAVICON_PATH,
    () => new Response(FAVICON_ICO, { headers: { 'content-type': 'image/x-icon', 'cache-control': 'public, max-age=86400' } }),
    { detail: { hide: true } },
  )
}
