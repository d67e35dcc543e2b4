import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto'
import { join } from 'node:path'
import { SMTPServer } from 'smtp-server'
import { tempDir } from '../support/cli'

/*
 * Real protocol servers on 127.0.0.1 for the notification tests (contract §25): an SMTP server
 * (the `smtp-server` library), an HTTP SMS gateway (Bun.serve) that can refuse attempts, and a
 * push service stand-in over HTTPS that checks the VAPID JWT (RFC 8292) and decrypts the
 * aes128gcm payload (RFC 8291) with the subscription's private key. The decryption is written
 * here, in the test, from the RFCs: Lobby's side uses the `web-push` library.
 */

export interface ReceivedMail { from: string; to: string[]; raw: string }

/** An SMTP server without TLS or authentication that keeps every message it accepts. */
export async function smtpServer() {
  const mails: ReceivedMail[] = []
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        mails.push({ from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.server.address() as { port: number }).port
  return { mails, port, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

export interface GatewayRequest { url: string; method: string; headers: Headers; body: string; accepted: boolean }

/** An HTTP SMS gateway; `refuse` says how many of the next attempts answer 503. */
export function smsGateway(options: { refuse?: number } = {}) {
  const requests: GatewayRequest[] = []
  let refuse = options.refuse ?? 0
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const body = await req.text()
      const accepted = refuse <= 0
      if (!accepted) refuse -= 1
      requests.push({ url: req.url, method: req.method, headers: req.headers, body, accepted })
      return accepted ? Response.json({ status: 'queued' }, { status: 201 }) : new Response('busy', { status: 503 })
    },
  })
  return { requests, url: `http://127.0.0.1:${server.port}`, refuse: (n: number) => (refuse = n), stop: () => server.stop(true) }
}

const b64url = (b: Buffer | Uint8Array) => Buffer.from(b).toString('base64url')

/** A browser's push subscription: a P-256 key pair and a 16-byte auth secret. */
export function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const auth = randomBytes(16)
  return {
    subscription: { endpoint, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) } },
    /** RFC 8291 §3.4 and RFC 8188: the plaintext of one aes128gcm message for this subscription. */
    decrypt(body: Uint8Array): string {
      const buf = Buffer.from(body)
      const salt = buf.subarray(0, 16)
      const idlen = buf[20]!
      const asPublic = buf.subarray(21, 21 + idlen)
      const ciphertext = buf.subarray(21 + idlen)
      const secret = ecdh.computeSecret(asPublic)
      const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), asPublic])
      const ikm = Buffer.from(hkdfSync('sha256', secret, auth, keyInfo, 32))
      const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16))
      const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12))
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
      decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16))
      const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()])
      // The last record ends with the delimiter 0x02 and zero padding.
      let end = padded.length - 1
      while (end >= 0 && padded[end] === 0) end -= 1
      if (padded[end] !== 2) throw new Error('no last-record delimiter')
      return padded.subarray(0, end).toString('utf8')
    },
  }
}

/** A self-signed certificate for 127.0.0.1 (openssl), made once per run. */
let certificate: { cert: string; key: string } | undefined
export async function selfSigned(): Promise<{ cert: string; key: string }> {
  if (certificate !== undefined) return certificate
  const dir = tempDir()
  const key = join(dir, 'key.pem')
  const cert = join(dir, 'cert.pem')
  const made = Bun.spawnSync(['openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdout: 'ignore', stderr: 'pipe' })
  if (made.exitCode !== 0) throw new Error(`openssl: ${made.stderr.toString()}`)
  certificate = { cert: await Bun.file(cert).text(), key: await Bun.file(key).text() }
  return certificate
}

export interface PushReceived { path: string; ttl: string | null; encoding: string | null; jwt: { aud: string; exp: number; sub: string }; vapidKey: string; body: Uint8Array }

/**
 * A push service over HTTPS on 127.0.0.1: refuses a request whose VAPID JWT does not verify
 * against the `k` key it carries (401), answers 410 for paths marked gone, else 201.
 */
export async function pushService() {
  const { cert, key } = await selfSigned()
  const received: PushReceived[] = []
  const gone = new Set<string>()
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    tls: { cert, key },
    async fetch(req) {
      const path = new URL(req.url).pathname
      const auth = /^vapid t=([^,]+),\s*k=([A-Za-z0-9_-]+)$/.exec(req.headers.get('authorization') ?? '')
      if (auth === null) return new Response('no VAPID authorization', { status: 401 })
      const [header, payload, signature] = auth[1]!.split('.')
      const point = Buffer.from(auth[2]!, 'base64url')
      const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33, 65)) }, format: 'jwk' })
      const signed = verify('sha256', Buffer.from(`${header}.${payload}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature!, 'base64url'))
      if (!signed || JSON.parse(Buffer.from(header!, 'base64url').toString()).alg !== 'ES256') return new Response('bad VAPID signature', { status: 401 })
      const jwt = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as PushReceived['jwt']
      if (jwt.aud !== new URL(req.url).origin || jwt.exp * 1000 < Date.now()) return new Response('bad VAPID claims', { status: 401 })
      if (gone.has(path)) return new Response(null, { status: 410 })
      received.push({ path, ttl: req.headers.get('ttl'), encoding: req.headers.get('content-encoding'), jwt, vapidKey: auth[2]!, body: new Uint8Array(await req.arrayBuffer()) })
      return new Response(null, { status: 201 })
    },
  })
  return {
    received,
    cert,
    endpoint: (path: string) => `https://127.0.0.1:${server.port}${path}`,
    gone: (path: string) => gone.add(path),
    stop: () => server.stop(true),
  }
}

/** A fetch that trusts the stand-in's certificate (Lobby's own fetch trusts the system's CAs). */
export function trustingFetch(ca: string): typeof fetch {
  return ((input: string | URL | Request, init?: RequestInit) => fetch(input, { ...init, tls: { ca } } as RequestInit)) as typeof fetch
}
