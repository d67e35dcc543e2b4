import { describe, expect, test } from 'bun:test'
import { sectionsFor } from '../../src/screens/shared/console-access'
import { STRINGS } from '../../src/client/admin/strings'

/*
 * The console page's navigation (contract §17): built from SECTIONS by the role the server
 * renders into the page (roles.test.ts checks `data-role`; sections-browser.test.ts the links). A manager sees Branch, Devices,
 * Voice clips and the Audit log, never Staff or Keys and webhooks (whose routes answer it 403,
 * see staff, keys and webhooks tests); every label is in English and Arabic.
 */

const visibleTo = sectionsFor
const LABELS = { branch: 'sectionBranch', devices: 'sectionDevices', staff: 'sectionStaff', keys: 'sectionKeys', voice: 'sectionVoice', audit: 'sectionAudit' } as const

describe('the console sections by role', () => {
  test('an admin sees every section; a manager not Staff nor Keys and webhooks', () => {
    expect(visibleTo('admin')).toEqual(['branch', 'devices', 'staff', 'keys', 'voice', 'notifications', 'audit'])
    expect(visibleTo('manager')).toEqual(['branch', 'devices', 'voice', 'audit'])
  })

  test('each section has its label in both languages, and the two differ', () => {
    for (const key of Object.values(LABELS)) {
      const en = STRINGS.en[key]
      const ar = STRINGS.ar[key]
      expect(en.length).toBeGreaterThan(0)
      expect(ar).toMatch(/[\u0600-\u06FF]/)
      expect(ar).not.toBe(en)
    }
  })

  test('every Arabic string table entry exists for every English one', () => {
    expect(Object.keys(STRINGS.ar).sort()).toEqual(Object.keys(STRINGS.en).sort())
  })
})
