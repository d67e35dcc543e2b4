/*
 * The standard break reasons (src/structure/tables.ts DEFAULT_BREAK_REASONS) in a page's
 * language, for a reason that has no names of its own where the page reads it (the desk before
 * its view arrives; the reports page, whose staff report carries reason ids). A reason a branch
 * provisioned is shown as written.
 */
const BREAK_REASON_WORDS: Record<string, Record<string, string>> = {
  ar: { Break: 'استراحة', Lunch: 'غداء', 'Admin work': 'عمل إداري', Other: 'أخرى' },
}

/** How a page in `lang` shows the break reason `reason`. */
export function breakReasonLabel(lang: string, reason: string): string {
  return BREAK_REASON_WORDS[lang.toLowerCase().split('-')[0] ?? 'en']?.[reason] ?? reason
}
