import { expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../support/binary'

test("the README's table of docs lists every file of docs/ exactly once, and only files that exist", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const start = readme.indexOf('| area | doc |')
  const table = readme.slice(start, readme.indexOf('\n\n', start)).split('\n').slice(2)
  const linked = table.map((row) => /\]\((docs\/[^)]+\.md)\)/.exec(row)?.[1])
  expect(linked.every((l) => l !== undefined)).toBe(true)
  for (const path of linked) expect({ path, exists: existsSync(join(ROOT, path!)) }).toEqual({ path, exists: true })
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`).sort()
  expect([...linked].sort()).toEqual(docs)
})
