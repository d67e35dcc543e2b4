/**
 * Part three's data in a bench database (issue 37: "the same still holds after the other
 * Part-three issues land: bench with people, console and appointments enabled and data in
 * each"): appointments enabled on the services that take bookings, 10,000 bookings over 30 days,
 * staff of every role added with the CLI (each `users add` also writes its audit entry, as the
 * console's changes do). Used by bench/run.ts (its main database) and bench/appointments.ts.
 */
import { Database } from 'bun:sqlite'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const BENCH = import.meta.dir
export const DAYS = 30
export const SLOT_MINUTES = 15
/** The service and location pairs that take bookings (bench/provision.json's offers of the three services). */
export const OFFERS = [['svc_accounts', 'loc_hall'], ['svc_accounts', 'loc_annex'], ['svc_loans', 'loc_hall'], ['svc_cards', 'loc_hall']] as const
const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ'
const UNIT = 'qu_bench'

/** bench/provision.json with appointments enabled on the services that take bookings here. */
export function provisionWithAppointments(file: string): void {
  const spec = JSON.parse(readFileSync(join(BENCH, 'provision.json'), 'utf8'))
  for (const service of spec.workspaces[0].queueUnits[0].services) {
    if (OFFERS.some(([id]) => id === service.id)) service.appointments = { enabled: true, slotMinutes: SLOT_MINUTES, bookAheadDays: 60, retainDays: 90 }
  }
  writeFileSync(file, JSON.stringify(spec))
}

const berlinDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' })

/**
 * 10,000 bookings by SQL, one per slot of each offer, 15-minute slots of the day (the bench
 * locations have no hours: open all day) from 15 days ago to 15 days ahead. Statuses as the
 * service leaves them: past slots checked in (a ticket id; retention may have deleted the
 * ticket), missed or cancelled; future ones booked or cancelled. The dedupe key is held by
 * BOOKED and CHECKED_IN rows only, as the service clears it on cancel and miss.
 */
export function insertBookings(dbFile: string, count: number): void {
  const db = new Database(dbFile)
  const unit = UNIT
  const now = Date.now()
  const firstSlot = Math.floor(now / 86_400_000) * 86_400_000 - 15 * 86_400_000
  const slots = Math.ceil(count / OFFERS.length)
  // Spread evenly over all the slots of the 30 days, on the 15-minute grid.
  const gridSlots = (DAYS * 24 * 60) / SLOT_MINUTES
  const slotStart = (k: number) => firstSlot + Math.floor((k * gridSlots) / slots) * SLOT_MINUTES * 60_000
  const insert = db.query(`INSERT INTO appointments (id, queue_unit_id, location_id, service_id, start_at, end_at, local_date, code, status, name, phone, email,
    dedupe_key, ticket_id, created_by, created_at, updated_at, checked_in_at, cancelled_at, missed_at, erased_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,NULL)`)
  const codes = new Set<string>()
  const code = () => {
    for (;;) {
      const c = Array.from({ length: 8 }, () => CODE_ALPHABET[Math.floor(Math.random() * CODE_ALPHABET.length)]).join('')
      if (!codes.has(c)) { codes.add(c); return c }
    }
  }
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const [serviceId, locationId] = OFFERS[i % OFFERS.length]!
      const startAt = slotStart(Math.floor(i / OFFERS.length))
      const endAt = startAt + SLOT_MINUTES * 60_000
      const createdAt = startAt - 3 * 86_400_000
      const past = endAt < now
      const status = past ? (['CHECKED_IN', 'CHECKED_IN', 'CHECKED_IN', 'MISSED', 'CANCELLED'] as const)[i % 5]! : (['BOOKED', 'BOOKED', 'BOOKED', 'CANCELLED'] as const)[i % 4]!
      const name = `Bench Customer ${i}`
      const phone = i % 2 === 0 ? `+4930${String(1_000_000 + i)}` : null
      const email = i % 2 === 1 ? `customer${i}@example.org` : null
      const holds = status === 'BOOKED' || status === 'CHECKED_IN'
      const dedupe = holds ? new Bun.CryptoHasher('sha256').update(JSON.stringify([serviceId, locationId, startAt, name.toLowerCase(), phone ?? '', email ?? ''])).digest('hex') : null
      const updatedAt = status === 'BOOKED' ? createdAt : Math.min(now, startAt + 20 * 60_000)
      insert.run(`apt_bench${String(i).padStart(6, '0')}`, unit, locationId, serviceId, startAt, endAt, berlinDate.format(startAt), code(), status, name, phone, email,
        dedupe, status === 'CHECKED_IN' ? `tkt_bench${i}` : null, 'customer:bench', createdAt, updatedAt,
        status === 'CHECKED_IN' ? startAt - 5 * 60_000 : null, status === 'CANCELLED' ? createdAt + 3_600_000 : null, status === 'MISSED' ? updatedAt : null)
    }
  })()
  db.close()
}

/** The staff a branch has: an admin, 3 managers and 12 clerks of the bench unit, added with the CLI. */
export const STAFF: readonly { username: string; role: 'admin' | 'manager' | 'clerk'; name: string }[] = [
  { username: 'bench.admin', role: 'admin', name: 'Bench Administrator' },
  ...[1, 2, 3].map((i) => ({ username: `bench.manager${i}`, role: 'manager' as const, name: `Bench Manager ${i}` })),
  ...Array.from({ length: 12 }, (_, i) => ({ username: `bench.clerk${i + 1}`, role: 'clerk' as const, name: `Bench Clerk ${i + 1}` })),
]

/**
 * Gives a database provisioned from bench/provision.json Part three's data: appointments enabled
 * (the provisioning file applied again with them, as an operator would), `bookings` bookings, and
 * the staff above. `run` runs a command and returns its output (throws on failure).
 */
export function addPartThreeData(binary: string, db: string, tmp: string, bookings: number, run: (argv: string[]) => string): void {
  const spec = join(tmp, 'provision-part-three.json')
  provisionWithAppointments(spec)
  run([binary, 'provision', '--db', db, '--file', spec])
  for (const person of STAFF) {
    run([binary, 'users', 'add', '--db', db, '--username', person.username, '--role', person.role, '--name', person.name, ...(person.role === 'admin' ? [] : ['--queue-units', UNIT])])
  }
  insertBookings(db, bookings)
}
