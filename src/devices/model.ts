import { Type } from '@sinclair/typebox'

/*
 * The bodies of the device API (src/devices/routes.ts): the pairing request, and what pairing,
 * `device` and `boards` answer. Here rather than in routes.ts because the route validates the
 * pairing request while docs.ts documents all of them.
 */

const closed = { additionalProperties: false } as const

export const PairRequest = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: 32, description: 'the six-digit code `lobby devices pair` printed', examples: ['483921'] }),
    deviceName: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'a name for this device (A-Z a-z 0-9 _ . : -), when the code has none' })),
  },
  closed,
)

const Binding = Type.Object(
  {
    workspaceId: Type.String(),
    queueUnitId: Type.Optional(Type.String()),
    locationId: Type.Optional(Type.String()),
    counterId: Type.Optional(Type.String()),
    services: Type.Optional(Type.Array(Type.String())),
  },
  closed,
)
const Role = Type.Union([Type.Literal('desk'), Type.Literal('kiosk'), Type.Literal('display'), Type.Literal('reports')])
export const PairResponse = Type.Object({ role: Role, home: Type.String({ examples: ['/desk'] }), name: Type.String() }, closed)
/** `GET boards`: the screens of the display's workspace. */
export const BoardsResponse = Type.Object({
  data: Type.Object({
    boards: Type.Array(Type.Object({
      kind: Type.Union([Type.Literal('queue'), Type.Literal('widget'), Type.Literal('prayer')]),
      id: Type.String(),
      name: Type.String(),
      path: Type.String({ description: 'the screen page, relative to this server' }),
    }, closed)),
  }, closed),
}, closed)
export const DeviceResponse = Type.Object({ data: Type.Object({ name: Type.String(), role: Role, home: Type.String(), binding: Binding }, closed) }, closed)
