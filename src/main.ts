#!/usr/bin/env bun
import { UsageError } from './cli/args'
import { serveCommand, serveHelp } from './cli/serve'
import { migrateCommand, migrateHelp } from './cli/migrate'
import { provisionCommand, provisionHelp } from './cli/provision'
import { keysCommand, keysHelp } from './cli/keys'
import { edgeAuthorityCommand, edgeAuthorityHelp } from './cli/edge-authority'
import { demoCommand, demoHelp } from './cli/demo'
import { webhooksCommand, webhooksHelp } from './cli/webhooks'
import { backupCommand, backupHelp } from './cli/backup'
import { NewerDatabaseError } from './db/migrate'
import { versionLine } from './version'

type Command = { run: (argv: string[]) => Promise<number>; help: string }

/** Commands of contract §1 that later work brings; until then they say so and exit 2. */
const notYet = (usage: string): Command => ({
  help: usage,
  run: async (argv) => {
    if (argv.includes('--help') || argv.includes('-h')) {
      console.log(`${usage}\n\nnot available yet in this build`)
      return 0
    }
    throw new UsageError(`${usage.split(' ')[1]}: not available yet in this build`)
  },
})

const commands: Record<string, Command> = {
  serve: { run: serveCommand, help: serveHelp },
  migrate: { run: migrateCommand, help: migrateHelp },
  provision: { run: provisionCommand, help: provisionHelp },
  keys: { run: keysCommand, help: keysHelp },
  'edge-authority': { run: edgeAuthorityCommand, help: edgeAuthorityHelp },
  demo: { run: demoCommand, help: demoHelp },
  backup: { run: backupCommand, help: backupHelp },
  webhooks: { run: webhooksCommand, help: webhooksHelp },
}

const usage = `Lobby: queue, widget and prayer-schedule server for a branch office.

usage: lobby <command> [flags]    (lobby <command> --help for its flags)

${Object.values(commands).map((c) => '  ' + c.help.split('\n')[0]).join('\n')}
  lobby --version`

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (name === '--version' || name === '-v') {
    console.log(versionLine())
    return 0
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage)
    return 0
  }
  const command = commands[name]
  if (command === undefined) throw new UsageError(`unknown command "${name}" (see lobby --help)`)
  return command.run(rest)
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      if (error instanceof UsageError || error instanceof NewerDatabaseError) {
        process.stderr.write(`lobby: ${error.message}\n`)
        process.exit(2)
      }
      process.stderr.write(`lobby: ${(error as Error)?.message ?? error}\n`)
      process.exit(1)
    },
  )
}
