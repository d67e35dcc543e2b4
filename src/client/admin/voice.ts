import type { AdminVoiceLanguage, ErrorEnvelope } from '../../contract/wire'
import { api } from '../api'
import { h } from '../dom'
import { field, FormErrors, textInput } from './forms'
import { ADMIN_API, panel, problem, table, when } from './kit'
import type { AdminContext, AdminSection } from './section'
import { SECTION_ROLES } from '../../screens/shared/console-access'
import { fill } from './strings'

/*
 * The Voice clips section (contract §17; admins and managers: clips belong to the whole
 * branch): per language, the required clips that are missing, the branch's letters and
 * counters not recorded, the clips with a player (controls, never autoplay), and an upload
 * form (a clip name and a file; the file is sent as the request body with its own type).
 */


const clipPath = (lang: string, name: string) => `${ADMIN_API}/voice/clips/${encodeURIComponent(lang)}/${encodeURIComponent(name)}`

export const voiceSection: AdminSection = {
  id: 'voice',
  label: (t) => t.sectionVoice,
  roles: SECTION_ROLES.voice,
  render: async (main, ctx) => {
    const { t } = ctx
    const holder = h('div')
    const refresh = async () => {
      const answer = await api<{ data: AdminVoiceLanguage[] }>('GET', `${ADMIN_API}/voice/clips`)
      if (answer?.status !== 200) return holder.replaceChildren(h('p', { class: 'admin-error', role: 'alert' }, problem(answer, t)))
      holder.replaceChildren(...answer.body!.data.map((language) => languagePanel(ctx, language, refresh)))
    }
    main.append(holder)
    await refresh()
  },
}

function languagePanel(ctx: AdminContext, language: AdminVoiceLanguage, refresh: () => Promise<void>): HTMLElement {
  const { t } = ctx
  const { lang } = language
  const heading = fill(t.voiceLanguage, { lang: languageName(ctx, lang) })
  const status: HTMLElement[] = []
  if (language.missing.length > 0) status.push(h('p', { class: 'form-message' }, fill(t.missingRequired, { names: language.missing.join(', ') })))
  if (language.missingForBranch.length > 0) status.push(h('p', { class: 'note' }, fill(t.missingBranch, { names: language.missingForBranch.join(', ') })))
  if (status.length === 0) status.push(h('p', { class: 'saved-message' }, t.complete))

  const rows = language.clips.map((c) => h('tr', null,
    h('td', { dir: 'ltr' }, c.name),
    h('td', { dir: 'ltr' }, c.contentType),
    h('td', null, `${Math.ceil(c.bytes / 1024)} KB`),
    h('td', null, h('time', { datetime: c.importedAt }, when(ctx, c.importedAt))),
    // The player loads on demand (preload none) and never plays by itself.
    h('td', null, h('audio', { controls: true, preload: 'none', src: clipPath(lang, c.name), 'aria-label': fill(t.play, { name: c.name }) }))))

  const general = h('p', { class: 'form-message', role: 'alert', hidden: true })
  const errors = new FormErrors(general)
  const name = textInput(language.missing[0] ?? language.missingForBranch[0] ?? '', { dir: 'ltr', maxlength: '90', autocomplete: 'off' })
  const file = h('input', { type: 'file', accept: 'audio/wav,audio/x-wav,audio/mpeg,audio/ogg,.wav,.mp3,.ogg' })
  const upload = h('button', { type: 'submit', class: 'primary' }, t.upload)
  const done = h('p', { class: 'saved-message', role: 'status' })
  const form = h('form', { class: 'entity-form', novalidate: true }, general,
    field(errors, t.clipName, name, 'name'), field(errors, t.clipFile, file, '/'),
    h('div', { class: 'form-actions' }, upload), done)
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    errors.clear()
    const chosen = file.files?.[0]
    if (chosen === undefined) return errors.show([{ path: '/', message: t.chooseFile, words: t.chooseFile }], t.invalid)
    upload.disabled = true
    let response: Response | null = null
    try {
      response = await fetch(clipPath(lang, name.value.trim()), { method: 'PUT', credentials: 'same-origin', headers: { 'content-type': chosen.type || typeFromName(chosen.name) }, body: chosen })
    } catch {}
    upload.disabled = false
    if (response === null) return errors.say(t.offline)
    const body = await response.json().catch(() => null) as ErrorEnvelope | null
    if (!response.ok) {
      const message = body?.error?.message ?? String(response.status)
      // The server names the field (`name`, or `/` for the audio itself); a size or type refusal is about the file.
      const details = body?.error?.details ?? [{ path: '/', message }]
      errors.show(details, response.status === 422 ? t.invalid : message)
      return
    }
    await refresh()
    ctx.announce(fill(t.uploaded, { name: name.value.trim() }))
  })

  const id = `h-voice-${lang}`
  return panel(id, heading, ...status, table(heading, [t.name, t.type, t.size, t.created, t.play.replace(' {name}', '')], rows, t.noClips), h('h4', null, t.upload), form)
}

/** "ar" → "Arabic (ar)" in the page's language, when the browser knows the tag. */
function languageName(ctx: AdminContext, lang: string): string {
  try {
    const name = new Intl.DisplayNames([ctx.lang], { type: 'language' }).of(lang)
    return name === undefined || name === lang ? lang : `${name} (${lang})`
  } catch {
    return lang
  }
}

function typeFromName(fileName: string): string {
  if (/\.mp3$/i.test(fileName)) return 'audio/mpeg'
  if (/\.ogg$/i.test(fileName)) return 'audio/ogg'
  return 'audio/wav'
}
