import type { ErrorExample } from '../platform/openapi'

/** The error codes of `/metrics` (src/ops/routes.ts). */
export const OpsCodes = {
  METRICS_FORBIDDEN: 'METRICS_FORBIDDEN',
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
} as const

/** An example of each code for the OpenAPI document. */
export const OpsErrorExamples = {
  METRICS_FORBIDDEN: '/metrics is answered on loopback only; start the server with --metrics-token to open it to others',
  AUTHENTICATION_FAILED: 'wrong metrics token',
} as const satisfies Record<keyof typeof OpsCodes, ErrorExample>
