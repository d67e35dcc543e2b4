// The common-password list, imported `with { type: 'text' }` (embedded by `bun build --compile`).
declare module '*/common-passwords.txt' {
  const text: string
  export default text
}
