/*
 * What a console section is and what it is handed: the types every section module implements,
 * apart from the list of sections (sections.ts), so a section never imports the list that
 * imports it.
 */
import type { Lang, Strings } from './strings'
import type { ConsoleRole } from '../../screens/shared/console-access'

/** What every section is handed: the signed-in person, the page's language and words, and the status line. */
export interface AdminContext {
  lang: Lang
  /** The locale dates and times are formatted in: the browser's of `lang` (`en-GB`), format.ts `formatLocale`. */
  locale: string
  t: Strings
  role: 'admin' | 'manager'
  username: string
  /** Announces a short message to screen readers (the page's polite live region). */
  announce: (message: string) => void
}

/**
 * One section of the console: its place in the navigation (`id` is the URL fragment), who may
 * see it (`SECTION_ROLES` in access.ts), and how it draws itself into the main area. A new section is one module added to
 * `SECTIONS` below.
 */
export interface AdminSection {
  id: string
  label: (t: Strings) => string
  roles: readonly ConsoleRole[]
  render: (main: HTMLElement, ctx: AdminContext) => void | Promise<void>
}
