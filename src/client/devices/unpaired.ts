/**
 * What a page of a paired device says once the device is not (or no longer) paired: shared by
 * the device pages and the boards a paired display opens, kept apart from the device pages'
 * other words so the boards' bundle carries only these.
 */
const WORDS = {
  en: {
    noLongerPaired: 'This device is no longer paired',
    notPaired: 'This device is not paired',
    notPairedHint: 'Ask the branch administrator for a pairing code, then pair it again.',
  },
  ar: {
    noLongerPaired: 'لم يعد هذا الجهاز مقترنًا',
    notPaired: 'هذا الجهاز غير مقترن',
    notPairedHint: 'اطلب من مسؤول الفرع رمز إقران، ثم أقرن الجهاز من جديد.',
  },
}

export type UnpairedWords = (typeof WORDS)['en']

export function unpairedWords(lang: string): UnpairedWords {
  return lang.toLowerCase().startsWith('ar') ? WORDS.ar : WORDS.en
}

export const UNPAIRED_EN = WORDS.en
export const UNPAIRED_AR = WORDS.ar
