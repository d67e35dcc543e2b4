import { Elysia } from 'elysia'
import type { AppDeps } from '../root/deps'
import { json } from '../platform/http'
import { routeDetail } from '../platform/openapi'
import { admitOperatorCaller, DEVICES_API } from '../devices/access'
import type { DeviceService } from '../devices/service'
import { devicePage } from '../devices/pages'
import { CounterCodes, CounterErrorExamples } from '../counters/errors'
import { Scopes } from '../queue/model'
import { ApiError } from '../platform/errors'
import type { DeskService } from './service'
import { DeskViewResponse } from './model'

const DESK_TICKET = {
  id: 'tkt_01JD6Z8K4Q2M7W3X9B5C1V0N8R', ticketId: 'tkt_01JD6Z8K4Q2M7W3X9B5C1V0N8R', ticketNumber: 'A007', status: 'CALLED', source: 'API',
  queueUnitId: 'qu_main', locationId: 'loc_hall', serviceId: 'svc_accounts', externalReference: null,
  createdAt: '2026-11-25T09:30:00.000Z', calledAt: '2026-11-25T09:41:12.345Z', servingAt: null, completedAt: null, priority: false,
}
const DESK_EXAMPLE = {
  data: {
    generatedAt: '2026-11-25T09:42:00.000Z',
    queueUnit: { id: 'qu_main', name: 'Main branch', active: true },
    counter: { id: 'cnt_1', name: 'Counter 1', open: true, locationId: 'loc_hall', locationName: 'Main hall', timezone: 'Europe/Berlin' },
    services: [{ id: 'svc_accounts', name: 'Accounts', prefix: 'A', active: true, waiting: 0, estimatedWaitSeconds: 300, tickets: [] }],
    ticket: DESK_TICKET,
    servedToday: 14,
    transferTargets: [{ id: 'svc_loans', name: 'Loans' }],
    serviceNames: { svc_accounts: 'Accounts', svc_loans: 'Loans' },
  },
}

/**
 * The counter desk (contract §8): the `/desk` page and the one read it needs beyond the
 * operator API, `GET /api/devices/v1/desk` (its counter, the waiting lines of its services,
 * the ticket it holds, today's served count). The desk's actions are the operator API's own
 * routes, called with the device cookie.
 */
export function deskRoutes(deps: AppDeps, { desk, devices }: { desk: DeskService; devices: DeviceService }) {
  return new Elysia({ name: 'lobby.desk' })
    .get('/desk', ({ query }) => devicePage('desk', query), { detail: { hide: true } })
    .get(
      `${DEVICES_API}/desk`,
      ({ request }) => {
        const now = deps.clock.now()
        // Only a paired desk: a Queue key has no counter of its own to show.
        if (request.headers.has('authorization')) throw new ApiError(401, CounterCodes.AUTHENTICATION_FAILED, 'the desk view is for a paired desk (device cookie)')
        const caller = admitOperatorCaller(deps, devices, request, Scopes.COUNTER_OPERATE, 'operate', now)
        desk.counters.queue.assertQueueUnitActive(caller)
        return json(200, { data: desk.view(caller, caller.counters![0]!, now) }, { 'cache-control': 'no-store' })
      },
      {
        detail: routeDetail({
          operationId: 'readDeskView',
          summary: 'What a paired desk shows',
          description:
            'For a paired desk (device cookie): its counter (name, location, open), each of its services at its location with the waiting count and the first 10 ' +
            'waiting tickets in call order, the ticket it holds, today\'s served count and the services a ticket may be transferred to. ' +
            'Checks: credential → rate limit (the operator window) → Queue Unit active → counter (404 when retired).',
          tags: ['Devices'],
          security: 'deviceCookie',
          responses: { 200: { description: 'the desk', name: 'DeskViewResponse', schema: DeskViewResponse, example: DESK_EXAMPLE } },
          errors: { 401: [CounterCodes.AUTHENTICATION_FAILED], 403: [CounterCodes.QUEUE_UNIT_INACTIVE], 404: [CounterCodes.COUNTER_NOT_FOUND], 429: [CounterCodes.RATE_LIMITED] },
          errorExamples: CounterErrorExamples,
        }),
      },
    )
}
