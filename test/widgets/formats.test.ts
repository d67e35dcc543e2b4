import { describe, expect, test } from 'bun:test'
import { containsHtmlTag, isBcp47Locale, isCalendarDate, isHttpsUrl, parseWidgetDateTime } from '../../src/widgets/formats'
import { isIanaTimeZone } from '../../src/platform/time'

describe('HTML rule: a < followed by a letter, /, ! or ? is markup', () => {
  test.each(['<b>bold</b>', 'a<br>', '</p>', '<!-- note -->', '<?xml version="1.0"?>', '<script>', 'x<y'])('%p is markup', (text) => {
    expect(containsHtmlTag(text)).toBe(true)
  })
  test.each(['3 < 5', '<3', 'a < b', '<<', '<', '=> <= >=', '&lt;b&gt;'])('%p is text', (text) => {
    expect(containsHtmlTag(text)).toBe(false)
  })
})

describe('ISO 8601 date-time with an explicit offset', () => {
  test.each([
    ['2026-11-25T09:30:00Z', Date.UTC(2026, 10, 25, 9, 30)],
    ['2026-11-25T10:30:00+01:00', Date.UTC(2026, 10, 25, 9, 30)],
    ['2026-11-25T04:00:00-05:30', Date.UTC(2026, 10, 25, 9, 30)],
    ['2026-11-25T09:30Z', Date.UTC(2026, 10, 25, 9, 30)],
    ['2026-11-25T09:30:00.123456789Z', Date.UTC(2026, 10, 25, 9, 30, 0, 123)],
    ['2028-02-29T00:00:00+00:00', Date.UTC(2028, 1, 29)],
  ])('%p is accepted', (value, expected) => {
    expect(parseWidgetDateTime(value)).toBe(expected)
  })

  test('a two-digit year is that year, not 19xx', () => {
    expect(new Date(parseWidgetDateTime('0099-01-01T00:00:00Z')!).getUTCFullYear()).toBe(99)
  })

  test.each([
    '2026-11-25T09:30:00', // no offset
    '2026-11-25', // a date is not a date-time
    '2026-11-25 09:30:00Z', // space instead of T
    '2026-11-25t09:30:00z',
    '2026-11-25T09:30:00+0100', // basic offset with extended time
    '2026-11-25T09:30:00+01',
    '2026-11-25T24:00:00Z',
    '2026-11-25T09:60:00Z',
    '2026-11-25T09:30:60Z', // no leap seconds
    '2026-13-01T00:00:00Z',
    '2026-02-29T00:00:00Z', // 2026 is not a leap year
    '2026-04-31T00:00:00Z',
    '2026-11-25T09:30:00+24:00',
    '2026-11-25T09:30:00.Z',
    ' 2026-11-25T09:30:00Z',
    '',
  ])('%p is refused', (value) => {
    expect(parseWidgetDateTime(value)).toBeNull()
  })
})

describe('calendar date', () => {
  test.each(['2026-11-25', '2028-02-29', '2000-02-29', '2026-12-31'])('%p is a real date', (value) => {
    expect(isCalendarDate(value)).toBe(true)
  })
  test.each(['2026-02-29', '1900-02-29', '2026-00-10', '2026-11-31', '2026-1-5', '20261125', '2026-11-25T00:00:00Z'])('%p is not', (value) => {
    expect(isCalendarDate(value)).toBe(false)
  })
})

describe('BCP 47 locale', () => {
  test.each(['en', 'en-GB', 'de-CH-1996', 'zh-Hant-TW', 'ar-u-nu-latn', 'EN-gb'])('%p is a language tag', (value) => {
    expect(isBcp47Locale(value)).toBe(true)
  })
  test.each(['en_US', '', 'e', 'en--GB', 'english please', 'x-private'])('%p is not', (value) => {
    expect(isBcp47Locale(value)).toBe(false)
  })
})

describe('IANA time zone', () => {
  test.each(['Europe/Berlin', 'America/Argentina/Buenos_Aires', 'UTC', 'Etc/GMT+5'])('%p is a zone name', (value) => {
    expect(isIanaTimeZone(value)).toBe(true)
  })
  test.each(['+02:00', 'GMT+2', 'Mars/Olympus_Mons', '', 'Europe/Berlin '])('%p is not', (value) => {
    expect(isIanaTimeZone(value)).toBe(false)
  })
})

describe('https image URL', () => {
  test.each(['https://cdn.example.org/a.png', 'https://example.org/p?q=1&r=%20#x', 'HTTPS://EXAMPLE.ORG/'])('%p is accepted', (value) => {
    expect(isHttpsUrl(value)).toBe(true)
  })
  test.each([
    'http://example.org/a.png',
    'https://',
    'https:///path',
    '//example.org/a.png',
    'https://example.org/a b.png',
    'https://example.org/<b>',
    'https://exämple.org/',
    'javascript:alert(1)',
    'ftp://example.org/a.png',
  ])('%p is refused', (value) => {
    expect(isHttpsUrl(value)).toBe(false)
  })
})
