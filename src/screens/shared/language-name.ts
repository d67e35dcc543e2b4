/**
 * A language's name in itself (`ar` → "العربية", `en` → "English"), for language switches
 * (contract §18: the kiosk and phone pages offer the unit's languages): Intl.DisplayNames,
 * else the tag when the engine does not know it.
 */
export function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag)
    if (name !== undefined && name !== '' && name !== tag) return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1)
  } catch {}
  return tag
}
