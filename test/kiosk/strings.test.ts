import { describe, expect, test } from 'bun:test'
import { countWords, kioskWordsFor, languageName } from '../../src/screens/shared/kiosk-strings'

describe('the kiosk\'s words (contract §18)', () => {
  test('"n waiting" takes its plural form through Intl.PluralRules, never a number glued to one word', () => {
    const ar = kioskWordsFor('ar').waiting
    expect([1, 2, 3, 10, 11, 99, 100].map((n) => countWords(ar, n, 'ar'))).toEqual([
      'شخص واحد في الانتظار', 'شخصان في الانتظار', '3 أشخاص في الانتظار', '10 أشخاص في الانتظار',
      '11 شخصًا في الانتظار', '99 شخصًا في الانتظار', '100 شخص في الانتظار',
    ])
    expect(countWords(kioskWordsFor('en').waiting, 3, 'en')).toBe('3 waiting')
    expect(countWords(kioskWordsFor('en').waiting, 1, 'en')).toBe('1 waiting')
    // The page's own digits go in as given.
    expect(countWords(ar, 3, 'ar', '٣')).toBe('٣ أشخاص في الانتظار')
  })

  test('every table has the same words, and each language is named in itself', () => {
    expect(Object.keys(kioskWordsFor('ar')).sort()).toEqual(Object.keys(kioskWordsFor('en')).sort())
    expect(kioskWordsFor('fr')).toBe(kioskWordsFor('en'))
    expect([languageName('en'), languageName('ar'), languageName('fr')]).toEqual(['English', 'العربية', 'Français'])
  })
})
