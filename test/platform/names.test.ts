import { describe, expect, test } from 'bun:test'
import { acceptedLanguage, acceptedLocale, canonicalLanguageTag, matchLanguage, namesObject, resolveName } from '../../src/platform/names'

describe('names in every language (contract §18)', () => {
  const accounts = { en: 'Accounts', ar: 'الحسابات' }

  test('the asked language, else the unit\'s default, else the first given', () => {
    expect(resolveName(accounts, 'ar', 'en')).toBe('الحسابات')
    expect(resolveName(accounts, 'fr', 'en')).toBe('Accounts')
    expect(resolveName({ fr: 'Comptes', ar: 'الحسابات' }, 'de', 'en')).toBe('Comptes')
    expect(resolveName('Accounts', 'ar', 'en')).toBe('Accounts')
    expect(resolveName(accounts, null, 'ar')).toBe('الحسابات')
  })

  test('a regional reader reads the language, and the other way round; case does not matter', () => {
    expect(resolveName(accounts, 'ar-EG', 'en')).toBe('الحسابات')
    expect(resolveName({ 'en-GB': 'Accounts (GB)', ar: 'الحسابات' }, 'en', 'ar')).toBe('Accounts (GB)')
    expect(matchLanguage('EN-gb', ['en-GB', 'en'])).toBe('en-GB')
    expect(matchLanguage('de', ['en', 'ar'])).toBeNull()
  })

  test('Accept-Language: by weight, then order; q=0 and * are no choice', () => {
    expect(acceptedLanguage('fr-CH, fr;q=0.9, ar;q=0.8, en;q=0.7', ['en', 'ar'])).toBe('ar')
    expect(acceptedLanguage('en;q=0.5, ar', ['en', 'ar'])).toBe('ar')
    expect(acceptedLanguage('ar;q=0, en', ['en', 'ar'])).toBe('en')
    expect(acceptedLanguage('*', ['en', 'ar'])).toBeNull()
    expect(acceptedLanguage(null, ['en'])).toBeNull()
    expect(acceptedLanguage('x'.repeat(2000), ['en'])).toBeNull()
  })

  test('Accept-Language within a language: the reader\'s own locale of it, by weight, canonical; none of it: null', () => {
    expect(acceptedLocale('en-gb,en;q=0.9', 'en')).toBe('en-GB')
    expect(acceptedLocale('de-DE, en-US;q=0.8, en;q=0.5', 'en')).toBe('en-US')
    expect(acceptedLocale('en-US;q=0.4, en-GB;q=0.9', 'en')).toBe('en-GB')
    expect(acceptedLocale('ar-EG', 'ar')).toBe('ar-EG')
    // A bare language says nothing of how dates are written: the next tag, or none.
    expect(acceptedLocale('en, en-AU;q=0.5', 'en')).toBe('en-AU')
    expect(acceptedLocale('ar', 'ar')).toBeNull()
    expect(acceptedLocale('fr-CH, de', 'en')).toBeNull()
    expect(acceptedLocale('en-@@, en-CA;q=0.3', 'en')).toBe('en-CA')
    expect(acceptedLocale('en-US;q=0', 'en')).toBeNull()
    expect(acceptedLocale(null, 'en')).toBeNull()
    expect(acceptedLocale('en-US,' + 'x'.repeat(2000), 'en')).toBeNull()
  })

  test('tags are checked and spelled canonically; a plain name becomes one entry of the default language', () => {
    expect(canonicalLanguageTag('en-gb')).toBe('en-GB')
    expect(canonicalLanguageTag('zh-hant-tw')).toBe('zh-Hant-TW')
    expect(canonicalLanguageTag('english language')).toBeNull()
    expect(canonicalLanguageTag('x'.repeat(40))).toBeNull()
    expect(namesObject('Accounts', 'en')).toEqual({ en: 'Accounts' })
  })
})
