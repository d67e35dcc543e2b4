/*
 * The handle of the test process's one Chromium (test/screens/support.ts starts it on first
 * use): kept on globalThis, so the run's preload (./cleanup.ts) can end it without loading the
 * browser support itself.
 */
export const PROCESS_BROWSER_KEY = Symbol.for('lobby.tests.chromium')

type Closable = { close(): Promise<void> }

/** Ends the process's Chromium, if a test started it. */
export async function closeProcessBrowser(): Promise<void> {
  const browser = await (globalThis as { [PROCESS_BROWSER_KEY]?: Promise<Closable> })[PROCESS_BROWSER_KEY]?.catch(() => undefined)
  await browser?.close().catch(() => undefined)
}
