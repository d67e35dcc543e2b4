import { describe, expect, test } from 'bun:test'
import { nameIn, languageOfName } from '../../src/client/names'
import { formatOpening } from '../../src/screens/shared/format'
import { resolveName } from '../../src/platform/names'

describe('the pages\' name resolver and opening times (contract §18)', () => {
  const names = { en: 'Accounts', ar: 'الحسابات', 'fr-CA': 'Comptes' }

  test('the same rule as the server\'s resolver, case for case', () => {
    for (const [lang, fallbackLanguage] of [['ar', 'en'], ['ar-EG', 'en'], ['fr', 'en'], ['de', 'ar'], ['de', 'xx'], ['EN', 'ar']] as const) {
      expect(nameIn(names, lang, fallbackLanguage, 'x')).toBe(resolveName(names, lang, fallbackLanguage))
    }
    expect(nameIn(null, 'ar', 'en', 'Accounts')).toBe('Accounts')
    expect(languageOfName(names, 'ar-SA', 'en')).toBe('ar')
    expect(languageOfName({ en: 'Loans' }, 'ar', 'en')).toBe('en')
  })

  test('an opening today is a time; within the week a weekday and time; later a date', () => {
    const now = Date.parse('2026-11-27T18:00:00Z') // Friday evening in London
    expect(formatOpening('en-GB', 'Europe/London', '2026-11-27T19:30:00.000Z', now)).toBe('19:30')
    expect(formatOpening('en-GB', 'Europe/London', '2026-11-30T08:30:00.000Z', now)).toBe('Monday 08:30')
    expect(formatOpening('en-US', 'America/New_York', '2026-11-30T13:30:00.000Z', now)).toBe('Monday 08:30 AM')
    expect(formatOpening('ar', 'Europe/London', '2026-11-30T08:30:00.000Z', now)).toContain('الاثنين')
    expect(formatOpening('en-GB', 'Europe/London', '2026-12-28T09:00:00.000Z', now)).toBe('Monday 28 December 09:00')
  })
})
