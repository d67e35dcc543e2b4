import { describe, expect, test } from 'bun:test'
import { AdminCodes as C } from '../../src/admin/errors'
import { FULL_SET, wav } from '../voice/support'
import { auditOf, call, expectError, expectOk, jsonOf, request, sectionContext, type SectionContext } from './section-helpers'

const upload = (ctx: SectionContext, cookie: string | null, lang: string, name: string, bytes: Uint8Array | string, type = 'audio/wav', origin?: string) =>
  call(ctx, cookie, 'PUT', `/voice/clips/${lang}/${name}`, { raw: bytes as RequestInit['body'], headers: { 'content-type': type }, ...(origin !== undefined ? { origin } : {}) })

describe('console: voice clips', () => {
  test('upload, see what is missing per language, play it back; a manager may too; each upload audited', async () => {
    const ctx = await sectionContext()
    const before = (await expectOk(await call(ctx, ctx.manager, 'GET', '/voice/clips?lang=ar'))).data
    expect(before).toEqual([{ lang: 'ar', clips: [], missing: ['ticket', 'please-go-to', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'], missingForBranch: ['A', 'E', 'L', 'counter-cnt_1', 'counter-cnt_2', 'counter-cnt_e1'] }])

    const clip = wav(400, 3)
    const stored = (await expectOk(await upload(ctx, ctx.manager, 'ar', 'ticket', clip))).data
    expect(stored).toMatchObject({ lang: 'ar', name: 'ticket', contentType: 'audio/wav', bytes: clip.byteLength, replaced: false })
    expect((await expectOk(await upload(ctx, ctx.admin, 'ar', 'a', wav(400, 4)))).data).toMatchObject({ name: 'A', replaced: false })
    expect((await expectOk(await upload(ctx, ctx.admin, 'ar', 'ticket', wav(500, 5), 'audio/x-wav'))).data).toMatchObject({ bytes: 1044, replaced: true })
    const after = (await expectOk(await call(ctx, ctx.admin, 'GET', '/voice/clips?lang=ar'))).data[0]
    expect(after.clips.map((c: any) => c.name)).toEqual(['A', 'ticket'])
    expect(after.missing).not.toContain('ticket')
    expect(after.missingForBranch).toEqual(['E', 'L', 'counter-cnt_1', 'counter-cnt_2', 'counter-cnt_e1'])
    // Without `lang`: every language of the branch's units and every language with clips.
    expect((await expectOk(await call(ctx, ctx.admin, 'GET', '/voice/clips'))).data.map((l: any) => l.lang)).toEqual(['ar', 'en'])

    const played = await call(ctx, ctx.manager, 'GET', '/voice/clips/ar/ticket')
    expect(played.status).toBe(200)
    expect(played.headers.get('content-type')).toBe('audio/wav')
    expect([...new Uint8Array(await played.arrayBuffer())]).toEqual([...wav(500, 5)])
    await expectError(await call(ctx, ctx.manager, 'GET', '/voice/clips/ar/5'), 404, C.VOICE_CLIP_NOT_FOUND)
    await expectError(await call(ctx, ctx.manager, 'GET', '/voice/clips/ar/hello'), 404, C.VOICE_CLIP_NOT_FOUND)

    expect(auditOf(ctx, 'voice.upload').map((e) => [e.actor.id, e.entity.id])).toEqual([['ada', 'ar/ticket'], ['ada', 'ar/A'], ['mona', 'ar/ticket']])
    expect(auditOf(ctx, 'voice.upload')[0]).toMatchObject({ before: { bytes: clip.byteLength }, after: { contentType: 'audio/wav', bytes: 1044 } })
    expect((await expectOk(await call(ctx, ctx.admin, 'DELETE', '/voice/clips/ar/A'))).data).toEqual({ lang: 'ar', name: 'A', removed: 1 })
    await expectError(await call(ctx, ctx.admin, 'DELETE', '/voice/clips/ar/A'), 404, C.VOICE_CLIP_NOT_FOUND)
    expect(auditOf(ctx, 'voice.remove')).toHaveLength(1)
  })

  test('a complete set uploaded through the console is what a board\'s manifest uses', async () => {
    const ctx = await sectionContext()
    for (const [i, name] of FULL_SET.entries()) await expectOk(await upload(ctx, ctx.admin, 'ar', name, wav(400, i + 1)))
    expect((await expectOk(await call(ctx, ctx.admin, 'GET', '/voice/clips?lang=ar'))).data[0].missing).toEqual([])
    const token = ctx.provisioned.secret('display', 'ws_demo', 'lobby-screens')
    const manifest = await jsonOf(await request(ctx.app, 'GET', `/api/display/v1/queue-units/qu_main/voice?lang=ar&token=${token}`))
    expect(manifest).toMatchObject({ clipLang: 'ar', complete: true })
  })

  test('bounds and checks: over 1 MiB is 413 in the envelope (declared or chunked), another type 415, bytes not of the type 422, a bad name or language 422', async () => {
    const ctx = await sectionContext()
    const big = new Uint8Array(1024 * 1024 + 1)
    big.set(wav(400, 1))
    const declared = await upload(ctx, ctx.admin, 'ar', 'ticket', big)
    await expectError(declared, 413, C.PAYLOAD_TOO_LARGE)
    const chunked = new ReadableStream({ start(controller) { for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(300 * 1024)); controller.close() } })
    const streamed = await ctx.app.handle(new Request('http://localhost/api/admin/v1/voice/clips/ar/ticket', { method: 'PUT', body: chunked, headers: { cookie: ctx.admin, origin: 'http://localhost', 'content-type': 'audio/wav' } }))
    const body = await expectError(streamed, 413, C.PAYLOAD_TOO_LARGE)
    expect(body.error.correlationId).toBeString()
    await expectError(await upload(ctx, ctx.admin, 'ar', 'ticket', wav(), 'text/plain'), 415, C.UNSUPPORTED_CONTENT_TYPE)
    await expectError(await upload(ctx, ctx.admin, 'ar', 'ticket', 'OggS but not really', 'audio/wav'), 422, C.VALIDATION_FAILED)
    await expectError(await upload(ctx, ctx.admin, 'ar', 'hello', wav()), 422, C.VALIDATION_FAILED)
    await expectError(await upload(ctx, ctx.admin, 'not a tag!', 'ticket', wav()), 422, C.VALIDATION_FAILED)
    await expectError(await call(ctx, ctx.admin, 'GET', '/voice/clips?lang=x_y_z'), 422, C.VALIDATION_FAILED)
    expect(auditOf(ctx)).toEqual([])
  })

  test('a clerk is 403, no session or a display token 401, a foreign Origin 403 — before the audio is read', async () => {
    const ctx = await sectionContext()
    const token = ctx.provisioned.secret('display', 'ws_demo', 'lobby-screens')
    await expectError(await upload(ctx, ctx.clerk, 'ar', 'ticket', wav()), 403, C.ROLE_FORBIDDEN)
    await expectError(await call(ctx, ctx.clerk, 'GET', '/voice/clips'), 403, C.ROLE_FORBIDDEN)
    await expectError(await call(ctx, ctx.clerk, 'GET', '/voice/clips/ar/ticket'), 403, C.ROLE_FORBIDDEN)
    await expectError(await call(ctx, ctx.clerk, 'DELETE', '/voice/clips/ar/ticket'), 403, C.ROLE_FORBIDDEN)
    await expectError(await upload(ctx, null, 'ar', 'ticket', wav()), 401, C.AUTHENTICATION_FAILED)
    await expectError(await call(ctx, null, 'GET', `/voice/clips?token=${token}`, { headers: { authorization: `Bearer ${token}` } }), 401, C.AUTHENTICATION_FAILED)
    const foreign = await upload(ctx, ctx.admin, 'ar', 'ticket', wav(), 'audio/wav', 'https://evil.example')
    await expectError(foreign, 403, C.ORIGIN_FORBIDDEN)
    expect(foreign.headers.get('connection')).toBe('close')
    await expectError(await call(ctx, ctx.admin, 'DELETE', '/voice/clips/ar/ticket', { origin: 'https://evil.example' }), 403, C.ORIGIN_FORBIDDEN)
    expect(auditOf(ctx)).toEqual([])
  })
})
