import { Elysia, t } from 'elysia'
import type { AppDeps } from '../root/deps'
import { ApiError } from '../platform/errors'
import { routeDetail } from '../platform/openapi'
import { authenticateDisplay, tokenOf } from '../display/access'
import type { DeviceService } from '../devices/service'
import { canonicalLang } from '../screens/shared/options'
import { CLIP_TYPES, isClipName, readClip, voiceManifest } from './service'
import { VoiceCodes, VoiceErrorExamples } from './errors'
import { VoiceManifest } from './model'

const PREFIX = '/api/display/v1'
const tokenQuery = {
  token: { description: 'the display token, for clients that cannot set a header (an <audio> element); else Authorization: Bearer or a paired display', example: 'lbd_3kq9Xw7TmVb2Rz8LpN4cYf6HdJ1sAe5G' },
}

/** The URL of a clip: its version in the query, so a board may keep it for good. */
export function clipHref(lang: string, name: string, sha256: string): string {
  return `${PREFIX}/voice-clips/${encodeURIComponent(lang)}/${encodeURIComponent(name)}?v=${sha256.slice(0, 16)}`
}

/**
 * Contract §11: the recorded clips of spoken calls, for queue boards. Display routes like
 * the others of contract §6 (a display credential, CORS from the display plugin): a board asks
 * for its unit's manifest in its language, then loads the clips it names.
 */
export function voiceRoutes(deps: AppDeps, { devices }: { devices: DeviceService }) {
  // A paired display (its cookie) hears calls like a display token's board does: `devices`.
  return new Elysia({ name: 'lobby.voice' })
    .get(
      `${PREFIX}/queue-units/:queueUnitId/voice`,
      ({ request, query, params }) => {
        const credential = authenticateDisplay(deps, tokenOf(request, query), devices, request)
        const lang = canonicalLang(query.lang)
        if (lang === null) throw new ApiError(400, VoiceCodes.INVALID_REQUEST, '`lang` must be a BCP 47 language tag (e.g. ar, en-GB)')
        const manifest = voiceManifest(deps.db, params.queueUnitId, credential.ownerId, lang, (clip) => clipHref(clip.lang, clip.name, clip.sha256))
        if (manifest === null) throw new ApiError(404, VoiceCodes.NOT_FOUND, 'no such queue unit for this display token')
        return new Response(JSON.stringify(manifest), { headers: { 'content-type': 'application/json', 'cache-control': 'no-cache' } })
      },
      {
        query: t.Object({ lang: t.Optional(t.String({ maxLength: 64 })), token: t.Optional(t.String()) }),
        detail: routeDetail({
          operationId: 'readVoiceManifest',
          summary: 'Voice clips a queue board can say calls with',
          description: "The recorded clips (`lobby voice import`) for the board's language (the same tag, else its language), and the unit's counters so a call's counter maps to its `counter-<counterId>` clip. `clipLang` is null when the language has no clips.",
          tags: ['Display feeds'],
          security: 'display',
          params: { queueUnitId: { description: 'the queue unit ID', example: 'qu_main' } },
          query: { ...tokenQuery, lang: { description: "the board's language (BCP 47)", example: 'ar' } },
          responses: {
            200: {
              description: "the clips for the board's language and the unit's counters",
              name: 'VoiceManifest',
              schema: VoiceManifest,
              example: {
                lang: 'ar',
                clipLang: 'ar',
                complete: true,
                clips: [{ name: 'ticket', contentType: 'audio/ogg', bytes: 14_220, href: '/api/display/v1/voice-clips/ar/ticket?v=3f1c9a7be0d24c55' }],
                counters: [{ id: 'cnt_1', name: 'Counter 1', locationId: 'loc_hall' }],
              },
            },
          },
          errors: { 400: [VoiceCodes.INVALID_REQUEST], 401: [VoiceCodes.AUTHENTICATION_FAILED], 404: [VoiceCodes.NOT_FOUND] },
          errorExamples: VoiceErrorExamples,
        }),
      },
    )
    .get(
      `${PREFIX}/voice-clips/:lang/:name`,
      ({ request, query, params }) => {
        authenticateDisplay(deps, tokenOf(request, query), devices, request)
        const clip = isClipName(params.name) ? readClip(deps.db, params.lang, params.name) : null
        if (clip === null) throw new ApiError(404, VoiceCodes.NOT_FOUND, `no voice clip ${params.name} for ${params.lang}`)
        const etag = `"${clip.sha256.slice(0, 32)}"`
        // A versioned URL names these exact bytes; any other is revalidated.
        const cache = query.v === clip.sha256.slice(0, 16) ? 'private, max-age=31536000, immutable' : 'private, no-cache'
        const headers = { etag, 'cache-control': cache, 'content-type': clip.contentType, 'x-content-type-options': 'nosniff' }
        if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers })
        return new Response(clip.audio, { headers })
      },
      {
        query: t.Object({ v: t.Optional(t.String()), token: t.Optional(t.String()) }),
        detail: routeDetail({
          operationId: 'readVoiceClip',
          summary: 'One recorded voice clip',
          description: 'The clip as imported: audio/wav, audio/mpeg or audio/ogg. Cached for good under its versioned `href` (`?v=`); ETag and 304 otherwise.',
          tags: ['Display feeds'],
          security: 'display',
          params: {
            lang: { description: 'the language the clip was imported for', example: 'ar' },
            name: { description: '`ticket`, `please-go-to`, `0`…`9`, `A`…`Z` or `counter-<counterId>`', example: 'please-go-to' },
          },
          query: { ...tokenQuery, v: { description: "the clip's version (from the manifest's `href`): cached for good when it matches", example: '3f1c9a7be0d24c55' } },
          headers: { 'If-None-Match': { description: 'the ETag of the clip the board has: 304 when unchanged', example: '"3f1c9a7be0d24c55a1e0f6b2c9d87e44"' } },
          responses: {
            200: {
              description: 'the clip as imported (audio/wav, audio/mpeg or audio/ogg, as its Content-Type says)',
              mediaType: CLIP_TYPES,
              name: 'VoiceClip',
              schema: { type: 'string', format: 'binary' },
              examples: { 'audio/wav': 'RIFF…WAVEfmt …', 'audio/mpeg': 'ID3…', 'audio/ogg': 'OggS…' },
            },
            304: { description: 'unchanged since If-None-Match' },
          },
          errors: { 401: [VoiceCodes.AUTHENTICATION_FAILED], 404: [VoiceCodes.NOT_FOUND] },
          errorExamples: VoiceErrorExamples,
        }),
      },
    )
}
