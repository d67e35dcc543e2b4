/** One JSON object per line on stdout; tests pass a collecting or silent logger. */
export type Logger = (entry: Record<string, unknown>) => void

export const jsonLogger: Logger = (entry) => {
  process.stdout.write(JSON.stringify({ time: new Date().toISOString(), ...entry }) + '\n')
}

export const silentLogger: Logger = () => {}
