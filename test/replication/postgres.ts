// A throwaway PostgreSQL cluster for the replication tests: its own data directory in a temp
// dir, on a free loopback port, password authentication over TCP, stopped and deleted after.
// PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` OS user.
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SQL } from 'bun'

export const SUPERUSER_PASSWORD = 'ho-Sup3r-secret-pw'

/** The directory of initdb/pg_ctl: PG_BIN, else the newest /usr/lib/postgresql/N/bin; null when none. */
export function findPostgresBin(): string | null {
  const candidates = [process.env.PG_BIN ?? '']
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`))
  }
  return candidates.find((dir) => dir !== '' && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) ?? null
}

/** Why the PostgreSQL tests cannot run here, or null when they can. */
export function postgresUnavailable(): string | null {
  if (findPostgresBin() === null) return 'PostgreSQL server binaries not found (install Debian\'s `postgresql` or set PG_BIN): the head-office replication tests are skipped'
  if (process.getuid?.() === 0 && Bun.spawnSync(['id', '-u', 'postgres']).exitCode !== 0) return 'running as root without a `postgres` OS user: the head-office replication tests are skipped'
  return null
}

function freePort(): number {
  const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = server.port
  server.stop(true)
  return port
}

export interface TestCluster {
  port: number
  /** The cluster's data directory (postmaster.pid holds the server's process ID). */
  dataDir: string
  /** postgres://user:password@127.0.0.1:port/db */
  url(user?: string, password?: string, database?: string): string
  /** A superuser client on the `headoffice` database. */
  admin(): SQL
  start(): void
  stop(): void
  destroy(): void
}

export function createCluster(): TestCluster {
  const bin = findPostgresBin()!
  const asRoot = process.getuid?.() === 0
  const dir = mkdtempSync(join(tmpdir(), 'lobby-pg-'))
  const data = join(dir, 'data')
  const pwfile = join(dir, 'pw')
  writeFileSync(pwfile, SUPERUSER_PASSWORD + '\n')
  if (asRoot) {
    const ids = Bun.spawnSync(['id', '-u', 'postgres']).stdout.toString().trim()
    const gid = Bun.spawnSync(['id', '-g', 'postgres']).stdout.toString().trim()
    chownSync(dir, Number(ids), Number(gid))
    chownSync(pwfile, Number(ids), Number(gid))
  }
  chmodSync(dir, 0o700)
  const exec = (argv: string[]) => {
    const full = asRoot ? ['runuser', '-u', 'postgres', '--', ...argv] : argv
    const result = Bun.spawnSync(full, { stdout: 'pipe', stderr: 'pipe', cwd: dir })
    if (result.exitCode !== 0) throw new Error(`${argv.join(' ')} failed: ${result.stderr.toString()}${result.stdout.toString()}`)
  }
  exec([join(bin, 'initdb'), '-D', data, '-U', 'postgres', '--pwfile', pwfile, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--locale=C'])
  const port = freePort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=16MB -c max_connections=40`
  const cluster: TestCluster = {
    port,
    dataDir: data,
    url: (user = 'postgres', password = SUPERUSER_PASSWORD, database = 'headoffice') =>
      `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    admin: () => new SQL(cluster.url(), { max: 2 }),
    start: () => exec([join(bin, 'pg_ctl'), '-D', data, '-l', join(dir, 'log'), '-o', options, '-w', '-t', '60', 'start']),
    stop: () => exec([join(bin, 'pg_ctl'), '-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']),
    destroy: () => {
      try {
        cluster.stop()
      } catch {}
      rmSync(dir, { recursive: true, force: true })
    },
  }
  cluster.start()
  exec([join(bin, 'createdb'), '-h', dir, '-p', String(port), '-U', 'postgres', 'headoffice'])
  return cluster
}
