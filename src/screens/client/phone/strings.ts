/**
 * The phone page's words (contract §10), English and Arabic; numbers and minutes through Intl.
 * Another unit language gets the English words around names in its own language.
 * Kept apart from the screens' and devices' tables so the phone bundle carries only these.
 */
const en = {
  title: 'Your ticket',
  yourNumber: 'Your number',
  peopleAhead: 'People ahead of you',
  approxWait: 'Approximate wait',
  waitingHint: 'Keep this page open: it shows here when it is your turn.',
  nextUp: 'You are next.',
  youreNext: "You're next",
  noCounterOpen: 'No counter is open right now',
  called: 'Please go to {counter}',
  calledHint: 'It is your turn.',
  serving: 'You are being served at {counter}',
  ended: 'This ticket is closed',
  endedHint: 'Thank you for your visit. To be served again, take a new ticket.',
  expired: 'This ticket has expired',
  expiredHint: 'It was for an earlier day. Take a new ticket at the branch.',
  notFound: 'This ticket link is not valid',
  notFoundHint: 'Check the address, or scan the code on your ticket again.',
  offline: 'No connection. Reconnecting…',
  soundHint: 'Tap here to allow a sound when you are called.',
  soundOn: 'Sound on',
  languageLabel: 'Language',
}

export type PhoneWords = typeof en

const ar: PhoneWords = {
  title: 'تذكرتك',
  yourNumber: 'رقمك',
  peopleAhead: 'عدد المنتظرين قبلك',
  approxWait: 'الانتظار التقريبي',
  waitingHint: 'أبقِ هذه الصفحة مفتوحة: سيظهر هنا عندما يحين دورك.',
  nextUp: 'أنت التالي.',
  youreNext: 'أنت التالي',
  noCounterOpen: 'لا يوجد شباك مفتوح الآن',
  called: 'يرجى التوجه إلى {counter}',
  calledHint: 'حان دورك.',
  serving: 'تجري خدمتك عند {counter}',
  ended: 'أُغلقت هذه التذكرة',
  endedHint: 'شكرًا لزيارتك. للخدمة مرة أخرى، خذ تذكرة جديدة.',
  expired: 'انتهت صلاحية هذه التذكرة',
  expiredHint: 'كانت ليوم سابق. خذ تذكرة جديدة في الفرع.',
  notFound: 'رابط التذكرة هذا غير صالح',
  notFoundHint: 'تحقّق من العنوان، أو امسح الرمز على تذكرتك مرة أخرى.',
  offline: 'لا يوجد اتصال. جارٍ إعادة الاتصال…',
  soundHint: 'اضغط هنا للسماح بصوت عند مناداتك.',
  soundOn: 'الصوت مفعّل',
  languageLabel: 'اللغة',
}

/** The languages this page has words in: §10 asks for English and Arabic whatever the unit speaks. */
export const PHONE_WORD_LANGUAGES = ['en', 'ar'] as const

export function phoneWords(lang: string): PhoneWords {
  return lang.toLowerCase().startsWith('ar') ? ar : en
}
