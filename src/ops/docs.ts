import { routeDetail } from '../platform/openapi'
import { OpsCodes, OpsErrorExamples } from './errors'

/** The OpenAPI detail of `/metrics` (src/ops/routes.ts). */
export const readMetricsDocs = routeDetail({
  operationId: 'readMetrics',
  summary: 'Prometheus metrics (loopback, or Bearer metrics token)',
  description: 'Contract §13: answered to loopback callers, and to others only with `Authorization: Bearer <--metrics-token>`.',
  tags: ['Platform'],
  security: 'metrics',
  responses: {
    200: {
      description: 'Prometheus text format 0.0.4',
      mediaType: 'text/plain',
      name: 'MetricsText',
      schema: { type: 'string', description: 'Prometheus text exposition format 0.0.4' },
      example: '# HELP lobby_http_requests_total HTTP requests by route, method and status\n# TYPE lobby_http_requests_total counter\nlobby_http_requests_total{route="/health",method="GET",status="200"} 42\n',
    },
  },
  errors: { 401: [OpsCodes.AUTHENTICATION_FAILED], 403: [OpsCodes.METRICS_FORBIDDEN] },
  errorExamples: OpsErrorExamples,
})
