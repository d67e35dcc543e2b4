import { routeDetail } from '../platform/openapi'
import { CLIP_TYPES } from './service'
import { VoiceCodes, VoiceErrorExamples } from './errors'
import { VoiceManifest } from './model'

/*
 * The OpenAPI details of the voice routes (src/voice/routes.ts): the manifest and the clip, with
 * examples and the error codes of each.
 */

const tokenQuery = {
  token: { description: 'the display token, for clients that cannot set a header (an <audio> element); else Authorization: Bearer or a paired display', example: 'lbd_3kq9Xw7TmVb2Rz8LpN4cYf6HdJ1sAe5G' },
}

export const readVoiceManifestDocs = routeDetail({
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
})

export const readVoiceClipDocs = routeDetail({
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
})
