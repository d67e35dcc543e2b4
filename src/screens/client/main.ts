import { readOptions } from '../shared/options'
import { keepClockInSync } from './clock'
import { ScreenContext } from './context'
import { byId } from './dom'
import { PrayerBoard } from './prayer'
import { QueueBoard } from './queue'
import { Shell } from './shell'
import { WidgetBoard } from './widgets/index'

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
    shell.setContent()
    shell.showMessage(ctx.labels.tokenMissing, ctx.labels.tokenMissingHint)
    return
  }
  const board = kind === 'queue' ? new QueueBoard(ctx, shell, id) : kind === 'prayer' ? new PrayerBoard(ctx, shell, id) : new WidgetBoard(ctx, shell, id)
  board.start()
}

main()
