import { describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { canonicalJson, monthChecksum } from '../../src/prayer/checksum'

describe('RFC 8785 canonical JSON and the month checksum', () => {
  test('keys sorted by UTF-16 code units, no whitespace, shortest numbers', () => {
    const parsed = JSON.parse('{ "b": [1.0, 2.50, 1e3], "a": "x", "\\u20ac": 1, "\\r": 2, "1": true, "A": null }')
    expect(canonicalJson(parsed)).toBe('{"\\r":2,"1":true,"A":null,"a":"x","b":[1,2.5,1000],"€":1}')
  })

  test('the RFC 8785 §3.2.2 number examples', () => {
    const parsed = JSON.parse('[333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001, -0]')
    expect(canonicalJson(parsed)).toBe('[333333333.3333333,1e+30,4.5,0.002,1e-27,0]')
  })

  test('bodies differing in key order and whitespace have one checksum', () => {
    const a = canonicalJson(JSON.parse('{"period":"2026-11","timezone":"Europe/London","days":[]}'))
    const b = canonicalJson(JSON.parse('{\n  "days": [ ],\n  "timezone": "Europe/London", "period": "2026-11"\n}'))
    expect(a).toBe(b)
    expect(monthChecksum(a)).toBe(monthChecksum(b))
  })

  test('checksum is sha256: + the hex SHA-256 of the canonical text', () => {
    const text = '{"days":[],"period":"2026-11","timezone":"Europe/London"}'
    expect(monthChecksum(text)).toBe(`sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`)
    expect(monthChecksum(text)).toMatch(/^sha256:[0-9a-f]{64}$/)
  })
})
