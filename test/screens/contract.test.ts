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

/*
 * No page hand-copies a wire shape (issue 49): an interface, or a type alias written with an
 * object type, declared in src/client is either derived from the server's schemas in
 * src/contract/wire.ts (and imported from there) or on this list of the browser's own types,
 * each with why it is not on the wire.
 */
const CLIENT_ONLY: Record<string, string> = {
  'src/client/admin/audit-diff.ts FieldChange': 'a changed field as the audit view shows it, computed in the page from two snapshots',
  'src/client/admin/audit-diff.ts AuditChange': 'the page\'s summary of one audit entry (kind and changed fields), computed from the wire\'s AuditRecord',
  'src/client/admin/branch.ts UnitData': 'the four contract reads (unit, locations, services, counters) the Branch section holds together',
  'src/client/admin/branch.ts Editor': 'a form\'s fields and how to read them back',
  'src/client/admin/devices.ts Named': 'what the pickers need of the contract\'s unit, location and counter views (a name per language)',
  'src/client/admin/forms.ts Field': 'a form field\'s DOM parts',
  'src/client/admin/forms.ts ErrorDetail': 'the wire\'s ErrorDetail (RuledDetail) plus the words the page puts on it',
  'src/client/admin/pickers.ts Row': 'a row of a list editor\'s DOM',
  'src/client/admin/section.ts AdminContext': 'what the console hands each section (language, role, announcer)',
  'src/client/admin/section.ts AdminSection': 'a console section: its id, label, roles and render',
  'src/client/api.ts ApiAnswer': 'the toolkit\'s answer wrapper (status, parsed body typed by the caller, headers)',
  'src/client/devices/kiosk.ts KioskTextKey': 'the keys of the kiosk\'s words that are text',
  'src/client/dom.ts FitParts': 'DOM helper: the parts of a text fitted to its box',
  'src/client/hq/main.ts Words': 'the head-office console\'s words',
  'src/client/live.ts ConnectionState': 'the live feed\'s connection state as the page shows it',
  'src/client/live.ts TopicHandlers': 'callbacks of a live topic',
  'src/client/live.ts LiveTopicOptions': 'options of a live topic',
  'src/client/phone/sw.ts PushMessage': 'a push\'s payload read defensively (every field unknown) by the service worker: no schema describes it (src/notifications/channels.ts builds it)',
  'src/client/phone/sw.ts ExtendableEvent': 'the service worker\'s DOM types, which the page\'s DOM lib does not declare',
  'src/client/phone/sw.ts PushEvent': 'the service worker\'s DOM types',
  'src/client/phone/sw.ts NotificationEvent': 'the service worker\'s DOM types',
  'src/client/phone/sw.ts WindowClient': 'the service worker\'s DOM types',
  'src/client/phone/sw.ts WorkerScope': 'the service worker\'s DOM types',
  'src/client/queue.ts ShownCall': 'a call as the banner shows it (the counter already in the board\'s language)',
  'src/client/reports/main.ts Cell': 'a table cell\'s text and language',
  'src/client/reports/main.ts Slant': 'a chart axis that slants its labels',
  'src/client/voice.ts SpokenCall': 'a call as the announcer says it',
  'src/client/widgets/view.ts WidgetView': 'a widget view\'s update and dispose',
  'src/client/widgets/view.ts ViewEnv': 'what a widget view is handed (context, shell, name)',
}

/** Code without its comments, strings, template literals' and regular expressions' text (blanked, so lines and offsets hold). */
function codeOnly(source: string): string {
  let out = ''
  let i = 0
  while (i < source.length) {
    const c = source[i]!, next = source[i + 1]
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i)
      const stop = end < 0 ? source.length : end
      out += ' '.repeat(stop - i); i = stop
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2)
      const stop = end < 0 ? source.length : end + 2
      out += source.slice(i, stop).replace(/[^\n]/g, ' '); i = stop
    } else if (c === '/' && /[(,=:[!&|?{};]$|^$/.test(out.trimEnd().slice(-1))) {
      // A regular expression literal (a quote in it must not open a string).
      let j = i + 1, inClass = false
      while (j < source.length && source[j] !== '\n' && (inClass || source[j] !== '/')) {
        if (source[j] === '[') inClass = true
        else if (source[j] === ']') inClass = false
        j += source[j] === '\\' ? 2 : 1
      }
      out += '/' + ' '.repeat(Math.max(0, j - i - 1)) + '/'; i = j + 1
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1
      while (j < source.length && source[j] !== c) j += source[j] === '\\' ? 2 : 1
      out += c + source.slice(i + 1, j).replace(/[^\n]/g, ' ') + c; i = j + 1
    } else { out += c; i++ }
  }
  return out
}

interface Declared { name: string; kind: 'interface' | 'type'; line: number }

/** The interfaces, and the type aliases written with an object type (`{ … }`, a mapped type), a module declares. */
function objectTypesOf(source: string): Declared[] {
  const code = codeOnly(source)
  const starts = [...code.matchAll(/\n/g)].map((m) => m.index!)
  const lineOf = (at: number) => 1 + starts.filter((n) => n < at).length
  const found: Declared[] = []
  for (const m of code.matchAll(/(?<![\w$.])interface\s+([A-Za-z_$][\w$]*)/g)) found.push({ name: m[1]!, kind: 'interface', line: lineOf(m.index!) })
  for (const m of code.matchAll(/(?<![\w$.])type\s+([A-Za-z_$][\w$]*)\s*(?:<[^=]*>)?\s*=(?![=>])/g)) {
    // The alias runs to the end of its statement: a line break outside brackets that no `|` or `&` continues.
    let depth = 0, j = m.index! + m[0].length
    for (; j < code.length; j++) {
      const ch = code[j]!
      if ('{([<'.includes(ch)) depth++
      else if ('})]>'.includes(ch) && !(ch === '>' && code[j - 1] === '=')) depth--
      else if (ch === ';' && depth === 0) break
      else if (ch === '\n' && depth <= 0 && !/^\s*[|&]/.test(code.slice(j + 1, j + 200)) && /\S/.test(code.slice(m.index! + m[0].length, j))) break
    }
    if (code.slice(m.index! + m[0].length, j).includes('{')) found.push({ name: m[1]!, kind: 'type', line: lineOf(m.index!) })
  }
  return found.sort((a, b) => a.line - b.line)
}

/** Each object type declared in the files and not on the list, named with its file and line; then each entry of the list no file declares. */
function localWireTypes(files: { name: string; text: string }[], allowed: Record<string, string>): string[] {
  const problems: string[] = []
  const seen = new Set<string>()
  for (const { name, text } of files) {
    for (const d of objectTypesOf(text)) {
      const key = `${name} ${d.name}`
      seen.add(key)
      if (!(key in allowed)) problems.push(`${name}:${d.line}: ${d.kind} ${d.name} is declared in the page: derive it from src/contract/wire.ts (the server's schema), or, if only the browser uses it, list it in CLIENT_ONLY with why`)
    }
  }
  for (const key of Object.keys(allowed)) if (!seen.has(key)) problems.push(`CLIENT_ONLY names ${key}, which no file declares: remove it`)
  return problems
}

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

  test('no page declares a wire shape of its own: every interface or object type in src/client is derived from the contract or listed as the browser\'s own', () => {
    const files = clientFiles.map((file) => ({ name: relative(ROOT, file), text: readFileSync(file, 'utf8') }))
    expect(localWireTypes(files, CLIENT_ONLY)).toEqual([])
  })

  test('the local-type check sees a hand-copied answer, and only declarations (it can fail)', () => {
    const page = [
      "import type { HqLiveList } from '../../contract/wire'",
      '// interface Commented { a: string } is a comment',
      "const words = 'type Quoted = { a: string }'",
      "const quote = /['\\/]/g; interface AfterRegex { a: string }",
      'type Live = HqLiveList',
      'type Rows = HqLiveList[\'data\']',
      'interface LiveBranch { queueUnitId: string; waiting: number }',
      'export type Reply =',
      '  | { data: LiveBranch[] }',
      '  | null',
      'type Names = Readonly<Record<string, string>>',
      'const f = (x: { a: string }) => x',
    ].join('\n')
    expect(objectTypesOf(page)).toEqual([
      { name: 'AfterRegex', kind: 'interface', line: 4 },
      { name: 'LiveBranch', kind: 'interface', line: 7 },
      { name: 'Reply', kind: 'type', line: 8 },
    ])
    expect(localWireTypes([{ name: 'src/client/hq/made-up.ts', text: page }], { 'src/client/hq/made-up.ts LiveBranch': 'made up', 'src/client/hq/made-up.ts AfterRegex': 'made up', 'src/client/gone.ts Old': 'made up' })).toEqual([
      'src/client/hq/made-up.ts:8: type Reply is declared in the page: derive it from src/contract/wire.ts (the server\'s schema), or, if only the browser uses it, list it in CLIENT_ONLY with why',
      'CLIENT_ONLY names src/client/gone.ts Old, which no file declares: remove it',
    ])
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
