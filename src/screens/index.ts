/*
 * The screens feature's door: what another folder of src/ may use of it. Nothing else of
 * src/screens/ is imported from outside (test/platform/imports.test.ts).
 */
export { WireCloseCodes } from './shared/close-codes'
export { AUDIT_ADMIN_ONLY_TYPES } from './shared/console-access'
export { formatNumber, formatOpening, formatSaidMinutes } from './shared/format'
export { countWords, kioskWordsFor } from './shared/kiosk-strings'
export { languageName } from './shared/language-name'
export { canonicalLang, directionOf } from './shared/options'
export { waitVerdict } from './shared/wait-verdict'
export { withPageDigits } from './shared/digits'
