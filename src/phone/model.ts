import { Type } from '@sinclair/typebox'

/*
 * What the phone's status read answers (src/phone/routes.ts), as a schema for the OpenAPI
 * document (src/phone/docs.ts).
 */

const closed = { additionalProperties: false } as const
const PhoneStatusSchema = Type.Union([
  Type.Object({
    state: Type.Union([Type.Literal('WAITING'), Type.Literal('CALLED'), Type.Literal('SERVING')]),
    ticketNumber: Type.String(),
    serviceName: Type.String(),
    locationName: Type.String(),
    branchName: Type.String(),
    peopleAhead: Type.Integer({ minimum: 0 }),
    estimatedWaitSeconds: Type.Integer({ minimum: 0 }),
    counterName: Type.Union([Type.String(), Type.Null()]),
    callCount: Type.Integer({ minimum: 0 }),
  }, closed),
  Type.Object({ state: Type.Literal('ENDED') }, closed),
  Type.Object({ state: Type.Literal('EXPIRED') }, closed),
])
export const PhoneStatusResponse = Type.Object({ data: PhoneStatusSchema, version: Type.String({ description: 'changes whenever `data` does; pass it as `since` to wait for the next change' }) }, closed)
