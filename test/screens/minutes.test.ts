import { describe, expect, test } from 'bun:test'
import { formatMinutes } from '../../src/screens/shared/format'

// Contract §19: minutes as people say them, never a promise to the second.
describe('formatMinutes', () => {
  test('whole minutes (at least 1) up to 10, then the nearest 5; hours from 2 hours', () => {
    expect(formatMinutes('en', 1)).toBe('1 min')
    expect(formatMinutes('en', 4 * 60 + 1)).toBe('5 min')
    expect(formatMinutes('en', 10 * 60)).toBe('10 min')
    expect(formatMinutes('en', 12 * 60)).toBe('10 min')
    expect(formatMinutes('en', 13 * 60)).toBe('15 min')
    expect(formatMinutes('en', 47 * 60)).toBe('45 min')
    expect(formatMinutes('en', 3 * 3600)).toBe('3 hr')
  })
})
