/**
 * `BENCH_ONLY=replication bun run bench` (or `bun bench/replication.ts`): ticket issue with
 * head-office replication on against off (contract §14: the branch never waits for head
 * office, so the API's speed must not depend on it).
 *
 * Starts a throwaway PostgreSQL (test/replication/postgres.ts: PostgreSQL's binaries, a temp
 * cluster on loopback), provisions two fresh databases from bench/provision.json, serves one
 * with `--replicate-to` and one without (both pinned to core 1; wrk, this script and PostgreSQL
 * on core 0, as a head office is another machine), and drives ticket issue with wrk
 * (bench/lua/issue.lua) in alternating rounds so both see the same load. Then waits for the
 * replicating branch to drain its backlog and checks head office holds every ticket it issued.
 * Writes its section of bench/RESULTS.md (between the `replication` markers), leaving the rest.
 */
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { currentSection, writeSection } from './sections'
import { tmpdir, loadavg } from 'node:os'
import { join } from 'node:path'
import { createCluster, postgresUnavailable } from '../test/replication/postgres'
import { run, rps, runSalt, serveLobby, wrk, type WrkRun } from './processes'

const ROOT = join(import.meta.dir, '..')
const BENCH = import.meta.dir
const RESULTS = process.env.BENCH_OUT ?? join(BENCH, 'RESULTS.md')
const env = (name: string, fallback: number) => (process.env[name] === undefined ? fallback : Number(process.env[name]))
const ROUNDS = env('BENCH_RUNS', 3)
const SECONDS = env('BENCH_DURATION', 10)
const QUEUE = '/api/public/v1/queue'
const ISSUE_BODY = JSON.stringify({ locationId: 'loc_hall', serviceId: 'svc_accounts', externalReference: 'bench' })
export const START = '<!-- replication:start -->'
export const END = '<!-- replication:end -->'

const say = (line: string) => process.stderr.write(`[bench:replication] ${line}\n`)
const load = () => loadavg()[0]!




function issue(url: string, secret: string, seconds: number): WrkRun {
  return wrk('issue.lua', `${url}${QUEUE}/tickets`, [runSalt(), secret, ISSUE_BODY], seconds)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function metric(url: string, name: string): Promise<number | null> {
  const text = await (await fetch(`${url}/metrics`)).text()
  const line = text.split('\n').find((l) => l.startsWith(`${name} `))
  return line === undefined ? null : Number(line.split(' ')[1])
}

export async function replicationBench(): Promise<void> {
  const unavailable = postgresUnavailable()
  if (unavailable !== null) {
    say(unavailable)
    return
  }
  if (!existsSync(join(ROOT, 'dist', 'lobby'))) throw new Error('dist/lobby is missing (bun run build)')
  const tmp = mkdtempSync(join(tmpdir(), 'lobby-bench-replication-'))
  const cluster = createCluster()
  const loadStart = load()
  try {
    // PostgreSQL on the client core: at a branch, head office is another machine.
    const postmaster = readFileSync(join(cluster.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]!.trim()
    run(['taskset', '-a', '-p', '-c', '0', postmaster])
    const binary = join(tmp, 'lobby')
    copyFileSync(join(ROOT, 'dist', 'lobby'), binary)
    chmodSync(binary, 0o755)
    const spec = join(BENCH, 'provision.json')
    const secretOf = (db: string) => {
      const out = JSON.parse(run([binary, 'provision', '--db', db, '--file', spec])) as { secrets: { name: string; secret: string }[] }
      return out.secrets.find((s) => s.name === 'bench-issue')!.secret
    }
    const offDb = join(tmp, 'off.db')
    const onDb = join(tmp, 'on.db')
    const secrets = { off: secretOf(offDb), on: secretOf(onDb) }
    const servers = { off: await serveLobby(binary, offDb, []), on: await serveLobby(binary, onDb, ['--replicate-to', cluster.url()]) }
    const runs: { off: WrkRun[]; on: WrkRun[] } = { off: [], on: [] }
    const loadIssue = load()
    issue(servers.off.url, secrets.off, 2)
    issue(servers.on.url, secrets.on, 2)
    let maxPending = 0
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)
      for (const which of order) {
        runs[which].push(issue(servers[which].url, secrets[which], SECONDS))
        if (which === 'on') maxPending = Math.max(maxPending, (await metric(servers.on.url, 'lobby_replication_pending')) ?? 0)
        say(`issue, replication ${which}, round ${round + 1}: ${rps(runs[which].at(-1)!).toFixed(0)} req/s`)
      }
    }
    const loadEnd = load()
    // The backlog drains once the load stops; head office then holds every ticket issued.
    const drainStart = performance.now()
    while ((await metric(servers.on.url, 'lobby_replication_pending')) !== 0) {
      if (performance.now() - drainStart > 300_000) throw new Error('replication did not drain within 5 minutes')
      await Bun.sleep(200)
    }
    const drainSeconds = (performance.now() - drainStart) / 1000
    const sql = cluster.admin()
    const [{ n: atHeadOffice }] = await sql`SELECT count(*)::int AS n FROM lobby.tickets`
    await sql.close()
    const { Database } = await import('bun:sqlite')
    const branch = new Database(onDb, { readonly: true })
    const issued = branch.query<{ n: number }, []>('SELECT count(*) AS n FROM tickets').get()!.n
    branch.close()
    await servers.off.stop()
    await servers.on.stop()
    if (atHeadOffice !== issued) throw new Error(`head office has ${atHeadOffice} tickets, the branch issued ${issued}`)
    const ratios = runs.on.map((r, i) => rps(r) / rps(runs.off[i]!))

    const f1 = (n: number) => n.toFixed(1)
    const section = `${START}
## Head office (issue 25): ticket issue with replication on and off

Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`BENCH_ONLY=replication bun run bench\` (bench/replication.ts) on
the shared machine: 1-minute load average ${loadStart.toFixed(2)} at the start, ${loadIssue.toFixed(2)} when the issue runs began,
${loadEnd.toFixed(2)} at their end (2 cores; other agents were working), so absolute figures are noisy: compare within a round.

Two fresh databases provisioned from bench/provision.json, one served with \`--replicate-to\` a local PostgreSQL
(a throwaway cluster, pinned with wrk to core 0; the servers on core 1), one without. wrk 2 threads, 16 connections,
${SECONDS} s per run, ${ROUNDS} rounds alternating which goes first, after a 2 s warm-up each.

| replication | req/s per round | median req/s | median p50 ms | median p99 ms |
|---|---|---|---|---|
| off | ${runs.off.map((r) => rps(r).toFixed(0)).join(', ')} | ${median(runs.off.map(rps)).toFixed(0)} | ${f1(median(runs.off.map((r) => r.p50Us)) / 1000)} | ${f1(median(runs.off.map((r) => r.p99Us)) / 1000)} |
| on | ${runs.on.map((r) => rps(r).toFixed(0)).join(', ')} | ${median(runs.on.map(rps)).toFixed(0)} | ${f1(median(runs.on.map((r) => r.p50Us)) / 1000)} | ${f1(median(runs.on.map((r) => r.p99Us)) / 1000)} |

Per-round ratio on ÷ off (req/s): ${ratios.map((r) => r.toFixed(2)).join(', ')}; **median ${median(ratios).toFixed(2)}**.
Status errors: off ${runs.off.reduce((n, r) => n + r.statusErrors, 0)}, on ${runs.on.reduce((n, r) => n + r.statusErrors, 0)}.
Largest backlog seen right after a run (\`lobby_replication_pending\`): ${maxPending.toLocaleString('en')} events; after the last run
the backlog drained in ${f1(drainSeconds)} s, and head office held all ${issued.toLocaleString('en')} tickets the branch issued.
${END}`
    writeSection(SECTION, section)
    say(`wrote the replication section of ${RESULTS}; median ratio ${median(ratios).toFixed(2)}`)
  } finally {
    cluster.destroy()
    rmSync(tmp, { recursive: true, force: true })
  }
}

const SECTION = { file: RESULTS, start: START, end: END }

/** The replication section now in RESULTS.md, for run.ts to keep when it writes the file again. */
export function currentReplicationSection(): string {
  return currentSection(SECTION)
}

if (import.meta.main) await replicationBench()
