/**
 * The kiosk's own words (contract §9), English and Arabic, in the device pages' way: a table
 * per language, `{name}` placeholders, Intl for numbers and minutes. Counts have a form per
 * plural category (`Intl.PluralRules`: Arabic has six), never a number glued to one word.
 * A unit language with no table here gets the English words around its own names.
 */
import { pluralForm, type PluralPhrase } from './plural'

/** A count's phrase per plural category; `other` is the one every language has. */
export type PluralWords = PluralPhrase

const en = {
  title: 'Take a ticket',
  choose: 'Touch a service to take a ticket',
  waiting: { one: '{n} waiting', other: '{n} waiting' } as PluralWords,
  nobodyWaiting: 'Nobody waiting',
  approxWait: 'about {time}',
  youreNext: "You're next",
  noCounterOpen: 'No counter is open right now',
  noServices: 'No service is open at this kiosk right now',
  noServicesHint: 'Please ask at the counter.',
  issuing: 'Printing your ticket…',
  yourNumber: 'Your number',
  peopleAhead: 'People ahead of you',
  approxWaitLabel: 'Approximate wait',
  scan: 'Scan to follow your place on your phone',
  printed: 'Take your printed ticket below.',
  tapToFinish: 'Touch the screen to finish ({seconds})',
  language: 'Language',
  priority: 'Priority',
  priorityHint: 'For older, pregnant or disabled customers',
  priorityOn: 'Priority ticket: touch your service',
  priorityTicket: 'Priority ticket',
  // errors, in words
  serviceClosed: 'This service is closed right now',
  serviceClosedHint: 'Please choose another service or ask at the counter.',
  unitInactive: 'The queue is closed',
  unitInactiveHint: 'No tickets can be taken at the moment. Please ask at the counter.',
  tooMany: 'Too many tickets at once',
  tooManyHint: 'Please wait {seconds} seconds and touch your service again.',
  offline: 'The kiosk cannot reach the server',
  offlineHint: 'Touch your service again in a moment (you will not get two tickets), or ask at the counter.',
  edgeManaged: 'Tickets are issued by another system right now',
  edgeManagedHint: 'Please ask at the counter.',
  failed: 'Something went wrong',
  failedHint: 'Please try again, or ask at the counter. ({message})',
  ok: 'OK',
  notKiosk: 'This device is paired as {role}, not as a kiosk.',
  connecting: 'Connecting…',
  // contract §18: opening hours
  closedNow: 'Closed now',
  opens: 'Opens {when}',
  noOpening: 'No opening hours are set',
  branchClosed: 'The branch is closed',
  branchOpens: 'It opens {when}. You can take a ticket from then.',
  branchNoOpening: 'No opening is planned. Please ask at the counter.',
  // contract §21: appointments
  haveAppointment: 'I have an appointment',
  appointmentCode: 'Your booking code',
  appointmentCodeHint: '8 letters and digits, from your booking confirmation',
  checkIn: 'Check in',
  back: 'Back',
  appointmentNotFound: 'No appointment with this code here',
  appointmentNotFoundHint: 'Please check the code and try again, or ask at the counter.',
  tooEarly: 'It is too early to check in',
  tooEarlyHint: 'Please come back closer to your appointment time.',
  tooEarlyFrom: 'You can check in from {when}.',
  appointmentAt: 'Appointment {time}',
  tooLate: 'Your check-in time has passed',
  tooLateHint: 'You can take a normal ticket instead.',
  takeNormal: 'Take a normal ticket',
  notBooked: 'This appointment can no longer be checked in',
  notBookedHint: 'It was cancelled or already checked in. Please ask at the counter.',
}

export type KioskWords = typeof en
export type KioskWordKey = keyof KioskWords

const ar: KioskWords = {
  title: 'خذ تذكرة',
  choose: 'المس خدمة لأخذ تذكرة',
  waiting: {
    zero: 'لا أحد في الانتظار',
    one: 'شخص واحد في الانتظار',
    two: 'شخصان في الانتظار',
    few: '{n} أشخاص في الانتظار',
    many: '{n} شخصًا في الانتظار',
    other: '{n} شخص في الانتظار',
  },
  nobodyWaiting: 'لا أحد في الانتظار',
  approxWait: 'حوالي {time}',
  youreNext: 'أنت التالي',
  noCounterOpen: 'لا يوجد شباك مفتوح الآن',
  noServices: 'لا توجد خدمة متاحة في هذا الجهاز الآن',
  noServicesHint: 'يرجى السؤال عند الشباك.',
  issuing: 'جارٍ إصدار تذكرتك…',
  yourNumber: 'رقمك',
  peopleAhead: 'عدد المنتظرين قبلك',
  approxWaitLabel: 'الانتظار التقريبي',
  scan: 'امسح الرمز لمتابعة دورك على هاتفك',
  printed: 'خذ تذكرتك المطبوعة من الأسفل.',
  tapToFinish: 'المس الشاشة للإنهاء ({seconds})',
  language: 'اللغة',
  priority: 'أولوية',
  priorityHint: 'لكبار السن والحوامل وذوي الإعاقة',
  priorityOn: 'تذكرة أولوية: المس خدمتك',
  priorityTicket: 'تذكرة أولوية',
  serviceClosed: 'هذه الخدمة مغلقة الآن',
  serviceClosedHint: 'يرجى اختيار خدمة أخرى أو السؤال عند الشباك.',
  unitInactive: 'الطابور مغلق',
  unitInactiveHint: 'لا يمكن أخذ تذاكر حاليًا. يرجى السؤال عند الشباك.',
  tooMany: 'تذاكر كثيرة في وقت واحد',
  tooManyHint: 'يرجى الانتظار {seconds} ثانية ثم لمس خدمتك مرة أخرى.',
  offline: 'لا يستطيع الجهاز الوصول إلى الخادم',
  offlineHint: 'المس خدمتك مرة أخرى بعد قليل (لن تحصل على تذكرتين)، أو اسأل عند الشباك.',
  edgeManaged: 'يصدر نظام آخر التذاكر الآن',
  edgeManagedHint: 'يرجى السؤال عند الشباك.',
  failed: 'حدث خطأ ما',
  failedHint: 'يرجى المحاولة مجددًا أو السؤال عند الشباك. ({message})',
  ok: 'حسنًا',
  notKiosk: 'هذا الجهاز مقترن بدور {role}، وليس كجهاز تذاكر.',
  connecting: 'جارٍ الاتصال…',
  closedNow: 'مغلقة الآن',
  opens: 'تفتح {when}',
  noOpening: 'لم تُحدَّد مواعيد العمل',
  branchClosed: 'الفرع مغلق',
  branchOpens: 'يفتح {when}. يمكنك أخذ تذكرة ابتداءً من ذلك الوقت.',
  branchNoOpening: 'لا يوجد موعد افتتاح مقرر. يرجى السؤال عند الشباك.',
  haveAppointment: 'لدي موعد',
  appointmentCode: 'رمز الحجز',
  appointmentCodeHint: '8 أحرف وأرقام، من تأكيد حجزك',
  checkIn: 'تسجيل الحضور',
  back: 'رجوع',
  appointmentNotFound: 'لا يوجد موعد بهذا الرمز هنا',
  appointmentNotFoundHint: 'يرجى التحقق من الرمز والمحاولة مجددًا، أو السؤال عند الشباك.',
  tooEarly: 'الوقت مبكر لتسجيل الحضور',
  tooEarlyHint: 'يرجى العودة قرب موعدك.',
  tooEarlyFrom: 'يمكنك تسجيل الحضور ابتداءً من {when}.',
  appointmentAt: 'موعد {time}',
  tooLate: 'انتهى وقت تسجيل حضورك',
  tooLateHint: 'يمكنك أخذ تذكرة عادية بدلًا من ذلك.',
  takeNormal: 'خذ تذكرة عادية',
  notBooked: 'لم يعد بالإمكان تسجيل الحضور لهذا الموعد',
  notBookedHint: 'تم إلغاؤه أو تسجيل الحضور له من قبل. يرجى السؤال عند الشباك.',
}

export function kioskWordsFor(lang: string): KioskWords {
  return lang.toLowerCase().startsWith('ar') ? ar : en
}

/**
 * A count in words in the form its plural category takes in `lang` (Arabic: "شخص واحد",
 * "شخصان", "3 أشخاص", "11 شخصًا", "100 شخص"); `formatted` is the number as the page writes it.
 */
export function countWords(words: PluralWords, n: number, lang: string, formatted: string = String(n)): string {
  return (words[pluralForm(lang, n)] ?? words.other).replaceAll('{n}', formatted)
}

// The language switch names each language in itself (shared with the phone page).
export { languageName } from './language-name'
