import { afterAll } from 'bun:test'
import { removeTempDirs } from './cli'
import { closeProcessBrowser } from './process-browser'

// Preloaded by bunfig.toml: an afterAll here runs once, after every test file of the run.
afterAll(async () => {
  await closeProcessBrowser()
  removeTempDirs()
})
