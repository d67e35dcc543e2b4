import net from 'node:net'

/**
 * A JSON POST over a raw connection from `localAddress` (127.0.0.2, 127.0.0.3, …: each a client
 * address of its own on loopback); the status and the lower-cased head of the answer.
 */
export function postFrom(port: number, localAddress: string, path: string, payload: unknown): Promise<{ status: number; headers: string }> {
  const body = JSON.stringify(payload)
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress }, () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
    })
    let text = ''
    socket.setEncoding('latin1')
    socket.on('data', (d) => (text += d))
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? NaN)
      resolve({ status, headers: text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase() })
    })
    socket.on('error', reject)
  })
}
