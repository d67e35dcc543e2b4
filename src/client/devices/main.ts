import { byId } from '../dom'
import { keepClockInSync } from '../clock'
import { DevicePage } from './page'
import { pairPage } from './pair'
import { boardsPage } from './boards'
import { DeskPage } from './desk'
import { KioskPage } from './kiosk'

/**
 * Entry of the device pages' bundle (`/pair`, `/desk`, `/kiosk`, `/screens`): the screens' toolkit
 * (DOM helpers, Intl formatting, the live link, the server clock) with the device pages' words.
 */
function main(): void {
  const kind = byId('page').dataset.kind
  const page = new DevicePage()
  if (kind === 'pair') return pairPage(page)
  if (kind === 'boards') return void boardsPage(page)
  if (kind === 'kiosk') return void new KioskPage(page).start()
  if (kind === 'desk') {
    keepClockInSync()
    return void new DeskPage(page).start()
  }
}

main()
