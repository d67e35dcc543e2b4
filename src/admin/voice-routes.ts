import { Elysia } from 'elysia'
import type { AdmissionPlugin } from '../access'
import type { AdminDeps } from './deps'
import { ApiError } from '../platform/errors'
import { ruled } from '../platform/detail-rules'
import { ADMIN_API } from './branch-routes'
import { auditedWrite, bodyAfterChecks, ok } from './section-kit'
import { AdminCodes as C } from './errors'
import { type AdminVoice, canonicalLang, clipName, looksLike, MAX_UPLOAD_BYTES, uploadType } from './voice-service'
import { listVoiceClipsDocs, playVoiceClipDocs, removeVoiceClipDocs, uploadVoiceClipDocs } from './voice-model'


/** The language of a path or query, canonical (`AR-eg` → `ar-EG`), else 422 naming where it was. */
function languageOf(value: string, path: string): string {
  const lang = value.length <= 35 ? canonicalLang(value) : null
  if (lang === null) throw new ApiError(422, C.VALIDATION_FAILED, 'the language must be a BCP 47 tag (ar, en-GB, …)', [ruled(path, 'not a BCP 47 language tag', 'languageTag', { tag: value })])
  return lang
}

/**
 * The console's voice-clips section (contract §17, §11), administrators and managers (clips
 * belong to the whole branch, as `lobby voice` stores them): what each language has and lacks,
 * one clip uploaded per request (its audio the body, bounded), played, removed.
 */
export function adminVoiceRoutes(deps: AdminDeps, { access, adminVoice: voice }: { access: AdmissionPlugin; adminVoice: AdminVoice }) {
  const named = (lang: string, name: string) => {
    const clip = clipName(name)
    if (clip === null) throw new ApiError(404, C.VOICE_CLIP_NOT_FOUND, `no voice clip of that name (ticket, please-go-to, 0…9, A…Z, counter-<counterId>)`)
    return { lang: languageOf(lang, 'lang'), name: clip }
  }

  return new Elysia({ name: 'lobby.admin.voice' })
    .use(access)
    .get(`${ADMIN_API}/voice/clips`, async ({ request, query }) => {
      // The session first, then the query (checked here, not by a route schema that would run before it).
      const lang = typeof query.lang === 'string' ? languageOf(query.lang, 'lang') : undefined
      return ok(200, { data: voice.languages(lang) })
    }, { admitConsole: { who: 'console' }, detail: listVoiceClipsDocs })
    .put(`${ADMIN_API}/voice/clips/:lang/:name`, async ({ request, params, principal }) => {
      const { raw, checked } = await bodyAfterChecks(request, MAX_UPLOAD_BYTES, () => {
        const clip = clipName(params.name)
        if (clip === null) throw new ApiError(422, C.VALIDATION_FAILED, 'not a clip name: ticket, please-go-to, 0…9, A…Z or counter-<counterId>', [ruled('name', 'not a clip name', 'clipName')])
        const lang = languageOf(params.lang, 'lang')
        if (uploadType(request.headers.get('content-type')) === null) throw new ApiError(415, C.UNSUPPORTED_CONTENT_TYPE, 'Content-Type must be audio/wav, audio/mpeg or audio/ogg')
        return { user: principal.user, lang, name: clip }
      })
      const { user, lang, name } = checked
      const contentType = uploadType(request.headers.get('content-type'))!
      if (!looksLike(contentType, raw)) throw new ApiError(422, C.VALIDATION_FAILED, `the body is not ${contentType} audio (its first bytes say otherwise)`, [ruled('/', `not ${contentType}`, 'audioType', { value: contentType })])
      const now = deps.clock.now()
      const { before, stored } = await auditedWrite(deps, user, () => {
        const done = voice.upload(lang, name, contentType, raw, now)
        const view = (c: { contentType: string; bytes: number; sha256: string }) => ({ contentType: c.contentType, bytes: c.bytes, sha256: c.sha256 })
        return { result: done, audit: { action: 'voice.upload', entity: { type: 'voice-clip', id: `${lang}/${name}` }, before: done.before && view(done.before), after: view(done.stored) } }
      })
      deps.log({ level: 'info', msg: 'voice clip uploaded', by: user.username, lang, clip: name, bytes: stored.bytes })
      return ok(200, { data: { lang, name, contentType: stored.contentType, bytes: stored.bytes, sha256: stored.sha256, importedAt: new Date(stored.importedAt).toISOString(), replaced: before !== null } })
    }, { admitConsole: { who: 'console', body: MAX_UPLOAD_BYTES }, parse: 'none', detail: uploadVoiceClipDocs })
    .get(`${ADMIN_API}/voice/clips/:lang/:name`, async ({ request, params, principal }) => {
      const { lang, name } = named(params.lang, params.name)
      const clip = voice.read(lang, name)
      if (clip === null) throw new ApiError(404, C.VOICE_CLIP_NOT_FOUND, `no voice clip ${name} for ${lang}`)
      return new Response(clip.audio, { headers: { 'content-type': clip.contentType, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } })
    }, { admitConsole: { who: 'console' }, detail: playVoiceClipDocs })
    .delete(`${ADMIN_API}/voice/clips/:lang/:name`, async ({ request, params, principal }) => {
      const user = principal.user
      const { lang, name } = named(params.lang, params.name)
      const removed = await auditedWrite(deps, user, () => {
        const n = voice.remove(lang, name)
        if (n === 0) throw new ApiError(404, C.VOICE_CLIP_NOT_FOUND, `no voice clip ${name} for ${lang}`)
        return { result: n, audit: { action: 'voice.remove', entity: { type: 'voice-clip', id: `${lang}/${name}` } } }
      })
      deps.log({ level: 'info', msg: 'voice clip removed', by: user.username, lang, clip: name })
      return ok(200, { data: { lang, name, removed } })
    }, { admitConsole: { who: 'console' }, detail: removeVoiceClipDocs })
}
