import { Type } from '@sinclair/typebox'

const closed = { additionalProperties: false } as const

/** `GET …/queue-units/{id}/voice`: what a board needs to say calls with recorded clips (contract §11). */
export const VoiceManifest = Type.Object(
  {
    lang: Type.String({ description: "the board's language as asked" }),
    clipLang: Type.Union([Type.String(), Type.Null()], { description: 'the stored language whose clips these are; null when this language has none' }),
    complete: Type.Boolean({ description: '`ticket`, `please-go-to` and every digit are present: the board may speak with clips' }),
    clips: Type.Array(
      Type.Object(
        {
          name: Type.String({ description: '`ticket`, `please-go-to`, `0`…`9`, `A`…`Z` or `counter-<counterId>`' }),
          contentType: Type.Union([Type.Literal('audio/wav'), Type.Literal('audio/mpeg'), Type.Literal('audio/ogg')]),
          bytes: Type.Integer({ minimum: 0 }),
          href: Type.String({ description: 'the versioned URL of the clip' }),
        },
        closed,
      ),
    ),
    counters: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), locationId: Type.String() }, closed), {
      description: "the unit's counters, so a call's counter (by name and location) maps to its `counter-<counterId>` clip",
    }),
  },
  closed,
)
