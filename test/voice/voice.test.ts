import { describe, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { jsonOf, request, testContext } from '../support/app'
import { exampleDocument, provision } from '../support/fixtures'
import { runCli, tempDir } from '../support/cli'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { listClips, numberClips, storeClips } from '../../src/voice/service'
import { VoiceCodes } from '../../src/voice/errors'
import { readClipDirectory } from '../../src/cli/voice'
import { clipDirectory, FULL_SET, wav } from './support'

function voiceContext() {
  const ctx = testContext()
  const p = provision(ctx, exampleDocument())
  return { ...ctx, token: p.secret('display', 'ws_demo', 'lobby-screens'), queueKey: p.secret('queue', 'qu_main', 'all') }
}

const clipsOf = (names: string[]) => names.map((name, i) => ({ name, contentType: 'audio/wav' as const, bytes: wav(300, i + 1) }))

describe('clip names', () => {
  test('a ticket number is said letter by letter and digit by digit', () => {
    expect(numberClips('A012')).toEqual(['A', '0', '1', '2'])
    expect(numberClips('WMB100')).toEqual(['W', 'M', 'B', '1', '0', '0'])
    expect(numberClips('A-1')).toBeNull()
  })

  test('import reads ticket, please-go-to, digits, letters and counter clips; anything else stores nothing', () => {
    const dir = clipDirectory(join(tempDir(), 'ar'), ['ticket', 'please-go-to', '0', 'a', 'counter-cnt_1'])
    expect(readClipDirectory(dir).map((c) => c.name)).toEqual(['0', 'A', 'counter-cnt_1', 'please-go-to', 'ticket'])
    writeFileSync(join(dir, 'hello.wav'), wav())
    writeFileSync(join(dir, 'notes.txt'), 'x')
    writeFileSync(join(dir, '1.mp3'), 'this is not an mp3')
    expect(() => readClipDirectory(dir)).toThrow(/1\.mp3: not a audio\/mpeg file[\s\S]*hello\.wav: "hello" is not a clip name[\s\S]*notes\.txt: not \.wav/)
  })
})

describe('voice display routes', () => {
  test("the manifest lists the language's clips and the unit's counters; clips load with the display token", async () => {
    const ctx = voiceContext()
    storeClips(ctx.db, 'ar', clipsOf(FULL_SET), 1_000)
    const response = await request(ctx.app, 'GET', '/api/display/v1/queue-units/qu_main/voice?lang=ar-EG', { headers: { authorization: `Bearer ${ctx.token}` } })
    expect(response.status).toBe(200)
    const manifest = await jsonOf(response)
    expect(manifest.lang).toBe('ar-EG')
    expect(manifest.clipLang).toBe('ar')
    expect(manifest.complete).toBe(true)
    expect(manifest.counters).toEqual([
      { id: 'cnt_1', name: 'Counter 1', locationId: 'loc_hall' },
      { id: 'cnt_2', name: 'Counter 2', locationId: 'loc_hall' },
    ])
    expect(manifest.clips.map((c: { name: string }) => c.name).sort()).toEqual([...FULL_SET].sort())
    const ticket = manifest.clips.find((c: { name: string }) => c.name === 'ticket')
    const clip = await request(ctx.app, 'GET', `${ticket.href}&token=${ctx.token}`)
    expect(clip.status).toBe(200)
    expect(clip.headers.get('content-type')).toBe('audio/wav')
    expect(clip.headers.get('cache-control')).toContain('immutable')
    expect([...new Uint8Array(await clip.arrayBuffer())]).toEqual([...wav(300, 1)])
    expect((await request(ctx.app, 'GET', ticket.href, { headers: { authorization: `Bearer ${ctx.token}`, 'if-none-match': clip.headers.get('etag')! } })).status).toBe(304)
  })

  test('a language without clips: an empty manifest, so the board falls back to speech or the chime', async () => {
    const ctx = voiceContext()
    storeClips(ctx.db, 'ar', clipsOf(['ticket']), 1_000)
    const manifest = await jsonOf(await request(ctx.app, 'GET', `/api/display/v1/queue-units/qu_main/voice?lang=fr&token=${ctx.token}`))
    expect(manifest).toMatchObject({ lang: 'fr', clipLang: null, complete: false, clips: [] })
    const partial = await jsonOf(await request(ctx.app, 'GET', `/api/display/v1/queue-units/qu_main/voice?lang=ar&token=${ctx.token}`))
    expect(partial.complete).toBe(false)
  })

  test('another unit\'s counter clips are not listed', async () => {
    const ctx = voiceContext()
    storeClips(ctx.db, 'ar', clipsOf(['ticket', 'counter-cnt_1', 'counter-cnt_elsewhere']), 1_000)
    const manifest = await jsonOf(await request(ctx.app, 'GET', `/api/display/v1/queue-units/qu_main/voice?lang=ar&token=${ctx.token}`))
    expect(manifest.clips.map((c: { name: string }) => c.name).sort()).toEqual(['counter-cnt_1', 'ticket'])
  })

  test('only a display credential: no token or a queue key is 401; an unknown unit or clip is 404; a bad lang 400', async () => {
    const ctx = voiceContext()
    storeClips(ctx.db, 'ar', clipsOf(['ticket']), 1_000)
    for (const path of ['/api/display/v1/queue-units/qu_main/voice?lang=ar', '/api/display/v1/voice-clips/ar/ticket']) {
      const none = await request(ctx.app, 'GET', path)
      expect(none.status).toBe(401)
      expect((await jsonOf(none)).error.code).toBe(VoiceCodes.AUTHENTICATION_FAILED)
      expect((await request(ctx.app, 'GET', path, { headers: { authorization: `Bearer ${ctx.queueKey}` } })).status).toBe(401)
    }
    const auth = { headers: { authorization: `Bearer ${ctx.token}` } }
    expect((await request(ctx.app, 'GET', '/api/display/v1/queue-units/qu_nope/voice?lang=ar', auth)).status).toBe(404)
    expect((await request(ctx.app, 'GET', '/api/display/v1/voice-clips/ar/please-go-to', auth)).status).toBe(404)
    expect((await request(ctx.app, 'GET', '/api/display/v1/voice-clips/ar/..%2Fetc', auth)).status).toBe(404)
    const bad = await request(ctx.app, 'GET', '/api/display/v1/queue-units/qu_main/voice?lang=%3Cx%3E', auth)
    expect(bad.status).toBe(400)
    expect((await jsonOf(bad)).error.code).toBe(VoiceCodes.INVALID_REQUEST)
  })

  test('the voice routes answer CORS like the other display routes', async () => {
    const ctx = voiceContext()
    const response = await request(ctx.app, 'GET', `/api/display/v1/queue-units/qu_main/voice?lang=en&token=${ctx.token}`)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('lobby voice import / list / remove', () => {
  test('imports a directory into the database, replaces a clip on a second import, lists and removes', () => {
    const dir = tempDir()
    const db = join(dir, 'lobby.db')
    const created = openDatabase(db)
    migrateDatabase(created.$client)
    created.$client.close()
    const clips = clipDirectory(join(dir, 'clips'), ['ticket', 'please-go-to', '0', '1', 'A', 'counter-cnt_1'])

    const first = runCli(['voice', 'import', '--db', db, '--lang', 'ar', '--dir', clips])
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    const report = JSON.parse(first.stdout)
    expect(report.lang).toBe('ar')
    expect(report.imported.map((c: { name: string }) => c.name)).toEqual(['0', '1', 'A', 'counter-cnt_1', 'please-go-to', 'ticket'])
    expect(report.missing).toEqual(['2', '3', '4', '5', '6', '7', '8', '9'])

    writeFileSync(join(clips, 'ticket.wav'), wav(900, 7))
    expect(runCli(['voice', 'import', '--db', db, '--lang', 'ar', '--dir', clips]).code).toBe(0)
    const reader = openDatabase(db)
    const ticket = listClips(reader).find((c) => c.name === 'ticket')!
    expect(ticket.bytes).toBe(readFileSync(join(clips, 'ticket.wav')).byteLength)
    expect(listClips(reader)).toHaveLength(6)
    reader.$client.close()

    const listed = JSON.parse(runCli(['voice', 'list', '--db', db]).stdout)
    expect(listed).toHaveLength(6)
    expect(listed[0]).toMatchObject({ lang: 'ar', name: '0', contentType: 'audio/wav' })
    expect(JSON.parse(runCli(['voice', 'remove', '--db', db, '--lang', 'ar', '--name', 'A']).stdout)).toEqual({ lang: 'ar', removed: 1 })
    expect(JSON.parse(runCli(['voice', 'list', '--db', db, '--lang', 'ar']).stdout)).toHaveLength(5)
  }, 30_000)

  test('a bad file, a bad language or a missing directory exits 2 with one clear message and stores nothing', () => {
    const dir = tempDir()
    const db = join(dir, 'lobby.db')
    const created = openDatabase(db)
    migrateDatabase(created.$client)
    created.$client.close()
    const clips = clipDirectory(join(dir, 'clips'), ['ticket', 'please-go-to'])
    writeFileSync(join(clips, 'counter 3.wav'), wav())
    const bad = runCli(['voice', 'import', '--db', db, '--lang', 'ar', '--dir', clips])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('counter 3.wav: "counter 3" is not a clip name')
    expect(JSON.parse(runCli(['voice', 'list', '--db', db]).stdout)).toEqual([])
    expect(runCli(['voice', 'import', '--db', db, '--lang', 'not a tag', '--dir', clips]).code).toBe(2)
    expect(runCli(['voice', 'import', '--db', db, '--lang', 'ar', '--dir', join(dir, 'nowhere')]).stderr).toContain('cannot read --dir')
    expect(runCli(['voice', 'import', '--db', join(dir, 'missing.db'), '--lang', 'ar', '--dir', clips]).code).toBe(2)
  }, 30_000)
})
