import { Elysia } from 'elysia'
import { checkBeforeBody, checkBeforeBodyAsync, closingConnection } from '../platform/body'
import type { Admission } from './admission'
import type { DeviceRole } from './principals'
import type { RateBucket, Scope } from './keys'
import { displayTokenOf } from './headers'
import { ApiError } from '../platform/errors'
import { AccessCodes } from './codes'

/** A route that reads a body of at most `body` bytes: admission runs after a declared size is checked, and a refusal closes the connection (`checkBeforeBody`). */
interface BodyLimit { body?: number }

/**
 * A Queue key (or, for `admitOperator`, a paired desk) with `scope`, counted in `bucket`.
 * `desksOnly` (`admitOperator`): a request with an `Authorization` header is refused at once,
 * 401 with this message, before anything is counted (a key has no counter of its own).
 */
export interface KeyAdmission extends BodyLimit { scope: Scope; bucket: RateBucket; desksOnly?: string }

/** A paired device of one of `roles`. */
export interface DeviceAdmission extends BodyLimit { roles: readonly DeviceRole[] }

/** The console: any console caller (an admin or a manager) or only an administrator; `body` in the console's order (`checkBeforeBodyAsync`). */
export interface ConsoleAdmission { who: 'console' | 'admin'; body?: number }

/**
 * Which report reader: `read` (the reader's read window only), `range` (and the range reads'
 * window), `staff` (whole units only, and the range reads' window), `feedback` (its own window).
 */
export type ReportAdmission = 'read' | 'range' | 'staff' | 'feedback'

/**
 * The one admission as an Elysia plugin: a route declares the credential it takes, e.g.
 * `{ admitKey: { scope: Scopes.TICKETS_READ, bucket: 'read' } }`, and its handler receives the
 * admitted `principal` (and `now`, the instant it was admitted at) from the macro's `resolve`.
 * The check runs before the handler, from the headers only, in the contract's order
 * (`Admission`); a route whose body it reads names its bound (`body`), so a declared size over
 * it is refused first and a refusal leaves the body unread. Each `resolve` is synchronous
 * where its check is (a key, a desk, a device, a display), which keeps the hot reads on
 * Elysia's synchronous path (test/queue/hot-reads.test.ts); sessions are asynchronous.
 * Built once by the composition root and handed to every feature's route plugin.
 */
export function admissionPlugin(admission: Admission) {
  return new Elysia({ name: 'lobby.access' }).macro({
    /** A Queue key in `Authorization: Bearer` (contract §3). */
    admitKey: ({ scope, bucket, body }: KeyAdmission) => ({
      resolve: body === undefined
        ? function ({ request }: { request: Request }) {
          const now = admission.now()
          const principal = admission.queueKey(request, scope, bucket, now)
          return { principal, now }
        }
        : function ({ request }: { request: Request }) {
          const now = admission.now()
          const principal = checkBeforeBody(request, body, function () { return admission.queueKey(request, scope, bucket, now) })
          return { principal, now }
        },
    }),
    /** The operator API's caller (contract §3, §7): a Queue key, else a paired desk by its cookie. */
    admitOperator: ({ scope, bucket, body, desksOnly }: KeyAdmission) => ({
      resolve: body === undefined
        ? function ({ request }: { request: Request }) {
          const now = admission.now()
          if (desksOnly !== undefined && request.headers.has('authorization')) throw new ApiError(401, AccessCodes.AUTHENTICATION_FAILED, desksOnly)
          const principal = admission.operator(request, scope, bucket, now)
          return { principal, now }
        }
        : function ({ request }: { request: Request }) {
          const now = admission.now()
          const principal = checkBeforeBody(request, body, function () {
            if (desksOnly !== undefined && request.headers.has('authorization')) throw new ApiError(401, AccessCodes.AUTHENTICATION_FAILED, desksOnly)
            return admission.operator(request, scope, bucket, now)
          })
          return { principal, now }
        },
    }),
    /** A paired device of one of `roles` by its cookie (contract §7). */
    admitDevice: ({ roles, body }: DeviceAdmission) => ({
      resolve: body === undefined
        ? function ({ request }: { request: Request }) {
          const principal = admission.device(request, roles)
          return { principal }
        }
        : function ({ request }: { request: Request }) {
          const principal = checkBeforeBody(request, body, function () { return admission.device(request, roles) })
          return { principal }
        },
    }),
    /** A display feed's reader (contract §6): a display token, or a paired display by its cookie. */
    admitDisplay: (_: true) => ({
      resolve: function ({ request, query }: { request: Request; query: Record<string, string | undefined> }) {
        const principal = admission.display(displayTokenOf(request, query), request)
        return { principal }
      },
    }),
    /** A signed-in person by the session cookie (contract §16); `closing`: every refusal closes the connection. */
    admitSession: (how: true | 'closing') => ({
      resolve: async function ({ request }: { request: Request }) {
        try {
          const principal = await admission.session(request)
          return { principal, now: admission.now() }
        } catch (error) {
          throw how === 'closing' ? closingConnection(error) : error
        }
      },
    }),
    /** The administration console (contract §16, §17): an admin or a manager, or only an administrator. */
    admitConsole: ({ who, body }: ConsoleAdmission) => ({
      resolve: async function ({ request }: { request: Request }) {
        const principal = body === undefined
          ? await admission.consoleCaller(request, who)
          : await checkBeforeBodyAsync(request, body, function () { return admission.consoleCaller(request, who) })
        return { principal, now: admission.now() }
      },
    }),
    /** A reader of the reports (contract §12, §16, §24): a key with reports:read, a paired reports device, a manager's or admin's session. */
    admitReportReader: (which: ReportAdmission) => ({
      resolve: async function ({ request }: { request: Request }) {
        const now = admission.now()
        const principal = which === 'staff' ? await admission.staffReportReader(request, now) : await admission.reportReader(request, now)
        if (which === 'range' || which === 'staff') admission.rangeRead(principal.credentialId, now)
        if (which === 'feedback') admission.feedbackRead(principal.credentialId, now)
        return { principal, now }
      },
    }),
    /** Contract §21: a Queue key with appointments:write, a paired desk, or a manager's or admin's session; `body` as every body route. */
    admitAppointments: ({ bucket, body }: { bucket: RateBucket; body: number }) => ({
      resolve: async function ({ request }: { request: Request }) {
        const now = admission.now()
        const rest = await admission.appointmentCaller(request, bucket, now)
        const principal = checkBeforeBody(request, body, rest)
        return { principal, now }
      },
    }),
  })
}

/** The plugin every feature's routes `.use`: the root builds it once (src/root/). */
export type AdmissionPlugin = ReturnType<typeof admissionPlugin>
