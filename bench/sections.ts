import { existsSync, readFileSync, writeFileSync } from 'node:fs'

/**
 * A section of RESULTS.md that one bench script owns, between its two HTML comment markers:
 * the script rewrites its section, and bench/run.ts keeps it when it writes the file again.
 */
export interface ResultsSection {
  file: string
  start: string
  end: string
}

/** Replaces the section in its file (or appends it), leaving the rest as it is. */
export function writeSection({ file, start, end }: ResultsSection, section: string): void {
  const current = existsSync(file) ? readFileSync(file, 'utf8') : ''
  const from = current.indexOf(start)
  const to = current.indexOf(end)
  const next = from >= 0 && to > from ? current.slice(0, from) + section + current.slice(to + end.length) : current.trimEnd() + '\n\n' + section + '\n'
  writeFileSync(file, next)
}

/** The section as it stands in its file, markers included; '' when it is not there. */
export function currentSection({ file, start, end }: ResultsSection): string {
  const current = existsSync(file) ? readFileSync(file, 'utf8') : ''
  const from = current.indexOf(start)
  const to = current.indexOf(end)
  return from >= 0 && to > from ? current.slice(from, to + end.length) : ''
}
