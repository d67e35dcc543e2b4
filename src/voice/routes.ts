import { Elysia, t } from 'elysia'
import type { VoiceDeps } from './deps'
import { ApiError } from '../platform/errors'
import type { AdmissionPlugin } from '../access'
import { canonicalLang } from '../screens'
import { isClipName, readClip, voiceManifest } from './service'
import { VoiceCodes } from './errors'
import { readVoiceClipDocs, readVoiceManifestDocs } from './docs'

const PREFIX = '/api/display/v1'

/** The URL of a clip: its version in the query, so a board may keep it for good. */
export function clipHref(lang: string, name: string, sha256: string): string {
  return `${PREFIX}/voice-clips/${encodeURIComponent(lang)}/${encodeURIComponent(name)}?v=${sha256.slice(0, 16)}`
}

/**
 * Contract §11: the recorded clips of spoken calls, for queue boards. Display routes like
 * the others of contract §6 (a display credential, CORS from the display plugin): a board asks
 * for its unit's manifest in its language, then loads the clips it names.
 */
export function voiceRoutes(deps: VoiceDeps, { access }: { access: AdmissionPlugin }) {
  // A paired display (its cookie) hears calls like a display token's board does: `devices`.
  return new Elysia({ name: 'lobby.voice' })
    .use(access)
    .get(
      `${PREFIX}/queue-units/:queueUnitId/voice`,
      ({ query, params, principal: credential }) => {
        const lang = canonicalLang(query.lang)
        if (lang === null) throw new ApiError(400, VoiceCodes.INVALID_REQUEST, '`lang` must be a BCP 47 language tag (e.g. ar, en-GB)')
        const manifest = voiceManifest(deps.db, params.queueUnitId, credential.ownerId, lang, (clip) => clipHref(clip.lang, clip.name, clip.sha256))
        if (manifest === null) throw new ApiError(404, VoiceCodes.NOT_FOUND, 'no such queue unit for this display token')
        return new Response(JSON.stringify(manifest), { headers: { 'content-type': 'application/json', 'cache-control': 'no-cache' } })
      },
      {
        query: t.Object({ lang: t.Optional(t.String({ maxLength: 64 })), token: t.Optional(t.String()) }),
        admitDisplay: true,
        detail: readVoiceManifestDocs,
      },
    )
    .get(
      `${PREFIX}/voice-clips/:lang/:name`,
      ({ request, query, params }) => {
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
        admitDisplay: true,
        detail: readVoiceClipDocs,
      },
    )
}
