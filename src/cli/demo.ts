import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import demoYaml from '../provisioning/demo.yaml' with { type: 'text' }
import { parseFlags, integerFlag, UsageError } from './args'
import { openDatabase } from '../db/open'
import { migrateDatabase } from '../root/migrate'
import { applyProvisioning } from '../provisioning'
import { rotateKey } from '../structure'
import { randomIds, randomToken } from '../platform/ids'
import { localDate } from '../platform/time'
import { startServer, ServeError } from '../server'
import { waitForStopSignal } from './serve'
import { DeviceService } from '../devices'
import { PeopleService, type NewUser, type SetupLink } from '../people'
import { systemClock } from '../platform/clock'

export const demoHelp = `lobby demo [--port N] [--host H] [--db PATH]

Runs the server on ./data/demo.db provisioned from the built-in demo file (every entity kind),
rotates the demo keys and prints them with ready curl commands for each public endpoint.
Every start rotates the keys again, so only the last printed keys work.
--host (LOBBY_HOST) is 127.0.0.1 unless given: --host 192.168.1.20 (this machine's address on
the branch network) or 0.0.0.0 shows the demo screens on a hall TV.`

const DEMO_DIR = './data/demo'

/** Sample bodies the printed curl commands send, written next to the demo database. */
function writeSampleBodies(dir: string, now: number) {
  const today = localDate(now, 'Europe/Berlin')
  // Berlin's offset today (+01:00 in winter, +02:00 in summer), e.g. "GMT+01:00".
  const offset = new Intl.DateTimeFormat('en', { timeZone: 'Europe/Berlin', timeZoneName: 'longOffset' })
    .formatToParts(now).find((p) => p.type === 'timeZoneName')!.value.replace('GMT', '') || '+00:00'
  const at = (hhmm: string) => `${today}T${hhmm}:00${offset}`
  const schedule = {
    pushVersion: 1,
    widgetType: 'TODAYS_SCHEDULE',
    writeMode: 'REPLACE_SNAPSHOT',
    source: { eventId: 'demo-schedule', generatedAt: new Date(now).toISOString() },
    data: {
      schemaVersion: 2,
      title: "Today's schedule",
      locale: 'en-GB',
      timezone: 'Europe/Berlin',
      date: today,
      items: [
        { id: 'opening', title: 'Branch opens', startAt: at('09:00'), endAt: at('09:15'), location: 'Main hall', status: 'SCHEDULED' },
        { id: 'pension-advice', title: 'Pension advice drop-in', startAt: at('10:00'), endAt: at('12:00'), location: 'Room 2', host: 'A. Rahman', status: 'SCHEDULED' },
        { id: 'workshop', title: 'Online banking workshop', startAt: at('14:00'), endAt: at('15:30'), location: 'Annex', status: 'SCHEDULED' },
      ],
    },
  }
  const period = localDate(now, 'Europe/London').slice(0, 7)
  const [year, month] = period.split('-').map(Number) as [number, number]
  const days = Array.from({ length: new Date(Date.UTC(year, month, 0)).getUTCDate() }, (_, i) => {
    const date = `${period}-${String(i + 1).padStart(2, '0')}`
    const friday = new Date(`${date}T12:00:00Z`).getUTCDay() === 5
    return {
      date,
      fajr: '05:40', sunrise: '07:20', dhuhr: '12:05', asr: '14:10', maghrib: '16:15', isha: '17:50',
      iqamah: { fajr: '06:00', dhuhr: '12:30', asr: '14:30', maghrib: '16:20', isha: '18:15' },
      ...(friday ? { jumuah: [{ khutbah: '12:45', iqamah: '13:15' }] } : {}),
    }
  })
  const prayerMonth = { period, timezone: 'Europe/London', days }
  mkdirSync(dir, { recursive: true })
  Bun.write(join(dir, 'widget-schedule.json'), JSON.stringify(schedule, null, 2))
  Bun.write(join(dir, 'prayer-month.json'), JSON.stringify(prayerMonth, null, 2))
  Bun.write(join(dir, 'ticket.json'), JSON.stringify({ locationId: 'loc_hall', serviceId: 'svc_accounts', externalReference: 'demo' }))
  return { period }
}

export async function demoCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { port: { type: 'string' }, host: { type: 'string' }, db: { type: 'string' } })
  if (flags.help) {
    console.log(demoHelp)
    return 0
  }
  const port = integerFlag(flags.port ?? process.env.LOBBY_PORT, 'port', 0, 65535) ?? 8080
  const dbPath = flags.db ?? './data/demo.db'
  const host = flags.host ?? process.env.LOBBY_HOST ?? '127.0.0.1'

  const db = openDatabase(dbPath)
  migrateDatabase(db.$client)
  const now = Date.now()
  applyProvisioning(db, Bun.YAML.parse(demoYaml), now)
  const keys = {
    workspace: rotateKey(db, randomIds, 'workspace', 'ws_demo', 'cms', 0, now).secret,
    display: rotateKey(db, randomIds, 'display', 'ws_demo', 'lobby-screens', 0, now).secret,
    kiosk: rotateKey(db, randomIds, 'queue', 'qu_main', 'kiosk', 0, now).secret,
    operator: rotateKey(db, randomIds, 'queue', 'qu_main', 'operator', 0, now).secret,
    webhook: rotateKey(db, randomIds, 'webhook', 'whk_crm', 'whk_crm', 0, now).secret,
  }
  // A pairing code for Counter 1's desk page: open its pair path, and this browser is the desk.
  const deskPairing = new DeviceService(db, randomIds).createPairingCode({ role: 'desk', counterId: 'cnt_1', ttlSeconds: 3600 }, now)
  // And one for a kiosk in the main hall: customers take tickets at /kiosk.
  const kioskPairing = new DeviceService(db, randomIds).createPairingCode({ role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_hall', ttlSeconds: 3600 }, now)
  // And one for the reports page (a browser is one device: pair it in another browser or profile).
  const reportsPairing = new DeviceService(db, randomIds).createPairingCode({ role: 'reports', queueUnitId: 'qu_main', ttlSeconds: 3600 }, now)
  // Staff (contract §16): an admin, a manager and a clerk of the main unit, each with a setup
  // link (made anew at every start, like the keys: a reset ends their sessions and passwords).
  const people = new PeopleService({ db, clock: systemClock, ids: randomIds })
  const staff: NewUser[] = [
    { username: 'admin', role: 'admin', displayName: 'Demo Admin' },
    { username: 'manager', role: 'manager', displayName: 'Demo Manager', queueUnits: ['qu_main'] },
    { username: 'clerk', role: 'clerk', displayName: 'Demo Clerk', queueUnits: ['qu_main'] },
  ]
  const known = new Set(people.listUsers().map((u) => u.username))
  const setupLinks: (SetupLink & { role: string })[] = staff.map((user) => ({
    ...(known.has(user.username) ? people.resetUser(user.username, now) : people.addUser(user, now)),
    role: user.role,
  }))
  db.$client.close()

  const dir = resolve(DEMO_DIR)
  const { period } = writeSampleBodies(dir, now)
  let server
  try {
    // The demo prints its own admin's link below (with the manager's and the clerk's): not the first-start block too.
    server = await startServer({ port, host, dbPath, durability: 'full', log: () => {}, announce: () => {} })
  } catch (error) {
    if (error instanceof ServeError) throw new UsageError(error.message)
    throw error
  }
  const base = server.url

  // Tickets a previous demo run left at the counters are served to completion, so the
  // printed call-next finds its counter free (one open ticket per counter).
  const operator = { authorization: `Bearer ${keys.operator}` }
  const overview = (await (await fetch(`${base}/api/operator/v1/queue`, { headers: operator })).json()) as {
    data?: { counters: { ticket: { id: string; status: string } | null }[] }
  }
  for (const counter of overview.data?.counters ?? []) {
    if (counter.ticket === null) continue
    if (counter.ticket.status === 'CALLED') await fetch(`${base}/api/operator/v1/tickets/${counter.ticket.id}/start`, { method: 'POST', headers: operator })
    await fetch(`${base}/api/operator/v1/tickets/${counter.ticket.id}/complete`, { method: 'POST', headers: operator })
  }

  // A sample ticket, so the ticket-read command has an ID to read.
  const issued = await fetch(`${base}/api/public/v1/queue/tickets`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${keys.kiosk}`,
      'content-type': 'application/json',
      'x-request-timestamp': new Date().toISOString(),
      'x-request-nonce': randomToken(16),
      'idempotency-key': randomToken(16),
    },
    body: JSON.stringify({ locationId: 'loc_hall', serviceId: 'svc_accounts', externalReference: 'demo-sample' }),
  })
  const sample = issued.ok ? ((await issued.json()) as { data: { id: string; ticketNumber: string } }).data : undefined

  const fresh = `-H "X-Request-Timestamp: $(date -u +%Y-%m-%dT%H:%M:%SZ)" -H "X-Request-Nonce: $(openssl rand -hex 16)" -H "Idempotency-Key: $(openssl rand -hex 16)"`
  const lines = [
    '',
    `Lobby demo on ${base}  (database ${dbPath}; Swagger UI ${base}/swagger)`,
    ...(host === '0.0.0.0' || host === '::'
      ? [`Listening on every network interface (${host}): from a TV, use this machine's address in place of ${new URL(base).hostname}.`]
      : []),
    '',
    'Keys (rotated at every demo start; only these work now):',
    `  workspace API key (ws_demo/cms):       ${keys.workspace}`,
    `  queue key (qu_main/kiosk, loc_hall):   ${keys.kiosk}`,
    `  queue key (qu_main/operator):          ${keys.operator}`,
    `  display token (ws_demo/lobby-screens): ${keys.display}`,
    `  webhook signing secret (whk_crm):      ${keys.webhook}`,
    '',
    '# 1. List allowed services',
    `curl -s ${base}/api/public/v1/queue/services -H "Authorization: Bearer ${keys.kiosk}"`,
    '',
    '# 2. Issue a ticket (fresh timestamp, nonce and Idempotency-Key on every paste)',
    `curl -s -X POST ${base}/api/public/v1/queue/tickets -H "Authorization: Bearer ${keys.kiosk}" -H "Content-Type: application/json" ${fresh} --data @${join(dir, 'ticket.json')}`,
    '',
    '# 3. Read one ticket',
    sample
      ? `curl -s ${base}/api/public/v1/queue/tickets/${sample.id} -H "Authorization: Bearer ${keys.kiosk}"    # ${sample.ticketNumber}, issued by the demo`
      : `# (the sample ticket could not be issued: HTTP ${issued.status}; issue one with command 2 and use its id)`,
    '',
    '# 4. Live state',
    `curl -s ${base}/api/public/v1/queue/state -H "Authorization: Bearer ${keys.kiosk}"`,
    '',
    `# 5. Push this month's prayer schedule (${period})`,
    `curl -s -X POST ${base}/api/public/v1/prayer-schedules/sources/psrc_centralmosque-0001-london/months -H "Authorization: Bearer ${keys.workspace}" -H "Content-Type: application/json" -H "Idempotency-Key: $(openssl rand -hex 16)" --data-binary @${join(dir, 'prayer-month.json')}`,
    '',
    "# 6. Push today's schedule widget",
    `curl -s -X POST ${base}/api/public/v1/widgets/wdg_schedule_lobby/data/push -H "Authorization: Bearer ${keys.workspace}" -H "Content-Type: application/json" -H "Idempotency-Key: $(openssl rand -hex 16)" --data-binary @${join(dir, 'widget-schedule.json')}`,
    '',
    '# 7. Operator: open Counter 1, then call the next ticket there (then see nowServing in 4.); call-next at a closed counter is 409 COUNTER_CLOSED',
    `curl -s -X POST ${base}/api/operator/v1/counters/cnt_1/open -H "Authorization: Bearer ${keys.operator}"`,
    `curl -s -X POST ${base}/api/operator/v1/counters/cnt_1/call-next -H "Authorization: Bearer ${keys.operator}"`,
    '',
    '# 8. Display feeds (what screens read; the live websocket is /api/display/v1/live?token=…)',
    `curl -s "${base}/api/display/v1/queue-units/qu_main/state?token=${keys.display}"`,
    `curl -s "${base}/api/display/v1/widgets/wdg_schedule_lobby?token=${keys.display}"`,
    `curl -s "${base}/api/display/v1/prayer-schedules/sources/psrc_centralmosque-0001-london/today?token=${keys.display}"`,
    '',
    '# Screens: open these in a browser (or point a TV at them)',
    `#   queue board:   ${base}/screens/queue/qu_main?token=${keys.display}&location=loc_hall`,
    `#   schedule:      ${base}/screens/widgets/wdg_schedule_lobby?token=${keys.display}`,
    `#   prayer times:  ${base}/screens/prayer/psrc_centralmosque-0001-london?token=${keys.display}&lang=ar`,
    '',
    '# Counter desk: open this once in a browser to pair it as Counter 1 (code ' + deskPairing.code + ', single use, valid 1 hour);',
    '# it then opens /desk. More codes: lobby devices pair --db ' + dbPath + ' --role desk --counter cnt_2',
    `#   ${base}${deskPairing.pairPath}`,
    '# Reports: the same in another browser (or a private window) pairs it as the unit\'s reports page (/reports):',
    `#   ${base}${reportsPairing.pairPath}`,
    '',
    '# Kiosk: open this once in another browser to pair it as the main hall\'s kiosk (code ' + kioskPairing.code + ', valid 1 hour);',
    '# it then opens /kiosk (add ?printing=on to print each ticket, &paper=58 for 58 mm rolls).',
    `#   ${base}${kioskPairing.pairPath}`,
    '',
    '# Join from a phone (no pairing): the main hall\'s join page, and its A4 poster with the page\'s QR code',
    '# (a phone reaches it when the demo runs with --host set to this machine\'s LAN address).',
    `#   join page:     ${base}/join/loc_hall`,
    `#   join poster:   ${base}/join/loc_hall/poster`,
    '# Appointments (contract §21): customers book Loans at the main hall on their phone (no pairing), then check in',
    '# at the kiosk with the booking code ("I have an appointment"):',
    `#   ${base}/book/loc_hall`,
    '',
    '# Staff: each link sets that person\'s password (and the clerk\'s 6-digit PIN) once, within 24 hours;',
    `# then sign in at ${base}/login. More: lobby users add --db ${dbPath} --username NAME --role admin|manager|clerk`,
    ...setupLinks.map((link) => `#   ${link.role.padEnd(8)} ${link.username.padEnd(8)} ${base}${link.setupPath}`),
    '',
    '# Live floor (contract §22): the manager (or the admin) signs in and lands on',
    `#   ${base}/manage   (Arabic: ${base}/manage?lang=ar)`,
    '# Administration console (contract §17): the admin or the manager runs the branch from',
    `#   ${base}/admin   (the start page ${base}/ links every page the signed-in person may use)`,
    '',
    'Stop with Ctrl-C.',
    '',
  ]
  process.stdout.write(lines.join('\n'))
  await waitForStopSignal(server)
  return 0
}
