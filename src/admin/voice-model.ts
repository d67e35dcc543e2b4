import { Type } from '@sinclair/typebox'
import { routeDetail } from '../platform/openapi'
import { CLIP_TYPES } from '../voice'
import { AdminCodes as C, AdminSectionErrorExamples } from './errors'

/* The console's voice-clips section (contract §17, §11): schemas and OpenAPI details. Administrators and managers. */

const ClipType = Type.Union(CLIP_TYPES.map((t) => Type.Literal(t)))
const Clip = Type.Object({
  name: Type.String({ description: 'ticket, please-go-to, 0…9, A…Z or counter-<counterId>' }),
  contentType: ClipType,
  bytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String(),
  importedAt: Type.String({ format: 'date-time' }),
}, { additionalProperties: false })

export const VoiceLanguagesResponse = Type.Object({
  data: Type.Array(Type.Object({
    lang: Type.String({ description: 'a BCP 47 tag' }),
    clips: Type.Array(Clip),
    missing: Type.Array(Type.String(), { description: 'required clips without which no call is said with clips in this language' }),
    missingForBranch: Type.Array(Type.String(), { description: 'letters of active services\' prefixes and active counters with no clip' }),
  }, { additionalProperties: false })),
}, { additionalProperties: false })

export const VoiceClipResponse = Type.Object({ data: Type.Object({ lang: Type.String(), ...Clip.properties, replaced: Type.Boolean() }, { additionalProperties: false }) }, { additionalProperties: false })
export const RemoveVoiceClipResponse = Type.Object({ data: Type.Object({ lang: Type.String(), name: Type.String(), removed: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }) }, { additionalProperties: false })

const tags = ['Admin']
const params = {
  lang: { description: 'the language (BCP 47)', example: 'ar' },
  name: { description: 'the clip: ticket, please-go-to, 0…9, A…Z (a…z is taken as A…Z) or counter-<counterId>', example: 'ticket' },
}
const CLIP = { name: 'ticket', contentType: 'audio/wav', bytes: 18_244, sha256: '9f2c…', importedAt: '2026-11-25T09:30:00.000Z' }

export const listVoiceClipsDocs = routeDetail({
  operationId: 'adminListVoiceClips', summary: 'Voice clips per language, and which are missing', tags, security: 'sessionCookie',
  description: 'Every language of the branch\'s units and every language with clips (or only `lang`): its clips, the required ones missing, and the letters and counters this branch\'s calls would say that have none.',
  query: { lang: { description: 'one language only', example: 'ar' } },
  responses: { 200: { description: 'the languages', name: 'AdminVoiceLanguagesResponse', schema: VoiceLanguagesResponse, example: { data: [{ lang: 'ar', clips: [CLIP], missing: ['please-go-to', '0', '1'], missingForBranch: ['A', 'counter-cnt_1'] }] } } },
  errors: { 401: [C.AUTHENTICATION_FAILED], 403: [C.ROLE_FORBIDDEN], 422: [C.VALIDATION_FAILED] }, errorExamples: AdminSectionErrorExamples,
})

/** The upload's body is the audio itself: the document lists its three media types (routeDetail describes JSON bodies). */
const uploadDetail = routeDetail({
  operationId: 'adminUploadVoiceClip', summary: 'Upload one voice clip', tags, security: 'sessionCookie', params,
  description: 'The body is the audio itself, `Content-Type` audio/wav, audio/mpeg or audio/ogg, at most 1 MiB (contract §2: a larger one is 413 in the envelope, declared or chunked); its first bytes must be of that type. A clip of the same name is replaced. Audited as `voice.upload` (name, type, size, hash).',
  body: { name: 'VoiceClip', schema: { type: 'string', format: 'binary' }, examples: { wav: { summary: 'a WAV recording', value: 'RIFF…WAVE…' } } },
  responses: { 200: { description: 'stored', name: 'AdminVoiceClipResponse', schema: VoiceClipResponse, example: { data: { lang: 'ar', ...CLIP, replaced: false } } } },
  errors: { 401: [C.AUTHENTICATION_FAILED], 403: [C.ORIGIN_FORBIDDEN, C.ROLE_FORBIDDEN], 413: [C.PAYLOAD_TOO_LARGE], 415: [C.UNSUPPORTED_CONTENT_TYPE], 422: [C.VALIDATION_FAILED] }, errorExamples: AdminSectionErrorExamples,
})
export const uploadVoiceClipDocs = {
  ...uploadDetail,
  requestBody: {
    required: true,
    content: Object.fromEntries(CLIP_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' }, example: 'RIFF…WAVE…' }])),
  },
} as typeof uploadDetail

export const playVoiceClipDocs = routeDetail({
  operationId: 'adminPlayVoiceClip', summary: 'Play one voice clip', tags, security: 'sessionCookie', params,
  description: 'The stored audio, as uploaded, with its type.',
  responses: { 200: { description: 'the audio', mediaType: CLIP_TYPES, name: 'VoiceClip', schema: { type: 'string', format: 'binary' }, examples: { 'audio/wav': 'RIFF…WAVEfmt …', 'audio/mpeg': 'ID3…', 'audio/ogg': 'OggS…' } } },
  errors: { 401: [C.AUTHENTICATION_FAILED], 403: [C.ROLE_FORBIDDEN], 404: [C.VOICE_CLIP_NOT_FOUND] }, errorExamples: AdminSectionErrorExamples,
})

export const removeVoiceClipDocs = routeDetail({
  operationId: 'adminRemoveVoiceClip', summary: 'Remove one voice clip', tags, security: 'sessionCookie', params,
  description: 'Boards stop using it at their next manifest. Audited as `voice.remove`.',
  responses: { 200: { description: 'removed', name: 'AdminRemoveVoiceClipResponse', schema: RemoveVoiceClipResponse, example: { data: { lang: 'ar', name: 'ticket', removed: 1 } } } },
  errors: { 401: [C.AUTHENTICATION_FAILED], 403: [C.ORIGIN_FORBIDDEN, C.ROLE_FORBIDDEN], 404: [C.VOICE_CLIP_NOT_FOUND] }, errorExamples: AdminSectionErrorExamples,
})
