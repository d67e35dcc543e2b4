import type { ErrorEnvelope, HqBranch, HqLiveBranchDetail, HqLiveList, HqProfile, HqReportRow, HqRevision } from '../../contract/wire'
import { api, type ApiAnswer } from '../api'
import { byId, h } from '../dom'
import { withPageDigits } from '../../screens/shared/digits'

/*
 * The head-office console (contract §26; frames in src/hq/pages.ts): /hq keeps profiles and
 * which branch follows which, and shows each branch's rollout (a refusal in the branch's own
 * words); /hq/live lists every branch now, refreshed every 5 seconds, with a drill-down to its
 * lines; /hq/reports shows the daily figures across branches and downloads them as CSV. Every
 * control is labelled and works from the keyboard; the words are English or Arabic.
 */

const WORDS = {
  en: {
    profile: 'Profile', profiles: 'Profiles', newProfile: 'New profile', name: 'Name', content: 'What the profile sets (JSON: services, openingHours, breakReasons, priority)',
    save: 'Save draft', publish: 'Publish', create: 'Create', saved: 'Draft saved.', published: 'Published as revision {n}. Branches apply it within 30 seconds.',
    draft: 'draft not published', revision: 'revision {n}', none: 'none', branches: 'Branches', branch: 'Branch', follows: 'Follows', assign: 'Assign',
    rollout: 'Rollout', applied: 'Applied revision {n}', pending: 'Waiting for the branch (revision {n})', refused: 'Refused revision {n}: {why}', noProfile: 'No profile',
    notJson: 'The content is not valid JSON: {why}', waiting: 'Waiting', longest: 'Longest wait', counters: 'Counters open', alerts: 'Over target', heard: 'Last heard',
    secondsAgo: '{n} s ago', lines: 'Lines of {name}', service: 'Service', location: 'Location', target: 'Target', from: 'From', to: 'To', show: 'Show',
    csv: 'Download CSV', date: 'Date', issued: 'Issued', served: 'Served', noShow: 'No-show', avgWait: 'Average wait', within: 'Within target',
    nothing: 'Nothing yet.', viewer: 'You can look, not change: head-office viewers do not edit profiles.', offline: 'Head office does not answer. Trying again…',
    updated: 'Updated {time}', min: '{m} min {s} s',
  },
  ar: {
    profile: 'الملف التعريفي', profiles: 'الملفات التعريفية', newProfile: 'ملف تعريفي جديد', name: 'الاسم', content: 'ما يحدده الملف (JSON: الخدمات وساعات العمل وأسباب الاستراحة والأولوية)',
    save: 'حفظ المسودة', publish: 'نشر', create: 'إنشاء', saved: 'تم حفظ المسودة.', published: 'نُشر كمراجعة {n}. تطبقه الفروع خلال 30 ثانية.',
    draft: 'مسودة غير منشورة', revision: 'المراجعة {n}', none: 'لا شيء', branches: 'الفروع', branch: 'الفرع', follows: 'يتبع', assign: 'تعيين',
    rollout: 'التطبيق', applied: 'طُبقت المراجعة {n}', pending: 'بانتظار الفرع (المراجعة {n})', refused: 'رُفضت المراجعة {n}: {why}', noProfile: 'بلا ملف تعريفي',
    notJson: 'المحتوى ليس JSON صالحًا: {why}', waiting: 'المنتظرون', longest: 'أطول انتظار', counters: 'الشبابيك المفتوحة', alerts: 'فوق الهدف', heard: 'آخر اتصال',
    secondsAgo: 'قبل {n} ث', lines: 'طوابير {name}', service: 'الخدمة', location: 'الموقع', target: 'الهدف', from: 'من', to: 'إلى', show: 'عرض',
    csv: 'تنزيل CSV', date: 'التاريخ', issued: 'الصادرة', served: 'المخدومة', noShow: 'لم يحضر', avgWait: 'متوسط الانتظار', within: 'ضمن الهدف',
    nothing: 'لا شيء بعد.', viewer: 'يمكنك الاطلاع دون التعديل: مشاهدو المكتب الرئيسي لا يعدلون الملفات التعريفية.', offline: 'المكتب الرئيسي لا يستجيب. نحاول مجددًا…',
    updated: 'حُدّث {time}', min: '{m} د {s} ث',
  },
} as const
type Words = { [K in keyof (typeof WORDS)['en']]: string }

const root = byId('hq')
const lang = root.dataset.lang === 'ar' ? 'ar' : 'en'
const w: Words = WORDS[lang]
const canEdit = root.dataset.role === 'hq-admin'
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''))
const num = (n: number) => new Intl.NumberFormat(withPageDigits(lang)).format(n)
const duration = (s: number) => fill(w.min, { m: num(Math.floor(s / 60)), s: num(s % 60) })

/** An API refusal in words: its message, and each detail's message after the field's place (never a bare pointer). */
function refusal(answer: ApiAnswer | null): string {
  if (answer === null) return w.offline
  const details = ((answer.body as ErrorEnvelope | null)?.error?.details ?? [])
    .map((d) => `${d.path.replace(/^\/content\//, '').split('/').map((p) => (/^\d+$/.test(p) ? `#${Number(p) + 1}` : p)).join(' › ')}: ${d.message}`)
  return [answer.message, ...details].filter(Boolean).join(' — ')
}

function table(headers: string[], rows: (string | Node)[][], caption?: string): HTMLTableElement {
  return h('table', null,
    caption ? h('caption', null, caption) : [],
    h('thead', null, h('tr', null, headers.map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', null, rows.map((r) => h('tr', null, r.map((c) => h('td', null, c))))))
}

function status(): HTMLElement {
  return h('p', { role: 'status', 'aria-live': 'polite', class: 'status' })
}

// ---------------------------------------------------------------- /hq: profiles and branches

async function profilesView(main: HTMLElement): Promise<void> {
  const [profiles, branches] = await Promise.all([api<{ data: HqProfile[] }>('GET', '/api/hq/v1/profiles'), api<{ data: HqBranch[] }>('GET', '/api/hq/v1/branches')])
  if (profiles?.status !== 200 || branches?.status !== 200) {
    main.append(h('p', { role: 'alert' }, refusal(profiles?.status !== 200 ? profiles : branches)))
    return
  }
  const list = profiles.body!.data
  const say = status()
  const pick = h('select', { id: 'profile-pick' }, list.map((p) => h('option', { value: p.id }, `${p.name} — ${p.publishedRevision === null ? w.draft : fill(w.revision, { n: num(p.publishedRevision) })}${p.unpublished && p.publishedRevision !== null ? ` (${w.draft})` : ''}`)), h('option', { value: '' }, w.newProfile))
  const name = h('input', { id: 'profile-name', maxlength: '200', required: '' })
  const content = h('textarea', { id: 'profile-content', rows: '16', spellcheck: 'false', dir: 'ltr' })
  const save = h('button', { type: 'button' }, w.save)
  const publish = h('button', { type: 'button' }, w.publish)
  const current = () => list.find((p) => p.id === pick.value) ?? null
  const show = () => {
    const p = current()
    name.value = p?.name ?? ''
    content.value = JSON.stringify(p?.content ?? { services: [], breakReasons: ['Break', 'Lunch'] }, null, 2)
    save.textContent = p === null ? w.create : w.save
    publish.hidden = p === null
  }
  pick.addEventListener('change', show)
  save.addEventListener('click', async () => {
    let parsed: unknown
    try {
      parsed = JSON.parse(content.value)
    } catch (error) {
      say.textContent = fill(w.notJson, { why: (error as Error).message })
      content.focus()
      return
    }
    const p = current()
    const answer = p === null
      ? await api<HqProfile>('POST', '/api/hq/v1/profiles', { name: name.value, content: parsed })
      : await api<HqProfile>('PUT', `/api/hq/v1/profiles/${encodeURIComponent(p.id)}`, { name: name.value, content: parsed, draftVersion: p.draftVersion })
    if (answer !== null && answer.status < 300) {
      say.textContent = w.saved
      await rerender()
    } else say.textContent = refusal(answer)
  })
  publish.addEventListener('click', async () => {
    const p = current()
    if (p === null) return
    const answer = await api<HqRevision>('POST', `/api/hq/v1/profiles/${encodeURIComponent(p.id)}/revisions`)
    if (answer !== null && answer.status === 201) {
      await rerender()
      byId('hq').querySelector('.status')!.textContent = fill(w.published, { n: num(answer.body!.revision) })
    } else say.textContent = refusal(answer)
  })
  const editor = h('section', { 'aria-labelledby': 'profiles-title' },
    h('h2', { id: 'profiles-title' }, w.profiles),
    h('label', { for: 'profile-pick' }, w.profile), pick,
    h('label', { for: 'profile-name' }, w.name), name,
    h('label', { for: 'profile-content' }, w.content), content,
    canEdit ? h('div', { class: 'actions' }, save, publish) : h('p', null, w.viewer),
    say)
  if (!canEdit) for (const c of [name, content]) c.readOnly = true

  const rolloutText = (b: HqBranch) =>
    b.rollout === 'applied' ? fill(w.applied, { n: num(b.appliedRevision ?? 0) })
    : b.rollout === 'refused' ? fill(w.refused, { n: num(b.refusedRevision ?? 0), why: b.refusedBecause ?? '' })
    : b.rollout === 'pending' ? fill(w.pending, { n: num(b.newestRevision ?? 0) }) : w.noProfile
  const rows = branches.body!.data.map((b) => {
    const choose = h('select', { 'aria-label': `${w.follows}: ${b.name ?? b.queueUnitId}` }, h('option', { value: '' }, w.none), list.map((p) => h('option', { value: p.id, ...(p.id === b.profileId ? { selected: '' } : {}) }, p.name)))
    const assign = h('button', { type: 'button', 'aria-label': `${w.assign}: ${b.name ?? b.queueUnitId}` }, w.assign)
    assign.addEventListener('click', async () => {
      if (choose.value === '') return
      const answer = await api('PUT', `/api/hq/v1/branches/${encodeURIComponent(b.queueUnitId)}/profile`, { profileId: choose.value })
      if (answer !== null && answer.status === 200) await rerender()
      else say.textContent = refusal(answer)
    })
    const cell = h('span', { class: `rollout ${b.rollout}` }, rolloutText(b))
    return [`${b.name ?? ''} (${b.queueUnitId})`, canEdit ? h('span', null, choose, ' ', assign) : (list.find((p) => p.id === b.profileId)?.name ?? w.none), cell]
  })
  main.append(editor, h('section', { 'aria-labelledby': 'branches-title' }, h('h2', { id: 'branches-title' }, w.branches),
    rows.length === 0 ? h('p', null, w.nothing) : table([w.branch, w.follows, w.rollout], rows)))
  show()
}

// ---------------------------------------------------------------- /hq/live

async function liveView(main: HTMLElement): Promise<void> {
  const say = status()
  const list = h('div', { id: 'live-list' })
  const detail = h('section', { id: 'live-detail', 'aria-live': 'polite' })
  let chosen: string | null = null
  main.append(say, list, detail)
  const drill = async () => {
    if (chosen === null) return
    const answer = await api<HqLiveBranchDetail>('GET', `/api/hq/v1/live/${encodeURIComponent(chosen)}`)
    if (answer?.status !== 200) return
    const { name, lines } = answer.body!
    detail.replaceChildren(h('h2', null, fill(w.lines, { name })), table([w.service, w.location, w.waiting, w.longest, w.target],
      lines.map((l) => [l.name, l.locationId, num(l.waiting), h('span', { class: l.overTarget ? 'alert' : '' }, duration(l.longestWaitSeconds)), duration(l.waitTargetSeconds)])))
  }
  const refresh = async () => {
    const answer = await api<HqLiveList>('GET', '/api/hq/v1/live')
    if (answer?.status !== 200) {
      say.textContent = refusal(answer)
      return
    }
    say.textContent = fill(w.updated, { time: new Intl.DateTimeFormat(withPageDigits(lang), { timeStyle: 'medium' }).format(new Date(answer.body!.generatedAt)) })
    const rows = answer.body!.data.map((b) => {
      const open = h('button', { type: 'button', class: 'link', 'aria-expanded': String(chosen === b.queueUnitId) }, b.name)
      open.addEventListener('click', () => {
        chosen = b.queueUnitId
        void drill()
      })
      return [open, num(b.waiting), duration(b.longestWaitSeconds), num(b.countersOpen), h('span', { class: b.overTarget > 0 ? 'alert' : '' }, num(b.overTarget)),
        h('span', { class: b.lastHeardSeconds > 30 ? 'alert' : '' }, fill(w.secondsAgo, { n: num(b.lastHeardSeconds) }))]
    })
    list.replaceChildren(rows.length === 0 ? h('p', null, w.nothing) : table([w.branch, w.waiting, w.longest, w.counters, w.alerts, w.heard], rows))
    await drill()
  }
  await refresh()
  setInterval(() => void refresh(), 5_000)
}

// ---------------------------------------------------------------- /hq/reports

async function reportsView(main: HTMLElement): Promise<void> {
  const today = new Date().toISOString().slice(0, 10)
  const from = h('input', { id: 'from', type: 'date', value: today })
  const to = h('input', { id: 'to', type: 'date', value: today })
  const branch = h('input', { id: 'branch', maxlength: '160' })
  const show = h('button', { type: 'submit' }, w.show)
  const csv = h('a', { href: '#', download: '' }, w.csv)
  const say = status()
  const out = h('div')
  const form = h('form', { class: 'range' }, h('label', { for: 'from' }, w.from), from, h('label', { for: 'to' }, w.to), to, h('label', { for: 'branch' }, w.branch), branch, show, csv)
  const query = () => `from=${from.value}&to=${to.value}${branch.value.trim() ? `&queueUnitId=${encodeURIComponent(branch.value.trim())}` : ''}`
  const load = async () => {
    csv.setAttribute('href', `/api/hq/v1/reports/daily?${query()}&format=csv`)
    const answer = await api<{ data: HqReportRow[] }>('GET', `/api/hq/v1/reports/daily?${query()}`)
    if (answer?.status !== 200) {
      say.textContent = refusal(answer)
      return
    }
    say.textContent = ''
    const rows = answer.body!.data
    out.replaceChildren(rows.length === 0 ? h('p', null, w.nothing) : table([w.date, w.branch, w.location, w.service, w.issued, w.served, w.noShow, w.avgWait, w.within],
      rows.map((r) => [r.date, r.queueUnitId, r.locationId, r.serviceId, num(r.issued), num(r.served), num(r.noShow),
        r.waitSeconds.avg === null ? '—' : duration(Math.round(r.waitSeconds.avg)), r.withinTarget === null ? '—' : `${num(Math.round(r.withinTarget * 100))} %`])))
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void load()
  })
  main.append(form, say, out)
  await load()
}

// ---------------------------------------------------------------- start

async function rerender(): Promise<void> {
  const main = byId('hq')
  const heading = main.querySelector('h1')
  main.replaceChildren(...(heading ? [heading] : []))
  const view = main.dataset.view
  if (view === 'live') await liveView(main)
  else if (view === 'reports') await reportsView(main)
  else await profilesView(main)
}

document.getElementById('sign-out')?.addEventListener('click', async () => {
  await api('DELETE', '/api/hq/v1/sessions/current')
  location.assign(lang === 'ar' ? '/hq/login?lang=ar' : '/hq/login')
})
void rerender()
