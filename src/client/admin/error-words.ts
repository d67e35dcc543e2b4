import type { DetailParams, DetailRule, ErrorDetail } from '../../contract/wire'
import { STRINGS, type Lang } from './strings'

/*
 * Errors in words (contract §24): a refused field shows, beside it, what is allowed, in the
 * page's language, named as its label is ("Opening hours, Monday: 08:00–12:00 overlaps
 * 11:00–14:00"). The server's details carry the rule they break (`rule`, `params`,
 * src/platform/detail-rules.ts); this module says each rule, in English and Arabic, and never
 * shows the detail's `message` (English, with JSON Pointers, patterns and schema types).
 * DOM-free, so test/admin/error-words.test.ts imports it. A detail without a rule this module
 * knows still gets words: "this value is not allowed".
 */

/** A validation detail as the server sends it (src/platform/errors.ts). */
export type RuledDetail = ErrorDetail

type Say = (p: Params) => string

/** A detail's params, read safely: a missing one reads as empty. */
class Params {
  constructor(private readonly raw: DetailParams, readonly lang: Lang) {}
  has(key: string): boolean {
    return this.raw[key] !== undefined
  }
  text(key: string): string {
    const value = this.raw[key]
    return Array.isArray(value) ? value.join(', ') : value === undefined ? '' : String(value)
  }
  list(key: string): string[] {
    const value = this.raw[key]
    return Array.isArray(value) ? value : value === undefined ? [] : [String(value)]
  }
  /** A value typed in Latin script (a time, a tag, a date), kept left to right inside an Arabic sentence. */
  ltr(key: string): string {
    return isolate(this.text(key), this.lang)
  }
  /** What was typed, in quotes. */
  quoted(key: string): string {
    return this.lang === 'ar' ? `«${this.ltr(key)}»` : `“${this.text(key)}”`
  }
  span(from: string, to: string): string {
    return isolate(`${this.text(from)}–${this.text(to)}`, this.lang)
  }
  day(key: string): string {
    const day = this.text(key)
    return (STRINGS[this.lang].days as Record<string, string>)[day] ?? day
  }
  kind(key: string): string {
    const kind = this.text(key)
    return KINDS[this.lang][kind] ?? KINDS[this.lang].thing!
  }
}

const isolate = (text: string, lang: Lang) => (lang === 'ar' ? `\u2066${text}\u2069` : text)

const KINDS: Record<Lang, Record<string, string>> = {
  en: {
    location: 'location', service: 'service', counter: 'counter', 'queue unit': 'queue unit', queueUnit: 'queue unit', workspace: 'workspace',
    key: 'key', user: 'person', webhook: 'webhook endpoint', device: 'device', 'prayer source': 'prayer times source', widget: 'widget', thing: 'entry',
  },
  ar: {
    location: 'الموقع', service: 'الخدمة', counter: 'الشباك', 'queue unit': 'وحدة الطابور', queueUnit: 'وحدة الطابور', workspace: 'مساحة العمل',
    key: 'المفتاح', user: 'الشخص', webhook: 'عنوان الإشعارات', device: 'الجهاز', 'prayer source': 'مصدر أوقات الصلاة', widget: 'الأداة', thing: 'العنصر',
  },
}

const TYPES: Record<Lang, Record<string, string>> = {
  en: {
    string: 'must be text', integer: 'must be a whole amount in digits, such as 15', number: 'must be written in digits, such as 2.5',
    boolean: 'must be yes or no', object: 'must be a set of fields', array: 'must be a list', null: 'must be left empty',
  },
  ar: {
    string: 'يجب أن يكون نصًا', integer: 'يجب أن يكون عددًا صحيحًا بالأرقام، مثل 15', number: 'يجب أن يُكتب بالأرقام، مثل 2.5',
    boolean: 'يجب أن يكون نعم أو لا', object: 'يجب أن يكون مجموعة حقول', array: 'يجب أن يكون قائمة', null: 'يجب أن يُترك فارغًا',
  },
}

const FORMATS: Record<Lang, Record<string, string>> = {
  en: {
    id: 'letters, digits, _ and - only, at most 160',
    keyName: 'letters, digits, _ . : - only, at most 80',
    prefix: 'one to three capital letters, A–Z',
    url: 'a web address beginning with http or https, without spaces',
    country: 'two capital letters, such as SA',
    prayerSourceId: 'psrc_ and then at least 20 letters, digits or -',
    notBlank: 'must not be blank',
    revision: 'the form is out of date: reload it and make your change again',
    username: 'small letters, digits, . _ - only, at most 64',
    sixDigits: 'six digits',
    email: 'an e-mail address, such as branch@example.com',
    contactUrl: 'mailto: and an e-mail address, or a web address beginning with https:',
    other: 'is not written in the allowed form',
  },
  ar: {
    id: 'حروف لاتينية وأرقام و _ و - فقط، 160 على الأكثر',
    keyName: 'حروف لاتينية وأرقام و _ . : - فقط، 80 على الأكثر',
    prefix: 'من حرف إلى ثلاثة أحرف لاتينية كبيرة، A–Z',
    url: 'عنوان ويب يبدأ بـ http أو https، دون مسافات',
    country: 'حرفان لاتينيان كبيران، مثل SA',
    prayerSourceId: 'psrc_ ثم 20 حرفًا أو رقمًا أو - على الأقل',
    notBlank: 'يجب ألا يكون فارغًا',
    revision: 'النموذج قديم: أعد تحميله ثم أجرِ تغييرك مرة أخرى',
    username: 'حروف لاتينية صغيرة وأرقام و . _ - فقط، 64 على الأكثر',
    sixDigits: 'ستة أرقام',
    email: 'عنوان بريد إلكتروني، مثل branch@example.com',
    contactUrl: 'mailto: ثم عنوان بريد إلكتروني، أو عنوان ويب يبدأ بـ https:',
    other: 'ليس بالصيغة المسموح بها',
  },
}

/** Each rule in each language. `Record<DetailRule, …>`: a rule added on the server fails the typecheck until it has words. */
const WORDS: Record<Lang, Record<DetailRule, Say>> = {
  en: {
    type: (p) => TYPES.en[p.text('expected')] ?? 'is not the right kind of value',
    format: (p) => FORMATS.en[p.text('format')] ?? FORMATS.en.other!,
    minLength: (p) => (Number(p.text('min')) <= 1 ? 'must not be empty' : `at least ${p.text('min')} characters`),
    maxLength: (p) => `at most ${p.text('max')} characters`,
    range: (p) => (p.has('min') && p.has('max') ? `from ${p.text('min')} to ${p.text('max')}` : p.has('min') ? `at least ${p.text('min')}` : `at most ${p.text('max')}`),
    minItems: (p) => (Number(p.text('min')) <= 1 ? 'give at least one' : `give at least ${p.text('min')}`),
    maxItems: (p) => `at most ${p.text('max')}`,
    uniqueItems: () => 'each may be given only once',
    oneOf: (p) => (p.list('allowed').length > 0 && p.list('allowed').length <= 20 ? `one of: ${p.text('allowed')}` : 'is not one of the choices'),
    form: () => 'is not in an allowed form',
    required: () => 'must be filled in',
    unknownField: () => 'is not a field of this form: reload the page',
    unicode: () => 'holds a character that cannot be stored: type it again',
    invalid: () => 'this value is not allowed',
    nameEmpty: () => 'must not be empty',
    nameForm: () => 'give the name as text',
    nameNoLanguage: () => 'give the name in at least one language',
    nameLanguages: (p) => `at most ${p.text('max')} languages`,
    languageTag: (p) => `${p.quoted('tag')} is not a language code such as en, ar or fr-CA`,
    languageTwice: (p) => (p.has('other') ? `${p.quoted('tag')} is the same language as ${p.quoted('other')}` : 'names a language twice'),
    languageMissing: (p) => `must include the default language, ${p.ltr('tag')}`,
    hoursForm: () => 'give the hours day by day, such as 08:30-12:00',
    weekday: (p) => `${p.quoted('day')} is not a day of the week`,
    hoursList: () => 'give the hours as from-to times, such as 08:30-12:00, or leave it empty when closed',
    interval: () => 'each opening needs a start and an end, such as 08:30-12:00',
    time: (p) => `${p.quoted('value')} is not a time of day: use HH:MM, from 00:00 to ${p.ltr('latest')}`,
    emptyInterval: (p) => `${p.span('from', 'to')} starts and ends at the same time`,
    overlap: (p) => (p.text('day') === p.text('otherDay')
      ? `${p.span('otherFrom', 'otherTo')} overlaps ${p.span('from', 'to')}`
      : `${p.span('from', 'to')} overlaps ${p.span('otherFrom', 'otherTo')} on ${p.day('otherDay')}`),
    datesForm: () => 'give dates as YYYY-MM-DD, separated by commas',
    date: (p) => `${p.quoted('value')} is not a real date: use YYYY-MM-DD, such as 2026-12-25`,
    dateTwice: (p) => `${p.ltr('value')} is given twice`,
    duplicateId: (p) => `another ${p.kind('kind')} has the same ID`,
    belongsElsewhere: (p) => `this ID is already used by a ${p.kind('kind')} elsewhere`,
    timeZone: (p) => `${p.quoted('value')} is not a time zone: choose one from the list`,
    cidr: (p) => `${p.quoted('value')} is not a network: write an address and its prefix length, as the example shows`,
    requiredWith: () => 'must be filled in for this priority mode',
    onlyWith: () => 'leave it empty for this priority mode',
    duplicateValue: (p) => `${p.quoted('value')} is given twice`,
    unknownReference: (p) => `the ${p.kind('kind')} chosen does not exist here (it may have been deleted): reload the page`,
    notOfferedThere: (p) => (p.text('counter') === ''
      ? `${p.quoted('value')} is not offered at this counter's location: offer it there first, or choose another`
      : `counter ${p.quoted('counter')} stands there and serves this service: move the counter or stop it serving the service first`),
    typeFixed: (p) => `the type cannot change (it is ${p.ltr('value')})`,
    taken: () => 'is already taken: choose another',
    ownAccount: () => 'not for your own account: ask another administrator',
    disabled: () => 'is disabled: enable it first',
    adminNoUnits: () => 'an administrator works in every queue unit: choose none',
    retired: (p) => `this ${p.kind('kind')} is retired`,
    plainText: (p) => `1 to ${p.text('max')} characters, without control characters`,
    clipName: () => 'not a clip name: ticket, please-go-to, a digit, a letter A–Z, or counter- and a counter’s ID',
    template: (p) => (p.text('problem') === 'variable'
      ? `${p.quoted('variable')} is not a word this message can fill in; it fills in ${p.text('allowed')}`
      : p.text('problem') === 'brace' ? 'a curly bracket that does not enclose a word this message fills in' : 'must not be blank'),
    audioType: (p) => `the file is not ${p.ltr('value')} audio`,
    dateTime: () => 'give a date such as 2026-11-25',
  },
  ar: {
    type: (p) => TYPES.ar[p.text('expected')] ?? 'ليست قيمة من النوع المطلوب',
    format: (p) => FORMATS.ar[p.text('format')] ?? FORMATS.ar.other!,
    minLength: (p) => (Number(p.text('min')) <= 1 ? 'يجب ألا يكون فارغًا' : `${p.text('min')} أحرف على الأقل`),
    maxLength: (p) => `${p.text('max')} حرفًا على الأكثر`,
    range: (p) => (p.has('min') && p.has('max') ? `من ${p.text('min')} إلى ${p.text('max')}` : p.has('min') ? `${p.text('min')} على الأقل` : `${p.text('max')} على الأكثر`),
    minItems: (p) => (Number(p.text('min')) <= 1 ? 'اختر واحدًا على الأقل' : `${p.text('min')} على الأقل`),
    maxItems: (p) => `${p.text('max')} على الأكثر`,
    uniqueItems: () => 'لا يُذكر كل منها إلا مرة واحدة',
    oneOf: (p) => (p.list('allowed').length > 0 && p.list('allowed').length <= 20 ? `واحد من: ${p.ltr('allowed')}` : 'ليس من الخيارات المتاحة'),
    form: () => 'ليس بصيغة مسموح بها',
    required: () => 'يجب ملء هذا الحقل',
    unknownField: () => 'ليس حقلًا في هذا النموذج: أعد تحميل الصفحة',
    unicode: () => 'يحتوي على حرف لا يمكن حفظه: اكتبه مرة أخرى',
    invalid: () => 'هذه القيمة غير مسموح بها',
    nameEmpty: () => 'يجب ألا يكون فارغًا',
    nameForm: () => 'اكتب الاسم نصًا',
    nameNoLanguage: () => 'اكتب الاسم بلغة واحدة على الأقل',
    nameLanguages: (p) => `${p.text('max')} لغة على الأكثر`,
    languageTag: (p) => `${p.quoted('tag')} ليس رمز لغة مثل en أو ar أو fr-CA`,
    languageTwice: (p) => (p.has('other') ? `${p.quoted('tag')} هي اللغة نفسها ${p.quoted('other')}` : 'تُذكر لغة مرتين'),
    languageMissing: (p) => `يجب أن تشمل اللغة الافتراضية ${p.ltr('tag')}`,
    hoursForm: () => 'اكتب الساعات يومًا يومًا، مثل 08:30-12:00',
    weekday: (p) => `${p.quoted('day')} ليس يومًا من أيام الأسبوع`,
    hoursList: () => 'اكتب الساعات من-إلى، مثل 08:30-12:00، أو اتركها فارغة في يوم الإغلاق',
    interval: () => 'كل فترة تحتاج إلى بداية ونهاية، مثل 08:30-12:00',
    time: (p) => `${p.quoted('value')} ليس وقتًا من اليوم: اكتب HH:MM من 00:00 إلى ${p.ltr('latest')}`,
    emptyInterval: (p) => `${p.span('from', 'to')} تبدأ وتنتهي في الوقت نفسه`,
    overlap: (p) => (p.text('day') === p.text('otherDay')
      ? `${p.span('otherFrom', 'otherTo')} تتداخل مع ${p.span('from', 'to')}`
      : `${p.span('from', 'to')} تتداخل مع ${p.span('otherFrom', 'otherTo')} يوم ${p.day('otherDay')}`),
    datesForm: () => 'اكتب التواريخ بصيغة YYYY-MM-DD مفصولة بفواصل',
    date: (p) => `${p.quoted('value')} ليس تاريخًا حقيقيًا: اكتب YYYY-MM-DD، مثل 2026-12-25`,
    dateTwice: (p) => `${p.ltr('value')} مذكور مرتين`,
    duplicateId: (p) => `${p.kind('kind')} آخر له المعرّف نفسه`,
    belongsElsewhere: (p) => `هذا المعرّف مستخدم لـ${p.kind('kind')} في مكان آخر`,
    timeZone: (p) => `${p.quoted('value')} ليست منطقة زمنية: اختر واحدة من القائمة`,
    cidr: (p) => `${p.quoted('value')} ليست شبكة: اكتب عنوانًا وطول بادئته كما في المثال`,
    requiredWith: () => 'يجب ملء هذا الحقل في وضع الأولوية هذا',
    onlyWith: () => 'اتركه فارغًا في وضع الأولوية هذا',
    duplicateValue: (p) => `${p.quoted('value')} مذكور مرتين`,
    unknownReference: (p) => `${p.kind('kind')} المختار غير موجود هنا (ربما حُذف): أعد تحميل الصفحة`,
    notOfferedThere: (p) => (p.text('counter') === ''
      ? `${p.quoted('value')} غير مقدَّمة في موقع هذا الشباك: قدِّمها هناك أولًا، أو اختر غيرها`
      : `الشباك ${p.quoted('counter')} قائم هناك ويقدّم هذه الخدمة: انقل الشباك أو أوقف تقديمه لها أولًا`),
    typeFixed: (p) => `لا يمكن تغيير النوع (هو ${p.ltr('value')})`,
    taken: () => 'مستخدم من قبل: اختر غيره',
    ownAccount: () => 'لا يجوز لحسابك أنت: اطلب ذلك من مسؤول آخر',
    disabled: () => 'معطّل: فعّله أولًا',
    adminNoUnits: () => 'المسؤول يعمل في كل وحدات الطابور: لا تختر أيًا منها',
    retired: (p) => `${p.kind('kind')} متقاعد`,
    plainText: (p) => `من 1 إلى ${p.text('max')} حرفًا، دون أحرف تحكم`,
    clipName: () => 'ليس اسم مقطع: ticket أو please-go-to أو رقم أو حرف A–Z أو counter- ثم معرّف الشباك',
    template: (p) => (p.text('problem') === 'variable'
      ? `${p.quoted('variable')} ليست كلمة تملؤها هذه الرسالة؛ تملأ ${p.ltr('allowed')}`
      : p.text('problem') === 'brace' ? 'قوس معقوف لا يحيط بكلمة تملؤها هذه الرسالة' : 'يجب ألا يكون فارغًا'),
    audioType: (p) => `الملف ليس صوتًا من نوع ${p.ltr('value')}`,
    dateTime: () => 'اكتب تاريخًا مثل 2026-11-25',
  },
}

const FALLBACK: Record<Lang, string> = { en: WORDS.en.invalid(new Params({}, 'en')), ar: WORDS.ar.invalid(new Params({}, 'ar')) }
const LIST_SEPARATOR: Record<Lang, string> = { en: ', ', ar: '، ' }

/** True when the detail names a rule this module says in words (not the fallback "this value is not allowed"). */
export function recognised(detail: RuledDetail): boolean {
  return detail.rule !== undefined && detail.rule !== 'invalid' && Object.hasOwn(WORDS.en, detail.rule)
    && !(detail.rule === 'format' && (detail.params?.format === undefined || !Object.hasOwn(FORMATS.en, String(detail.params.format)) || detail.params.format === 'other'))
}

/** What the rule allows, in `lang`, without the label. */
export function ruleWords(detail: RuledDetail, lang: Lang): string {
  const say = detail.rule === undefined ? undefined : WORDS[lang][detail.rule]
  if (say === undefined) return FALLBACK[lang]
  return say(new Params(detail.params ?? {}, lang))
}

/** "Opening hours, Monday: 08:00–12:00 overlaps 11:00–14:00": the field named by its label, then the rule in words. */
export function wordsFor(detail: RuledDetail, label: string, lang: Lang): string {
  return `${label}: ${ruleWords(detail, lang)}`
}

/** A field's label as an error names it: its group first where the label alone is ambiguous ("Opening hours, Monday"). */
export function fieldName(label: string, group: string | null, lang: Lang): string {
  const short = shortLabel(label)
  if (group === null) return short
  const groupShort = shortLabel(group)
  return groupShort === '' || groupShort === short ? short : `${groupShort}${LIST_SEPARATOR[lang]}${short}`
}

/**
 * A label without its trailing hint in brackets ("Time zone (e.g. Asia/Riyadh)" → "Time zone",
 * "Ticket prefix (1–3 capital letters)" → "Ticket prefix"): the words say what is allowed, and
 * a hint may hold a slash. Brackets that are part of the name stay ("Name (Arabic)"): a hint has
 * a digit, a slash, a comma, a semicolon, a colon or an example in it.
 */
export function shortLabel(label: string): string {
  const hint = /\s*\(([^()]*)\)\s*$/.exec(label)
  if (hint === null || !/[0-9/,;:،؛]|e\.g\.|مثل/.test(hint[1]!)) return label.trim()
  const short = label.slice(0, hint.index).trim()
  return short === '' ? label.trim() : short
}
