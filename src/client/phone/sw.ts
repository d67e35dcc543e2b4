/*
 * The phone page's service worker (contract §25 web push), served by Lobby at `/t/sw.js` (same
 * origin, scope `/t/`): it shows the message a push brings (`{title, body, messageId}`, the
 * payload src/notifications/channels.ts encrypts) and, on a tap, opens or focuses the ticket's
 * page. It caches nothing: the page itself is never stored.
 */

interface PushMessage {
  title?: unknown
  body?: unknown
  messageId?: unknown
  url?: unknown
}
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void
}
interface PushEvent extends ExtendableEvent {
  readonly data: { json(): unknown; text(): string } | null
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification
}
interface WindowClient {
  readonly url: string
  focus(): Promise<unknown>
}
interface WorkerScope {
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void
  skipWaiting(): Promise<void>
  registration: { showNotification(title: string, options?: NotificationOptions & { data?: unknown }): Promise<void>; scope: string }
  clients: { claim(): Promise<void>; matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>; openWindow(url: string): Promise<unknown> }
}

const scope = self as unknown as WorkerScope

scope.addEventListener('install', (event) => event.waitUntil(scope.skipWaiting()))
scope.addEventListener('activate', (event) => event.waitUntil(scope.clients.claim()))

scope.addEventListener('push', (event) => {
  let message: PushMessage = {}
  try {
    message = (event.data?.json() ?? {}) as PushMessage
  } catch {
    message = { body: event.data?.text() ?? '' }
  }
  const title = typeof message.title === 'string' && message.title !== '' ? message.title : 'Lobby'
  const body = typeof message.body === 'string' ? message.body : ''
  // One notification per message: a retried delivery replaces, never repeats, it.
  const tag = typeof message.messageId === 'string' ? message.messageId : undefined
  // A tap opens the ticket's page, and only a page of this server (a link elsewhere is not followed).
  const url = typeof message.url === 'string' && message.url.startsWith(new URL(scope.registration.scope).origin + '/') ? message.url : null
  event.waitUntil(scope.registration.showNotification(title, { body, data: { url }, ...(tag === undefined ? {} : { tag }) }))
})

scope.addEventListener('notificationclick', (event) => {
  event.notification.close()
  event.waitUntil((async () => {
    const target = (event.notification.data as { url?: string | null } | null)?.url ?? scope.registration.scope
    const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true })
    const open = windows.find((w) => w.url.split('?')[0] === target.split('?')[0]) ?? windows.find((w) => w.url.startsWith(scope.registration.scope))
    if (open !== undefined) return open.focus()
    return scope.clients.openWindow(target)
  })())
})
