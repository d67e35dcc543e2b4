import { afterAll, expect, test } from 'bun:test'
import type { Subprocess } from 'bun'
import { ensureBinary } from '../support/binary'
import { tempDir } from '../support/cli'

let demo: Subprocess | undefined
afterAll(() => demo?.kill('SIGKILL'))

/** Reads the child's stdout until `marker` appears. */
async function readUntil(stream: ReadableStream<Uint8Array>, marker: string, ms = 15_000): Promise<string> {
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const deadline = Date.now() + ms
  while (!text.includes(marker)) {
    if (Date.now() > deadline) throw new Error(`demo did not print "${marker}":\n${text}`)
    const { done, value } = await reader.read()
    if (done) throw new Error(`demo exited:\n${text}`)
    text += decoder.decode(value, { stream: true })
  }
  reader.releaseLock()
  return text
}

test("the demo's printed curl commands work when pasted into a shell, every time it starts", async () => {
  const dir = tempDir()
  for (const round of [1, 2]) {
    demo = Bun.spawn([ensureBinary(), 'demo', '--port', '0'], { cwd: dir, stdout: 'pipe', stderr: 'pipe' })
    const output = await readUntil(demo.stdout as ReadableStream<Uint8Array>, 'Stop with Ctrl-C.')
    const commands = output.split('\n').filter((line) => line.startsWith('curl '))
    expect(commands.length).toBeGreaterThanOrEqual(6)
    for (const command of commands) {
      // As pasted, plus -w to print the status (before any trailing comment).
      const run = Bun.spawnSync(['bash', '-c', command.replace(/^curl /, "curl -w '\\n%{http_code}' ")], { cwd: dir })
      const lines = run.stdout.toString().trim().split('\n')
      const status = Number(lines.at(-1))
      expect(status, `${command}\n→ ${lines.join('\n')}`).toBeGreaterThanOrEqual(200)
      expect(status, `${command}\n→ ${lines.join('\n')}`).toBeLessThan(300)
    }
    // The live floor's address is printed and answers (signed out: to /login, where the manager signs in).
    const floor = /#\s+(http:\/\/\S+\/manage)\s/.exec(output)?.[1]
    expect(floor).toBeDefined()
    const page = await fetch(floor!, { redirect: 'manual' })
    expect(page.status).toBe(303)
    expect(page.headers.get('location')).toBe('/login')
    demo.kill('SIGTERM')
    expect(await demo.exited).toBe(0)
  }
})
