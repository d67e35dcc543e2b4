import { describe, expect, test } from 'bun:test'
import { plural } from '../../src/screens/shared/plural'
import { labelsFor } from '../../src/client/i18n'

describe('counts in words by the language\'s plural rules (src/screens/shared/plural.ts)', () => {
  test('English: one and other', () => {
    const phrase = labelsFor('en').stillWaiting
    expect([1, 2, 0].map((n) => plural('en', phrase, n))).toEqual(['1 ticket still waiting', '2 tickets still waiting', '0 tickets still waiting'])
  })

  test('Arabic: zero, one, two (the dual), few (3–10), many (11–99), other (100), in the page\'s digits', () => {
    const phrase = labelsFor('ar').stillWaiting
    const digits = (n: number) => new Intl.NumberFormat('ar').format(n)
    expect(plural('ar', phrase, 0)).toBe('لا توجد تذاكر في الانتظار')
    expect(plural('ar', phrase, 1)).toBe('تذكرة واحدة لا تزال في الانتظار')
    expect(plural('ar', phrase, 2)).toBe('تذكرتان لا تزالان في الانتظار')
    expect(plural('ar', phrase, 3)).toBe(`${digits(3)} تذاكر لا تزال في الانتظار`)
    expect(plural('ar', phrase, 11)).toBe(`${digits(11)} تذكرة لا تزال في الانتظار`)
    expect(plural('ar', phrase, 100)).toBe(`${digits(100)} تذكرة لا تزال في الانتظار`)
  })

  test('a form the phrase does not name falls back to other; every table has the words the board uses', () => {
    expect(plural('ar', { other: '{n} x' }, 2)).toBe(`${new Intl.NumberFormat('ar').format(2)} x`)
    for (const lang of ['en', 'ar', 'de', 'fr', 'tr']) {
      const labels = labelsFor(lang)
      expect(labels.opensAt).toContain('{when}')
      expect(labels.serviceOpensAt).toContain('{when}')
      expect(labels.stillWaiting.other).toContain('{n}')
      expect(labels.closed.length).toBeGreaterThan(0)
    }
    expect(plural('fr', labelsFor('fr').stillWaiting, 1)).toBe('1 ticket encore en attente')
    expect(plural('de', labelsFor('de').stillWaiting, 4)).toBe('4 Nummern warten noch')
  })
})
