import { existsSync, rmSync } from 'node:fs'
import { provisionActor } from './actor'
import { parseFlags, required, dbPath, printJson, UsageError } from './args'
import { openDatabase } from '../db/open'
import { migrateDatabase } from '../root/migrate'
import { applyProvisioning, parseProvisioningText, ProvisioningError } from '../provisioning'
import { exportProvisioning } from '../provisioning'
import provisionExample from '../ops/provision-example.yaml' with { type: 'text' }

export const provisionHelp = `lobby provision --db PATH --file FILE
lobby provision --example > branch.yaml
lobby provision --export --db PATH [--workspace ID] [--format yaml|json] > branch.yaml

Creates or updates what a provisioning file (JSON, or YAML for .yaml/.yml) describes, in one
transaction. Idempotent; entities absent from the file are left alone. Prints JSON:
{"applied": {...}, "secrets": [...]}; a secret appears only in the run that created it —
store it then, it is never shown again. See README "Provisioning file".
--example prints an annotated example file with every field.
--export prints the database's configuration as a provisioning file, without a secret (YAML
unless --format json): applying it to the same database changes nothing, to an empty one it
makes the same structure with new secrets.`

export async function provisionCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, {
    db: { type: 'string' }, file: { type: 'string' }, example: { type: 'boolean' },
    export: { type: 'boolean' }, workspace: { type: 'string' }, format: { type: 'string' },
  })
  if (flags.help) {
    console.log(provisionHelp)
    return 0
  }
  if (flags.example) {
    if (flags.file !== undefined || flags.db !== undefined) throw new UsageError('--example takes no other flag')
    process.stdout.write(provisionExample)
    return 0
  }
  if (flags.export) return exportCommand(flags)
  if (flags.workspace !== undefined || flags.format !== undefined) throw new UsageError('--workspace and --format go with --export')
  const fileName = required(flags.file, 'file')
  const file = Bun.file(fileName)
  if (!(await file.exists())) throw new UsageError(`file not found: ${fileName}`)
  let document: unknown
  try {
    document = parseProvisioningText(await file.text(), fileName)
  } catch (error) {
    throw new UsageError(`${fileName}: not valid ${/\.ya?ml$/i.test(fileName) ? 'YAML' : 'JSON'}: ${String((error as Error).message).split('\n')[0]}`)
  }
  const path = dbPath(flags.db)
  // A run that fails leaves no database it created behind (the next run would take a
  // half-made, empty database for a provisioned one).
  const created = !existsSync(path)
  const db = openDatabase(path)
  let succeeded = false
  try {
    migrateDatabase(db.$client)
    printJson(applyProvisioning(db, document, Date.now(), undefined, provisionActor()))
    succeeded = true
  } catch (error) {
    if (error instanceof ProvisioningError) throw new UsageError(`${fileName}: ${error.message}`)
    throw error
  } finally {
    db.$client.close()
    if (!succeeded && created) for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true })
  }
  return 0
}

/** `--export`: reads an existing database (never creates one) and prints its provisioning file. */
function exportCommand(flags: { db?: string; file?: string; workspace?: string; format?: string }): number {
  if (flags.file !== undefined) throw new UsageError('--export prints a file: it takes no --file')
  const format = flags.format ?? 'yaml'
  if (format !== 'yaml' && format !== 'json') throw new UsageError('--format must be yaml or json')
  const path = dbPath(flags.db)
  if (!existsSync(path)) throw new UsageError(`no database at ${path}`)
  const db = openDatabase(path)
  try {
    migrateDatabase(db.$client)
    const file = exportProvisioning(db, flags.workspace ?? null)
    if (flags.workspace !== undefined && file.workspaces.length === 0) throw new UsageError(`no workspace "${flags.workspace}"`)
    const text = format === 'json' ? JSON.stringify(file, null, 2) : Bun.YAML.stringify(file, null, 2)
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`)
  } finally {
    db.$client.close()
  }
  return 0
}
