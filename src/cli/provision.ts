import { existsSync, rmSync } from 'node:fs'
import { parseFlags, required, dbPath, printJson, UsageError } from './args'
import { openDatabase } from '../db/open'
import { migrateDatabase } from '../db/migrate'
import { applyProvisioning, parseProvisioningText, ProvisioningError } from '../provisioning/service'
import provisionExample from '../ops/provision-example.yaml' with { type: 'text' }

export const provisionHelp = `lobby provision --db PATH --file FILE
lobby provision --example > branch.yaml

Creates or updates what a provisioning file (JSON, or YAML for .yaml/.yml) describes, in one
transaction. Idempotent; entities absent from the file are left alone. Prints JSON:
{"applied": {...}, "secrets": [...]}; a secret appears only in the run that created it —
store it then, it is never shown again. See README "Provisioning file".
--example prints an annotated example file with every field.`

export async function provisionCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { db: { type: 'string' }, file: { type: 'string' }, example: { type: 'boolean' } })
  if (flags.help) {
    console.log(provisionHelp)
    return 0
  }
  if (flags.example) {
    if (flags.file !== undefined || flags.db !== undefined) throw new UsageError('--example takes no other flag')
    process.stdout.write(provisionExample)
    return 0
  }
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
    printJson(applyProvisioning(db, document, Date.now()))
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
