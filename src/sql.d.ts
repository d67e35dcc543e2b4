declare module '*.yaml' {
  const text: string
  export default text
}
declare module '*.sql' {
  const text: string
  export default text
}

// Files imported `with { type: 'file' }` resolve to a path Bun.file can open, embedded by
// `bun build --compile`.
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const path: string
  export default path
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const path: string
  export default path
}
