/** Fills `{name}` placeholders (its own module: the label tables and the plural phrases both use it). */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)
}
