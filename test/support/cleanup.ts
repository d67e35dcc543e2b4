import { afterAll } from 'bun:test'
import { removeTempDirs } from './cli'
import { closeProcessBrowser } from './process-browser'

// Preloaded by bunfig.toml. An afterAll here runs after each test file: with --no-isolate
// (package.json) the preload is loaded once per worker, and its afterAll still runs per file.
afterAll(async () => {
  await closeProcessBrowser()
  removeTempDirs()
})
