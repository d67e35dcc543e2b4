import type { AdminSection } from './section'
import { branchSection } from './branch'
import { auditSection } from './audit'
import { devicesSection } from './devices'
import { staffSection } from './staff'
import { keysSection } from './keys'
import { voiceSection } from './voice'
import { notificationsSection } from './notifications'

export type { AdminContext, AdminSection } from './section'

/** The console's sections, in navigation order. */
export const SECTIONS: AdminSection[] = [branchSection, devicesSection, staffSection, keysSection, voiceSection, notificationsSection, auditSection]
