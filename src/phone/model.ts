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
    counterFree: Type.Boolean({ description: 'contract §28: an open counter of the service holds nothing now; with nobody ahead and 0 seconds the pages say "You\'re next" (src/screens/shared/wait-verdict.ts)' }),
    counterName: Type.Union([Type.String(), Type.Null()], { description: 'in `language`' }),
    counterNames: Type.Union([Names, Type.Null()]),
    callCount: Type.Integer({ minimum: 0 }),
    approachingAhead: Type.Integer({ minimum: 1, description: 'contract §20: the unit\'s `approachingAhead`; the page notifies once when `peopleAhead` is at most this' }),
    transferred: Type.Boolean({ description: 'contract §20: the ticket was transferred to this service; the page says "You have been transferred to …"' }),
    moreTimeLeft: Type.Integer({ minimum: 0, maximum: 2, description: 'contract §20: how many more times "I need more time" may be asked' }),
  }, closed),
  Type.Object({
    state: Type.Literal('ENDED'),
    language: Language,
    outcome: Type.Union([Type.Literal('COMPLETED'), Type.Literal('NO_SHOW'), Type.Literal('CANCELLED')], { description: 'contract §20: NO_SHOW says "You missed your turn. Please speak to a member of staff."' }),
    feedback: Type.Union([Type.Literal('OPEN'), Type.Literal('GIVEN'), Type.Literal('CLOSED'), Type.Null()], { description: 'a COMPLETED visit\'s rating: OPEN (may be given, 24 hours from completion), GIVEN, CLOSED; null for other outcomes' }),
  }, closed),
  Type.Object({ state: Type.Literal('EXPIRED'), language: Language }, closed),
])
export const PhoneStatusResponse = Type.Object({ data: PhoneStatusSchema, version: Type.String({ description: 'changes whenever `data` does; pass it as `since` to wait for the next change' }) }, closed)

/** Contract §20: a rating of a completed visit, 1–5, with an optional plain-text comment (≤ 500 characters, counted in code points). */
export const PhoneFeedbackBody = Type.Object({
  rating: Type.Integer({ minimum: 1, maximum: 5, description: '1 (poor) to 5 (excellent)', examples: [5] }),
  comment: Type.Optional(Type.String({ maxLength: 500, description: 'plain text, at most 500 characters: stored as given (trimmed; blank is none), always shown as text' })),
}, { ...closed, $id: 'PhoneFeedbackBody', examples: [{ rating: 5, comment: 'Quick and friendly, thank you.' }] })

