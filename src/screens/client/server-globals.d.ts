// For the browser's tsconfig only (src/screens/client/tsconfig.json). The wire types
// (src/contract/wire.ts) are derived from the server's TypeBox schemas; type-only imports erase them from
// the bundles, but the typecheck still reads those server files, and one of them (the OpenAPI
// plugin, via the error-code tables) names `Bun.file`. Browser code must never use it:
// test/screens/contract.test.ts fails when a file under src/screens/client mentions `Bun.`.
declare namespace Bun {
  function file(path: string): Blob
}
