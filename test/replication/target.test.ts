import { describe, expect, test } from 'bun:test'
import { parseReplicationTarget } from '../../src/replication/target'
import { UsageError } from '../../src/cli/args'

describe('--replicate-to (contract §14: the password never shown)', () => {
  test('shows user, host, port and database, never the password or the query', () => {
    const target = parseReplicationTarget('postgres://branch_a:p%40ss-W0rd@ho.example:5433/headoffice?sslmode=verify-full&sslrootcert=/etc/ca.pem')
    expect(target.display).toBe('postgres://branch_a@ho.example:5433/headoffice')
    expect(target.url).toContain('p%40ss-W0rd')
  })

  test('removes the password from driver messages, raw or URL-encoded, and the whole URL where it is repeated', () => {
    const url = 'postgresql://branch_a:p%40ss-W0rd@ho.example/headoffice'
    const target = parseReplicationTarget(url)
    const redacted = target.redact(`failed for ${url}; password p@ss-W0rd rejected (p%40ss-W0rd)`)
    expect(redacted).not.toContain('p@ss-W0rd')
    expect(redacted).not.toContain('p%40ss-W0rd')
    expect(redacted).toContain('postgres://branch_a@ho.example/headoffice')
  })

  test('refuses what is not a PostgreSQL URL, without repeating it', () => {
    for (const bad of ['mysql://u:Secr3t@h/db', 'not a url Secr3t', 'postgres://u:Secr3t@/db']) {
      let error: unknown
      try {
        parseReplicationTarget(bad)
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(UsageError)
      expect((error as Error).message).not.toContain('Secr3t')
    }
  })
})
