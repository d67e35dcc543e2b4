import { describe, expect, test } from 'bun:test'
import { Glob } from 'bun'
import { join } from 'node:path'
import { withPageDigits, PAGE_DIGITS } from '../../src/screens/shared/digits'
import { formatCountdown, formatNumber, formatSaidMinutes, formatTime } from '../../src/screens/shared/format'
import { joinContext, joinGet, JOIN } from '../join/helpers'
import { issue } from '../queue/helpers'

/*
 * Contract §28: "Digits follow one rule per language on every page (the join page included)".
 * Issue 48 saw Eastern Arabic digits on the join page (an ar-EG browser) and Western elsewhere
 * (pages formatting in a bare `ar`). The rule: Latin digits in every language, applied by one
 * function, `withPageDigits`, before any Intl formatter of a page.
 */

const ROOT = join(import.meta.dir, '../..')
const ARABIC_INDIC = /[\u0660-\u0669\u06f0-\u06f9]/

describe('one digit rule per language (contract §28)', () => {
  test('the rule: Latin digits in English and Arabic, whatever the region (ar-SA and ar-EG default to Arabic-Indic)', () => {
    expect(PAGE_DIGITS).toEqual({ en: 'latn', ar: 'latn' })
    for (const locale of ['ar', 'ar-SA', 'ar-EG', 'ar-u-nu-arab', 'en', 'en-GB', 'en-US', 'fa-IR']) {
      const tag = withPageDigits(locale)
      expect(new Intl.NumberFormat(tag).resolvedOptions().numberingSystem).toBe('latn')
      expect(new Intl.DateTimeFormat(tag, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }).format(Date.UTC(2026, 0, 1, 13, 45))).not.toMatch(ARABIC_INDIC)
    }
    // The reader's region still decides the rest: 12-hour ar-EG stays 12-hour.
    expect(withPageDigits('ar-EG')).toBe('ar-EG-u-nu-latn')
    expect(withPageDigits('not a tag')).toBe('not a tag')
  })

  test('the pages\' formatters (format.ts: boards, kiosk, phone, desk, floor, join) write Latin digits for ar-SA', () => {
    const at = Date.UTC(2026, 0, 1, 13, 45)
    for (const text of [formatTime('ar-SA', 'UTC', at), formatNumber('ar-SA', 12345), formatSaidMinutes('ar-SA', 15), formatCountdown('ar-EG', 3_723_000)]) {
      expect(text).toMatch(/[0-9]/)
      expect(text).not.toMatch(ARABIC_INDIC)
    }
  })

  test('the join page read by an ar-EG browser: Arabic words, Latin digits, as the ticket numbers', async () => {
    const ctx = joinContext()
    for (let i = 0; i < 12; i++) await issue(ctx, ctx.key('all'))
    const html = await (await joinGet(ctx, JOIN, { 'accept-language': 'ar-EG,ar;q=0.9' })).text()
    expect(html).toContain('dir="rtl"')
    expect(html).toMatch(/12/)
    expect(html).not.toMatch(ARABIC_INDIC)
  })

  test('every Intl number or date formatter of a page goes through withPageDigits', async () => {
    const files = [
      ...await Array.fromAsync(new Glob('src/screens/{client,shared}/**/*.ts').scan({ cwd: ROOT })),
      ...await Array.fromAsync(new Glob('src/*/{page,pages,print,words}.ts').scan({ cwd: ROOT })),
    ]
    expect(files.length).toBeGreaterThan(20)
    const offenders: string[] = []
    for (const file of files) {
      const text = await Bun.file(join(ROOT, file)).text()
      for (const match of text.matchAll(/new Intl\.(?:NumberFormat|DateTimeFormat)\((?!withPageDigits\()/g)) {
        offenders.push(`${file}:${text.slice(0, match.index).split('\n').length}`)
      }
      if (/\.toLocale(?:String|DateString|TimeString)\(/.test(text)) offenders.push(`${file}: toLocale…String`)
    }
    expect(offenders).toEqual([])
  })
})
