import { Type } from '@sinclair/typebox'

const closed = { additionalProperties: false } as const

export const Role = Type.Union([Type.Literal('admin'), Type.Literal('manager'), Type.Literal('clerk')])

export const SignInRequest = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64, description: 'the account\'s username (1–64 of a-z 0-9 . _ -)', examples: ['amira.h'] }),
    password: Type.String({ minLength: 1, maxLength: 256, description: 'the account\'s password' }),
  },
  closed,
)

export const SessionResponse = Type.Object(
  {
    username: Type.String(),
    role: Role,
    home: Type.String({ description: 'the page the role starts on' }),
  },
  closed,
)

export const CurrentSessionResponse = Type.Object(
  {
    username: Type.String(),
    displayName: Type.String(),
    role: Role,
    home: Type.String(),
    queueUnits: Type.Array(Type.String(), { description: 'the units a manager or clerk works in; empty for an admin, who has all' }),
    signedInAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time', description: 'the latest the session can last (12 hours after sign-in); it ends sooner after 30 minutes idle for an admin or manager' }),
  },
  closed,
)

export const SetupRequest = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: 128, description: 'the code of the setup link `lobby users add|reset` printed' }),
    password: Type.String({ minLength: 1, maxLength: 256, description: 'the new password: at least 10 characters, not among the 100,000 most common, not one repeated character or a run (abcdefghij, 1234567890), without the username or a workspace name' }),
    pin: Type.Optional(Type.String({ minLength: 1, maxLength: 16, description: 'a clerk\'s desk PIN: exactly 6 digits (required for a clerk, refused for other roles)' })),
  },
  closed,
)

export const SetupResponse = Type.Object(
  {
    username: Type.String(),
    role: Role,
    next: Type.String({ description: 'where to go now: the sign-in page' }),
  },
  closed,
)

export const SignOutResponse = Type.Object(
  {
    username: Type.String(),
    sessionsEnded: Type.Integer({ minimum: 0, description: 'how many sessions of this person ended (every one, in every browser)' }),
  },
  closed,
)
