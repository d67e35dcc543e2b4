/**
 * `bun test/openapi/generate-client.ts <openapi.json> <out.ts>`: the TypeScript types an
 * integrator generates with openapi-typescript. Run as its own process because
 * openapi-typescript 7 needs TypeScript 5's compiler API while the project compiles with
 * TypeScript 7 (which has none): here, and only here, `typescript` is TypeScript 5
 * (the `typescript5` devDependency).
 */
const typescript5 = Bun.resolveSync('typescript5', import.meta.dir)
Bun.plugin({
  name: 'typescript-5-for-openapi-typescript',
  setup(build) {
    build.onLoad({ filter: /node_modules\/typescript\/lib\/version\.cjs$/ }, () => ({
      contents: `import ts from ${JSON.stringify(typescript5)}; export default ts;`,
      loader: 'js',
    }))
  },
})
const { default: openapiTS, astToString } = await import('openapi-typescript')
const [input, output] = process.argv.slice(2)
const document = JSON.parse(await Bun.file(input!).text())
await Bun.write(output!, astToString(await openapiTS(document)))
