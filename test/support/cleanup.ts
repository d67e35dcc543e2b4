import { afterAll } from 'bun:test'
import { removeTempDirs } from './cli'

// Preloaded by bunfig.toml: an afterAll here runs once, after every test file of the run.
afterAll(async () => {
  // The process's one Chromium (test/screens/support.ts), if a test started it.
  const browser = await (globalThis as { [key: symbol]: Promise<{ close(): Promise<void> }> | undefined })[Symbol.for('lobby.tests.chromium')]?.catch(() => undefined)
  await browser?.close().catch(() => undefined)
  removeTempDirs()
})
