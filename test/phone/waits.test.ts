import { describe, expect, test } from 'bun:test'
import { PhoneWaits, type PollAnswer } from '../../src/phone/waits'

/** A fake reader: statuses by code, counting unit views and answers; timers fired by hand. */
function setup() {
  const statuses = new Map<string, string>([['c1', 'a'], ['c2', 'a'], ['c3', 'a']])
  const counts = { units: 0, answers: 0 }
  const timers: (() => void)[] = []
  const waits = new PhoneWaits<string, string>({
    unit: (id) => (counts.units++, `view-${id}`),
    answer: (code) => {
      counts.answers++
      const status = statuses.get(code)
      if (status === undefined) throw new Error('gone')
      return { status, version: status }
    },
  }, {
    timeoutMs: 20_000,
    setTimer: (callback) => (timers.push(callback), timers.length as unknown as ReturnType<typeof setTimeout>),
    clearTimer: (timer) => void (timers[(timer as unknown as number) - 1] = () => {}),
  })
  const now = (code: string): PollAnswer<string> => ({ status: statuses.get(code)!, version: statuses.get(code)! })
  return { statuses, counts, timers, waits, now }
}

describe('phone waits', () => {
  test('a change of a unit builds its view once and answers each code once, only where the status moved', async () => {
    const { statuses, counts, waits, now } = setup()
    const answered: string[] = []
    for (const code of ['c1', 'c1', 'c2', 'c3']) void waits.wait(code, 'qu_1', now(code)).then((a) => answered.push(`${code}:${a.status}`))
    statuses.set('c1', 'b')
    waits.changed('qu_1')
    await Bun.sleep(0)
    expect(counts).toEqual({ units: 1, answers: 3 })
    expect(answered).toEqual(['c1:b', 'c1:b'])
    expect(waits.waiting).toBe(2)
    waits.changed('qu_other')
    expect(counts).toEqual({ units: 1, answers: 3 })
  })

  test('a poll is answered with the same status at its timeout; a poll whose client left is dropped without a read', async () => {
    const { counts, timers, waits, now } = setup()
    const controller = new AbortController()
    const left = waits.wait('c1', 'qu_1', now('c1'), controller.signal)
    const stays = waits.wait('c2', 'qu_1', now('c2'))
    controller.abort()
    expect(await left).toEqual(now('c1'))
    expect(counts.answers).toBe(0)
    for (const fire of timers) fire()
    expect(await stays).toEqual(now('c2'))
    expect(counts.answers).toBe(1)
    expect(waits.waiting).toBe(0)
  })

  test('stopping answers every waiting poll with its current status, and later polls at once', async () => {
    const { waits, now } = setup()
    const polls = ['c1', 'c2', 'c2'].map((code) => waits.wait(code, 'qu_1', now(code)))
    waits.answerAll()
    expect(await Promise.all(polls)).toEqual([now('c1'), now('c2'), now('c2')])
    expect(await waits.wait('c3', 'qu_1', now('c3'))).toEqual(now('c3'))
    expect(waits.waiting).toBe(0)
  })

  test('a ticket gone meanwhile fails its polls (the route answers 404)', async () => {
    const { statuses, waits, now } = setup()
    const poll = waits.wait('c1', 'qu_1', now('c1'))
    statuses.delete('c1')
    waits.changed('qu_1')
    await expect(poll).rejects.toThrow('gone')
  })
})
