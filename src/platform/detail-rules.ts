/*
 * The rule each validation detail breaks, machine-readable beside its English `message`
 * (contract §24 "Errors in words"): `{path, message, rule, params}`. The API's integrators keep
 * reading `message`; the console turns `rule` and `params` into words in the page's language at
 * the field `path` names (src/client/admin/error-words.ts), so no page shows a JSON
 * Pointer, a regular expression or a schema type. Params never hold a pointer. Imports nothing.
 */

export const DETAIL_RULES = [
  // The schema's (TypeBox) failures, src/platform/validation.ts.
  'type', 'format', 'minLength', 'maxLength', 'range', 'minItems', 'maxItems', 'uniqueItems', 'oneOf', 'form',
  'required', 'unknownField', 'unicode', 'invalid',
  // Names in every language, src/platform/names.ts and the unit's languages.
  'nameEmpty', 'nameForm', 'nameNoLanguage', 'nameLanguages', 'languageTag', 'languageTwice', 'languageMissing',
  // Opening hours and closed dates, src/structure/opening-hours.ts.
  'hoursForm', 'weekday', 'hoursList', 'interval', 'time', 'emptyInterval', 'overlap', 'datesForm', 'date', 'dateTwice',
  // The provisioning file's references, src/provisioning/service.ts.
  'duplicateId', 'belongsElsewhere', 'timeZone', 'cidr', 'requiredWith', 'onlyWith', 'duplicateValue', 'unknownReference', 'typeFixed', 'notOfferedThere',
  // The console's sections' own checks, src/admin/.
  'taken', 'ownAccount', 'disabled', 'adminNoUnits', 'retired', 'plainText', 'clipName', 'audioType', 'dateTime',
  // Contract §25's message templates, src/notifications/model.ts: `problem` is variable, brace or blank.
  'template',
] as const
export type DetailRule = (typeof DETAIL_RULES)[number]

/** A rule's particulars: bounds, the value refused, the allowed values, the kind of thing referred to. Never a pointer. */
export type DetailParams = Record<string, string | number | string[]>

/**
 * The forms a schema's `pattern` stands for, by the pattern's exact text: the words say the
 * form ("one to three capital letters"), never the expression. A pattern not listed is `other`
 * (test/admin/error-words.test.ts walks the console's schemas for patterns missing here).
 */
export const PATTERN_FORMATS: Readonly<Record<string, string>> = {
  '^[A-Za-z0-9_-]{1,160}$': 'id',
  '^[A-Za-z0-9_.:-]{1,80}$': 'keyName',
  '^[A-Z]{1,3}$': 'prefix',
  '^https?://[^\\s]+$': 'url',
  '^[A-Z]{2}$': 'country',
  '^psrc_[A-Za-z0-9-]{20,}$': 'prayerSourceId',
  '\\S': 'notBlank',
  '^[A-Za-z0-9_-]{16}$': 'revision',
  '^[a-z0-9._-]{1,64}$': 'username',
  '^\\d{6}$': 'sixDigits',
  '@': 'email',
  '^(mailto:[^\\s]+|https://[^\\s]+)$': 'contactUrl',
}

/** The kinds of `format` a detail can name (`other`: a pattern PATTERN_FORMATS does not list). */
export const FORMATS = ['id', 'keyName', 'prefix', 'url', 'country', 'prayerSourceId', 'notBlank', 'revision', 'username', 'sixDigits', 'email', 'contactUrl', 'other'] as const
export type DetailFormat = (typeof FORMATS)[number]

/** A detail with its rule: the one way details that carry a rule are made. */
export function ruled(path: string, message: string, rule: DetailRule, params?: DetailParams): { path: string; message: string; rule: DetailRule; params?: DetailParams } {
  return params === undefined ? { path, message, rule } : { path, message, rule, params }
}
