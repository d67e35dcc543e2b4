import { readOptions } from '../screens/shared/options'
import { keepClockInSync } from './clock'
import { ScreenContext } from './context'
import { byId } from './dom'
import { PrayerBoard } from './prayer'
import { QueueBoard } from './queue'
import { Shell } from './shell'
import { WidgetBoard } from './widgets/index'
import type { DeviceResponse } from '../contract/wire'

/**
 * Entry of the screens' browser bundle. The page says which screen it is (`data-kind`,
 * `data-id` on #screen, written by the server from the path); the URL's query says the rest.
 */
function main(): void {
  const root = byId('screen')
  const kind = root.dataset.kind ?? ''
  const id = root.dataset.id ?? ''
  const ctx = new ScreenContext(readOptions(new URLSearchParams(location.search)))
  const shell = new Shell(ctx)
  root.classList.add('is-ready')
  keepClockInSync()
  if (ctx.options.token === null) {
    // No token in the URL: a paired display's cookie may stand in for it (contract §7).
    void isPairedDisplay().then((paired) => {
      if (paired) return startBoard(ctx, shell, kind, id)
      shell.setContent()
      shell.showMessage(ctx.labels.tokenMissing, ctx.labels.tokenMissingHint)
    })
    return
  }
  startBoard(ctx, shell, kind, id)
}

function startBoard(ctx: ScreenContext, shell: Shell, kind: string, id: string): void {
  const board = kind === 'queue' ? new QueueBoard(ctx, shell, id) : kind === 'prayer' ? new PrayerBoard(ctx, shell, id) : new WidgetBoard(ctx, shell, id)
  board.start()
}

/** Whether this browser is a paired display (its cookie goes with the request). */
async function isPairedDisplay(): Promise<boolean> {
  try {
    const response = await fetch('/api/devices/v1/device', { cache: 'no-store', credentials: 'same-origin' })
    if (!response.ok) return false
    const body = (await response.json()) as Partial<DeviceResponse>
    return body.data?.role === 'display'
  } catch {
    return false
  }
}

main()
