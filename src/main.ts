#!/usr/bin/env bun
// The platform's UsageError (what cli/args throws), not cli/args itself: that opens and migrates
// databases, and would load the database layer for `--version` and an unknown command too.
import { UsageError } from './platform/usage-error'
import { NewerDatabaseError } from './db/migrate'
import { versionLine } from './version'

type Command = { run: (argv: string[]) => Promise<number>; help: string }

/**
 * Each command's module is loaded when that command runs, so `lobby serve` does not evaluate
 * the provisioning parser, the demo or the other commands at every start (cold start).
 */
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => { const m = await import('./cli/serve'); return { run: m.serveCommand, help: m.serveHelp } },
  migrate: async () => { const m = await import('./cli/migrate'); return { run: m.migrateCommand, help: m.migrateHelp } },
  provision: async () => { const m = await import('./cli/provision'); return { run: m.provisionCommand, help: m.provisionHelp } },
  keys: async () => { const m = await import('./cli/keys'); return { run: m.keysCommand, help: m.keysHelp } },
  'edge-authority': async () => { const m = await import('./cli/edge-authority'); return { run: m.edgeAuthorityCommand, help: m.edgeAuthorityHelp } },
  demo: async () => { const m = await import('./cli/demo'); return { run: m.demoCommand, help: m.demoHelp } },
  backup: async () => { const m = await import('./cli/backup'); return { run: m.backupCommand, help: m.backupHelp } },
  webhooks: async () => { const m = await import('./cli/webhooks'); return { run: m.webhooksCommand, help: m.webhooksHelp } },
  status: async () => { const m = await import('./cli/status'); return { run: m.statusCommand, help: m.statusHelp } },
  'service-unit': async () => { const m = await import('./cli/service-unit'); return { run: m.serviceUnitCommand, help: m.serviceUnitHelp } },
  devices: async () => { const m = await import('./cli/devices'); return { run: m.devicesCommand, help: m.devicesHelp } },
  users: async () => { const m = await import('./cli/users'); return { run: m.usersCommand, help: m.usersHelp } },
  voice: async () => { const m = await import('./cli/voice'); return { run: m.voiceCommand, help: m.voiceHelp } },
  report: async () => { const m = await import('./cli/report'); return { run: m.reportCommand, help: m.reportHelp } },
  audit: async () => { const m = await import('./cli/audit'); return { run: m.auditCommand, help: m.auditHelp } },
  hq: async () => { const m = await import('./cli/hq'); return { run: m.hqCommand, help: m.hqHelp } },
  'replicate-migrate': async () => { const m = await import('./cli/replicate-migrate'); return { run: m.replicateMigrateCommand, help: m.replicateMigrateHelp } },
}

async function usage(): Promise<string> {
  const helps = await Promise.all(Object.values(commands).map(async (load) => (await load()).help))
  return `Lobby: queue, widget and prayer-schedule server for a branch office.

usage: lobby <command> [flags]    (lobby <command> --help for its flags)

${helps.map((help) => '  ' + help.split('\n')[0]).join('\n')}
  lobby --version`
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (name === '--version' || name === '-v') {
    console.log(versionLine())
    return 0
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(await usage())
    return 0
  }
  const load = commands[name]
  if (load === undefined) throw new UsageError(`unknown command "${name}" (see lobby --help)`)
  return (await load()).run(rest)
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
