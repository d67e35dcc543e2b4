import { afterEach, describe, expect, jest, test } from 'bun:test'
import { Lifecycle, SETTLE_MS } from '../../src/platform/lifecycle'

describe('lifecycle: work that need not precede serving runs once the start settled (issue 37)', () => {
  afterEach(() => jest.useRealTimers())

  test('start runs every task at once; startSettled runs SETTLE_MS later, in registration order', () => {
    jest.useFakeTimers()
    const ran: string[] = []
    const lifecycle = new Lifecycle()
    lifecycle.register({ start: () => ran.push('close: start') })
    lifecycle.register({ start: () => ran.push('watch: start'), startSettled: () => ran.push('watch: first look') })
    lifecycle.register({ startSettled: () => ran.push('missed: first run') })
    lifecycle.start()
    expect(ran).toEqual(['close: start', 'watch: start'])
    jest.advanceTimersByTime(SETTLE_MS - 1)
    expect(ran).toHaveLength(2)
    jest.advanceTimersByTime(1)
    expect(ran).toEqual(['close: start', 'watch: start', 'watch: first look', 'missed: first run'])
  })

  test('a stop that begins before the start settled runs no startSettled', () => {
    jest.useFakeTimers()
    const ran: string[] = []
    const lifecycle = new Lifecycle()
    lifecycle.register({ startSettled: () => ran.push('first look'), beforeStop: () => ran.push('beforeStop') })
    lifecycle.start()
    lifecycle.beforeStop()
    jest.advanceTimersByTime(10 * SETTLE_MS)
    expect(ran).toEqual(['beforeStop'])
  })
})
