/*
 * The handles of the test process's Chromiums (test/screens/support.ts starts each on first
 * use): the headless shell most browser files share, and the full browser a few need.
 * Kept on globalThis, so the run's preload (./cleanup.ts) can end them without loading the
 * browser support itself.
 */
export const PROCESS_BROWSER_KEY = Symbol.for('lobby.tests.chromium')
export const PROCESS_FULL_BROWSER_KEY = Symbol.for('lobby.tests.chromium-full')

type Closable = { close(): Promise<void> }

/** Ends the process's Chromiums, those a test started. */
export async function closeProcessBrowser(): Promise<void> {
  const holder = globalThis as { [key: symbol]: Promise<Closable> | undefined }
  await Promise.all([PROCESS_BROWSER_KEY, PROCESS_FULL_BROWSER_KEY].map(async (key) => {
    const browser = await holder[key]?.catch(() => undefined)
    await browser?.close().catch(() => undefined)
  }))
}
