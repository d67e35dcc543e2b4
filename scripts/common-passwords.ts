/**
 * Makes src/people/common-passwords.txt from a published list of common passwords (one a line,
 * most common first): the entries of at least MIN_PASSWORD_LENGTH code points — shorter ones
 * are refused as too short anyway (contract §27: "of their length or longer") — lowercased (the
 * check is case-insensitive), each once, in the list's order.
 *
 *   bun scripts/common-passwords.ts path/to/100k-most-used-passwords-NCSC.txt
 *
 * Say where the list came from (URL, commit, hash) in src/people/common-passwords.LICENSE.
 */
import { join } from 'node:path'
import { MIN_PASSWORD_LENGTH } from '../src/people/passwords'

const source = process.argv[2]
if (source === undefined) {
  console.error('usage: bun scripts/common-passwords.ts LIST.txt')
  process.exit(2)
}
const seen = new Set<string>()
for (const line of (await Bun.file(source).text()).split(/\r?\n/)) {
  if ([...line].length >= MIN_PASSWORD_LENGTH) seen.add(line.toLowerCase())
}
const out = join(import.meta.dir, '..', 'src', 'people', 'common-passwords.txt')
await Bun.write(out, `${[...seen].join('\n')}\n`)
console.log(`${seen.size} passwords of ${MIN_PASSWORD_LENGTH} or more characters → ${out}`)
