import { afterAll } from 'bun:test'
import { removeTempDirs } from './cli'

// Preloaded by bunfig.toml: an afterAll here runs once, after every test file of the run.
afterAll(() => removeTempDirs())
