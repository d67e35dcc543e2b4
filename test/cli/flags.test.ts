import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { runCli, tempDir } from '../support/cli'
import { frameAncestorsFrom } from '../../src/cli/serve'

describe('lobby CLI', () => {
  test('--version names the version, the commit and the schema version', () => {
    const r = runCli(['--version'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^lobby \d+\.\d+\.\d+ \((?:[0-9a-f]+(?:\+dirty)?|unknown), built \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\) schema \d+\n$/)
  })

  test.each([
    [['--bogus']],
    [['serve', '--port', 'eighty']],
    [['serve', '--durability', 'sometimes']],
    [['serve', '--nope']],
    [['serve', '--tls-cert', '/nonexistent.pem']],
    [['serve', '--cors-origin', '*']],
    [['serve', '--cors-origin', 'https://kiosk.example.com/app']],
    [['serve', '--frame-ancestors', '*']],
    [['serve', '--frame-ancestors', 'https://*.example.com']],
    [['serve', '--frame-ancestors', 'https://signage.example.com/player']],
    [['serve', '--frame-ancestors', 'https://signage.example.com', '--frame-ancestors', 'signage2.example.com']],
    [['migrate', '--db']],
    [['serve', '--retain-days', '0']],
    [['serve', '--metrics-token', 'short']],
    [['service-unit', '--binary', 'lobby']],
    [['provision', '--example', '--file', 'x.yaml']],
  ])('a bad flag %p exits 2 with one line on stderr', (args) => {
    const r = runCli(args)
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toStartWith('lobby: ')
  })

  test('a bad environment value is refused like a bad flag', () => {
    const r = runCli(['serve'], { LOBBY_DURABILITY: 'maybe' })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--durability')
    const cors = runCli(['serve'], { LOBBY_CORS_ORIGINS: 'https://kiosk.example.com,kiosk2.example.com' })
    expect(cors.code).toBe(2)
    expect(cors.stderr).toContain('--cors-origin must be an origin')
    const frames = runCli(['serve'], { LOBBY_FRAME_ANCESTORS: 'https://signage.example.com, https://a;b.example.com' })
    expect(frames.code).toBe(2)
    expect(frames.stderr.trim().split('\n')).toHaveLength(1)
    expect(frames.stderr).toContain('--frame-ancestors must be an origin')
  })

  test('--frame-ancestors: origins as CSP takes them, the flag over the environment, each once', () => {
    expect(frameAncestorsFrom(['https://Signage.Example.com:443', 'http://10.0.0.5:8080', 'https://signage.example.com'], 'https://ignored.example.com'))
      .toEqual(['https://signage.example.com', 'http://10.0.0.5:8080'])
    expect(frameAncestorsFrom(undefined, 'https://a.example.com, https://b.example.com')).toEqual(['https://a.example.com', 'https://b.example.com'])
    expect(frameAncestorsFrom(undefined, undefined)).toEqual([])
  })

  test('--help works on every command', () => {
    for (const command of ['serve', 'migrate']) {
      const r = runCli([command, '--help'])
      expect(r.code).toBe(0)
      expect(r.stdout).toContain(`lobby ${command}`)
    }
  })

  test('migrate applies, then reports nothing to apply; LOBBY_DB is honoured', () => {
    const db = join(tempDir(), 'x', 'lobby.db')
    const first = runCli(['migrate'], { LOBBY_DB: db })
    expect(first.code).toBe(0)
    expect(JSON.parse(first.stdout).applied.length).toBeGreaterThan(0)
    const second = runCli(['migrate', '--db', db])
    expect(JSON.parse(second.stdout).applied).toEqual([])
  })
})
