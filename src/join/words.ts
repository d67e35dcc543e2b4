/**
 * The join page's and the poster's own words (contract §20), English and Arabic. The wait
 * phrases ("12 waiting", "about 15 min", "You're next", "No counter is open right now",
 * "Closed now", "Opens Monday 08:30") are the kiosk's (src/screens/shared/kiosk-strings.ts),
 * so the two pages say a wait the same way. A unit language with no table here gets the
 * English words around its own names.
 */
const en = {
  title: 'Take a ticket',
  choose: 'Choose a service to join its queue from your phone.',
  take: 'Take a ticket',
  takeFor: 'Take a ticket for {service}',
  full: 'Full for now: please take a ticket at the kiosk',
  noServices: 'No service is open for joining right now',
  noServicesHint: 'Please take a ticket at the branch, or try again later.',
  haveTicket: 'You already have a ticket here',
  haveTicketHint: 'One ticket at a time per phone. When it is done, you can take a new one.',
  openTicket: 'Open your ticket',
  language: 'Language',
  back: 'Back to the services',
  // refusals, in words
  notOffered: 'Joining from a phone is not offered here',
  notOfferedHint: 'Please take a ticket at the kiosk in the branch.',
  network: 'Joining from a phone works only on the branch\'s own Wi-Fi',
  networkHint: 'Connect to the branch\'s Wi-Fi and open this page again, or take a ticket at the kiosk.',
  origin: 'This ticket request did not come from this page',
  originHint: 'Open the join page again and choose your service there.',
  tooMany: 'Too many tickets from this connection',
  tooManyHint: 'Please wait about {minutes} minutes, or take a ticket at the kiosk.',
  closed: 'This service is closed right now',
  closedHint: 'It opens {when}.',
  closedNoOpening: 'No opening is planned. Please ask at the branch.',
  queueFull: 'This service\'s queue is full for phones right now',
  queueFullHint: 'Please take a ticket at the kiosk in the branch.',
  unavailable: 'Tickets cannot be taken right now',
  unavailableHint: 'Please ask at the branch.',
  invalid: 'That choice is not available',
  invalidHint: 'Go back and choose one of the services listed.',
  failed: 'Something went wrong',
  failedHint: 'Please go back and try again.',
  // Contract §25: an optional number or address for messages, with consent.
  contactLegend: 'Messages about your ticket (optional)',
  contactHint: 'Get a message when your turn is near and when you are called, even with this page closed.',
  phoneLabel: 'Mobile number',
  emailLabel: 'E-mail address',
  consent: 'I agree to get messages about this ticket at this number or address. They are deleted a day after the ticket ends.',
  fixBelow: 'Please check the fields marked below.',
  phoneBad: 'This is not a mobile number. Type it as you would dial it, or with + and the country code.',
  phoneNotSent: 'This branch does not send text messages. Leave this empty.',
  emailBad: 'This is not an e-mail address. It looks like name@example.com.',
  emailNotSent: 'This branch does not send e-mails. Leave this empty.',
  consentNeeded: 'Tick this box to get messages, or leave the number and the address empty.',
  // the poster
  posterTitle: 'Join the queue from your phone',
  posterStep1: 'Scan the code with your phone\'s camera.',
  posterStep2: 'Choose your service and take a ticket.',
  posterStep3: 'Your phone shows your number and tells you when it is your turn.',
  posterOr: 'Or open',
  print: 'Print',
}

export type JoinWords = typeof en

const ar: JoinWords = {
  title: 'خذ تذكرة',
  choose: 'اختر خدمة لتنضم إلى طابورها من هاتفك.',
  take: 'خذ تذكرة',
  takeFor: 'خذ تذكرة لخدمة {service}',
  full: 'ممتلئ حاليًا: يرجى أخذ تذكرة من جهاز التذاكر',
  noServices: 'لا توجد خدمة متاحة للانضمام الآن',
  noServicesHint: 'يرجى أخذ تذكرة في الفرع، أو المحاولة لاحقًا.',
  haveTicket: 'لديك تذكرة هنا بالفعل',
  haveTicketHint: 'تذكرة واحدة في كل مرة لكل هاتف. عند انتهائها يمكنك أخذ تذكرة جديدة.',
  openTicket: 'افتح تذكرتك',
  language: 'اللغة',
  back: 'العودة إلى الخدمات',
  notOffered: 'الانضمام من الهاتف غير متاح هنا',
  notOfferedHint: 'يرجى أخذ تذكرة من جهاز التذاكر في الفرع.',
  network: 'الانضمام من الهاتف متاح فقط عبر شبكة Wi-Fi الخاصة بالفرع',
  networkHint: 'اتصل بشبكة Wi-Fi الخاصة بالفرع وافتح هذه الصفحة مرة أخرى، أو خذ تذكرة من جهاز التذاكر.',
  origin: 'لم يأتِ طلب التذكرة هذا من هذه الصفحة',
  originHint: 'افتح صفحة الانضمام مرة أخرى واختر خدمتك منها.',
  tooMany: 'تذاكر كثيرة من هذا الاتصال',
  tooManyHint: 'يرجى الانتظار حوالي {minutes} دقيقة، أو أخذ تذكرة من جهاز التذاكر.',
  closed: 'هذه الخدمة مغلقة الآن',
  closedHint: 'تفتح {when}.',
  closedNoOpening: 'لا يوجد موعد افتتاح مقرر. يرجى السؤال في الفرع.',
  queueFull: 'طابور هذه الخدمة ممتلئ للهواتف الآن',
  queueFullHint: 'يرجى أخذ تذكرة من جهاز التذاكر في الفرع.',
  unavailable: 'لا يمكن أخذ تذاكر الآن',
  unavailableHint: 'يرجى السؤال في الفرع.',
  invalid: 'هذا الاختيار غير متاح',
  invalidHint: 'ارجع واختر إحدى الخدمات المعروضة.',
  failed: 'حدث خطأ ما',
  failedHint: 'يرجى الرجوع والمحاولة مرة أخرى.',
  contactLegend: 'رسائل عن تذكرتك (اختياري)',
  contactHint: 'تصلك رسالة عندما يقترب دورك وعند مناداتك، حتى لو أغلقت هذه الصفحة.',
  phoneLabel: 'رقم الجوال',
  emailLabel: 'البريد الإلكتروني',
  consent: 'أوافق على تلقي رسائل عن هذه التذكرة على هذا الرقم أو العنوان. تُحذف بعد يوم من انتهاء التذكرة.',
  fixBelow: 'يرجى مراجعة الحقول المشار إليها أدناه.',
  phoneBad: 'هذا ليس رقم جوال. اكتبه كما تتصل به، أو مع + ورمز الدولة.',
  phoneNotSent: 'هذا الفرع لا يرسل رسائل نصية. اترك هذا الحقل فارغًا.',
  emailBad: 'هذا ليس بريدًا إلكترونيًا. يبدو مثل name@example.com.',
  emailNotSent: 'هذا الفرع لا يرسل بريدًا إلكترونيًا. اترك هذا الحقل فارغًا.',
  consentNeeded: 'ضع علامة في هذا المربع لتلقي الرسائل، أو اترك الرقم والعنوان فارغين.',
  posterTitle: 'انضم إلى الطابور من هاتفك',
  posterStep1: 'امسح الرمز بكاميرا هاتفك.',
  posterStep2: 'اختر خدمتك وخذ تذكرة.',
  posterStep3: 'يعرض هاتفك رقمك ويخبرك عندما يحين دورك.',
  posterOr: 'أو افتح',
  print: 'طباعة',
}

export function joinWordsFor(lang: string): JoinWords {
  return lang.toLowerCase().startsWith('ar') ? ar : en
}

/** `{name}` placeholders filled in. */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole)
}
