import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { Glob } from 'bun'
import type { Static } from '@sinclair/typebox'
import { BUNDLES } from '../../scripts/build-screens'
import type { QueueState } from '../../src/contract/wire'
import type { DisplayQueueState } from '../../src/display/model'
import type { QueueDisplayState } from '../../src/tickets/display-state'
import { ROOT } from '../support/binary'

/*
 * The wire contract (src/contract/): the browser's types are the server's schemas, and the
 * browser bundles get none of the server's code.
 */

// Compile-time: the display schema says exactly what the queue-state reader builds (both ways),
// and the browser's QueueState is that schema's Static. `bun run typecheck` fails otherwise.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const schemaMatchesReader: Same<Static<typeof DisplayQueueState>, QueueDisplayState> = true
const clientIsSchema: Same<QueueState, Static<typeof DisplayQueueState>> = true

const CLIENT = join(ROOT, 'src/client')
const clientFiles = [...new Glob('**/*.ts').scanSync({ cwd: CLIENT, absolute: true })].filter((f) => !f.endsWith('.d.ts'))

describe('wire contract', () => {
  test('the type assertions above hold (recent calls and now serving carry priority)', () => {
    expect(schemaMatchesReader).toBe(true)
    expect(clientIsSchema).toBe(true)
  })

  test('browser code imports the server only through the contract, and the wire types only as types', () => {
    const problems: string[] = []
    for (const file of clientFiles) {
      const text = readFileSync(file, 'utf8')
      const name = relative(ROOT, file)
      if (/\bBun\./.test(text)) problems.push(`${name}: mentions Bun.`)
      if (/\b(process\.|Buffer\b|require\()/.test(text)) problems.push(`${name}: names a server global (process, Buffer, require)`)
      for (const m of text.matchAll(/^import\s+(type\s+)?[^'"]*from\s+'([^']+)'/gm)) {
        const [, typeOnly, spec] = m as unknown as [string, string | undefined, string]
        if (!spec.startsWith('.')) continue
        const target = relative(ROOT, join(file, '..', spec))
        // Its own files, the helpers it shares with the server's pages, and the CSV writer.
        if (target.startsWith('src/client/') || target.startsWith('src/screens/shared/') || target === 'src/reports/csv') continue
        if (target === 'src/contract/wire' && typeOnly) continue
        problems.push(`${name}: imports ${target}${typeOnly ? '' : ' by value'}`)
      }
    }
    expect(problems).toEqual([])
  })

  test('no bundle carries server code (schemas, SQL, Elysia)', () => {
    for (const { output } of BUNDLES) {
      const bundle = readFileSync(output, 'utf8')
      for (const marker of ['@sinclair/typebox', 'additionalProperties', 'Elysia', 'SELECT ', 'drizzle', 'ErrorExamples']) {
        expect({ bundle: relative(ROOT, output), has: bundle.includes(marker) }).toEqual({ bundle: relative(ROOT, output), has: false })
      }
    }
  })
})
