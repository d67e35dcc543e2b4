#!/usr/bin/env bun
/**
 * A quick look at the three hot reads (state, services, ticket read) against a bare Bun.serve
 * answering the state read's bytes, as bench/run.ts measures them, for comparing builds while
 * optimising (issue 37): every binary given is provisioned from bench/provision.json, served on
 * core 1 beside the bare server, and driven by wrk on core 0 in interleaved rounds (each round
 * starts one scenario later). Prints each scenario's median ratio to bare (the median of the
 * per-round ratios) and the load average seen. Not the report: bench/run.ts writes RESULTS.md.
 *
 *   bun bench/hot-reads.ts [label=binary ...]     (default: now=dist/lobby)
 *   HOT_SECONDS=5 HOT_ROUNDS=5 HOT_READS=state,services,ticket
 */
import { closeSync, copyFileSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './processes'

const ROOT = join(import.meta.dir, '..')
const SECONDS = Number(process.env.HOT_SECONDS ?? 5)
const ROUNDS = Number(process.env.HOT_ROUNDS ?? 5)
const READS = new Set((process.env.HOT_READS ?? 'state,services,ticket').split(','))
const QUEUE = '/api/public/v1/queue'
const ISSUE_BODY = JSON.stringify({ locationId: 'loc_hall', serviceId: 'svc_accounts', externalReference: 'bench' })

const binaries = (process.argv.slice(2).length > 0 ? process.argv.slice(2) : [`now=${join(ROOT, 'dist', 'lobby')}`]).map((arg) => {
  const eq = arg.indexOf('=')
  return eq < 0 ? { label: arg, path: arg } : { label: arg.slice(0, eq), path: arg.slice(eq + 1) }
})

const procs: ReturnType<typeof Bun.spawn>[] = []
const tmp = mkdtempSync(join(tmpdir(), 'lobby-hot-'))

async function start(argv: string[], port: number, ready: string): Promise<{ url: string; pid: number }> {
  const fd = openSync(join(tmp, `${port}.log`), 'a')
  const proc = Bun.spawn(['taskset', '-c', '1', ...argv], { cwd: ROOT, stdout: fd, stderr: fd, stdin: 'ignore' })
  closeSync(fd)
  procs.push(proc)
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 500; i++) {
    try {
      if ((await fetch(url + ready)).ok) return { url, pid: proc.pid }
    } catch {}
    await Bun.sleep(20)
  }
  throw new Error(`${argv.join(' ')} did not answer`)
}

const load = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0])
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

function wrk(url: string, secret: string): { rps: number; requests: number } {
  const out = Bun.spawnSync(['taskset', '-c', '0', 'wrk', '-t2', '-c16', `-d${SECONDS}s`, '--timeout', '10s', '-s', join(ROOT, 'bench/lua/get.lua'), url, '--', secret], { stdout: 'pipe', stderr: 'pipe' })
  const line = out.stdout.toString().split('\n').find((l) => l.startsWith('BENCH_JSON '))
  if (line === undefined) throw new Error(`wrk: ${out.stdout.toString()} ${out.stderr.toString()}`)
  const r = JSON.parse(line.slice(11)) as { requests: number; durationUs: number; statusErrors: number }
  if (r.statusErrors > 0) throw new Error(`${url}: ${r.statusErrors} non-2xx answers`)
  return { rps: r.requests / (r.durationUs / 1e6), requests: r.requests }
}

/** CPU seconds (user + system) the process has used so far: per request, steadier than req/s on a shared machine. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

interface Scenario { name: string; pid: number; url: string; secret: string; rps: number[]; cpuUs: number[]; loads: number[] }

try {
  const scenarios: Scenario[] = []
  let stateBytes: string | null = null
  for (const binary of binaries) {
    const db = join(tmp, `${binary.label}.db`)
    const printed = JSON.parse(Bun.spawnSync([binary.path, 'provision', '--db', db, '--file', join(ROOT, 'bench/provision.json')], { stdout: 'pipe' }).stdout.toString()) as { secrets: { name: string; secret: string }[] }
    const secret = (name: string) => printed.secrets.find((s) => s.name === name)!.secret
    const port = freePort()
    const { url, pid } = await start([binary.path, 'serve', '--port', String(port), '--host', '127.0.0.1', '--db', db], port, '/health')
    const issued = await fetch(`${url}${QUEUE}/tickets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret('bench-issue')}`, 'content-type': 'application/json', 'x-request-timestamp': new Date().toISOString().slice(0, 19) + 'Z', 'x-request-nonce': `hot.${Date.now()}`, 'idempotency-key': `hot.${Date.now()}` },
      body: ISSUE_BODY,
    })
    const ticket = (await issued.json()) as { data: { id: string } }
    stateBytes ??= await (await fetch(`${url}${QUEUE}/state`, { headers: { authorization: `Bearer ${secret('bench-state')}` } })).text()
    if (READS.has('state')) scenarios.push({ name: `${binary.label} state`, pid, url: `${url}${QUEUE}/state`, secret: secret('bench-state'), rps: [], cpuUs: [], loads: [] })
    if (READS.has('services')) scenarios.push({ name: `${binary.label} services`, pid, url: `${url}${QUEUE}/services`, secret: secret('bench-services'), rps: [], cpuUs: [], loads: [] })
    if (READS.has('ticket')) scenarios.push({ name: `${binary.label} ticket`, pid, url: `${url}${QUEUE}/tickets/${ticket.data.id}`, secret: secret('bench-ticket-read'), rps: [], cpuUs: [], loads: [] })
  }
  const stateFile = join(tmp, 'state.json')
  writeFileSync(stateFile, stateBytes!)
  const barePort = freePort()
  const bareServer = await start(['bun', join(ROOT, 'bench/servers/bare-read.ts'), String(barePort), stateFile], barePort, '/')
  const bare: Scenario = { name: 'bare', pid: bareServer.pid, url: bareServer.url + '/', secret: 'none', rps: [], cpuUs: [], loads: [] }
  const all = [bare, ...scenarios]
  for (const s of all) wrk(s.url, s.secret) // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    const first = round % all.length
    for (const s of [...all.slice(first), ...all.slice(0, first)]) {
      s.loads.push(load())
      const cpu0 = cpuSeconds(s.pid)
      const r = wrk(s.url, s.secret)
      s.rps.push(r.rps)
      s.cpuUs.push(((cpuSeconds(s.pid) - cpu0) * 1e6) / r.requests)
    }
    process.stderr.write(`round ${round + 1}: ${all.map((s) => `${s.name} ${s.rps.at(-1)!.toFixed(0)}`).join(', ')}\n`)
  }
  console.log(`${ROUNDS} rounds of ${SECONDS} s, load ${median(bare.loads).toFixed(2)} (median; ${Math.min(...bare.loads).toFixed(2)}–${Math.max(...bare.loads).toFixed(2)})`)
  console.log(`bare ${median(bare.rps).toFixed(0)} req/s, ${median(bare.cpuUs).toFixed(1)} µs CPU per request`)
  for (const s of scenarios) {
    const ratios = s.rps.map((r, i) => r / bare.rps[i]!)
    const cpuRatios = s.cpuUs.map((c, i) => bare.cpuUs[i]! / c)
    console.log(`${s.name.padEnd(20)} ${median(s.rps).toFixed(0).padStart(6)} req/s  ratio ${median(ratios).toFixed(2)} (${ratios.map((r) => r.toFixed(2)).join(' ')})  ` +
      `${median(s.cpuUs).toFixed(1)} µs CPU/req, bare ÷ this ${median(cpuRatios).toFixed(2)} (${cpuRatios.map((r) => r.toFixed(2)).join(' ')})`)
  }
} finally {
  for (const p of procs) p.kill('SIGTERM')
  await Promise.all(procs.map((p) => p.exited))
  rmSync(tmp, { recursive: true, force: true })
}
