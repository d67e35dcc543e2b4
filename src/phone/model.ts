import { Type } from '@sinclair/typebox'

/*
 * What the phone's status read answers (src/phone/routes.ts), as a schema for the OpenAPI
 * document (src/phone/docs.ts).
 */

const closed = { additionalProperties: false } as const
const Names = Type.Record(Type.String(), Type.String(), { description: 'contract §18: the name per BCP 47 language tag' })
const Language = Type.String({ description: 'contract §18: the ticket\'s language (the one it was taken in, else the unit\'s default); the page speaks it', examples: ['ar'] })
const PhoneStatusSchema = Type.Union([
  Type.Object({
    state: Type.Union([Type.Literal('WAITING'), Type.Literal('CALLED'), Type.Literal('SERVING')]),
    language: Language,
    defaultLanguage: Type.String({ description: 'the unit\'s default language: names fall back to it' }),
    languages: Type.Array(Type.String(), { description: 'the unit\'s languages (the page\'s switch)' }),
    ticketNumber: Type.String(),
    serviceName: Type.String({ description: 'in `language`' }),
    serviceNames: Names,
    locationName: Type.String({ description: 'in `language`' }),
    locationNames: Names,
    branchName: Type.String({ description: 'in `language`' }),
    branchNames: Names,
    peopleAhead: Type.Integer({ minimum: 0 }),
    estimatedWaitSeconds: Type.Integer({ minimum: 0, description: 'contract §19: seconds until it is called; 0 with nobody ahead and a free open counter ("You\'re next")' }),
    noCounterOpen: Type.Boolean({ description: 'contract §19: no open counter serves the service now (the estimate assumed one); the pages say "No counter is open right now"' }),
    counterName: Type.Union([Type.String(), Type.Null()], { description: 'in `language`' }),
    counterNames: Type.Union([Names, Type.Null()]),
    callCount: Type.Integer({ minimum: 0 }),
  }, closed),
  Type.Object({ state: Type.Literal('ENDED'), language: Language }, closed),
  Type.Object({ state: Type.Literal('EXPIRED'), language: Language }, closed),
])
export const PhoneStatusResponse = Type.Object({ data: PhoneStatusSchema, version: Type.String({ description: 'changes whenever `data` does; pass it as `since` to wait for the next change' }) }, closed)
