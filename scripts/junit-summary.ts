// Prints "N passed, N failed" summed over the JUnit reports given as arguments (bun test's
// --reporter=junit). A missing report counts as one failure: its run never finished.
import { existsSync, readFileSync } from 'node:fs'

let passed = 0
let failed = 0
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    failed += 1
    continue
  }
  const head = /<testsuites\b[^>]*>/.exec(readFileSync(file, 'utf8'))?.[0] ?? ''
  const count = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(head)?.[1] ?? 0)
  const tests = count('tests')
  const bad = count('failures') + count('errors')
  passed += tests - bad - count('skipped')
  failed += bad
}
console.log(`${passed} passed, ${failed} failed`)
