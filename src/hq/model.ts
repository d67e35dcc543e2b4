import { Type } from '@sinclair/typebox'
import { ProfileContent } from './profile'

/** The wire of `/api/hq/v1` (contract §26): the OpenAPI document's schemas and the responses' shapes. */

const closed = { additionalProperties: false } as const
const Instant = Type.String({ format: 'date-time' })
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])

export const HqUserJson = Type.Object({
  username: Type.String(),
  displayName: Type.String(),
  role: Type.Union([Type.Literal('hq-admin'), Type.Literal('hq-viewer')]),
}, closed)

export const SignInBody = Type.Object({ username: Type.String({ maxLength: 64 }), password: Type.String({ maxLength: 256 }) }, closed)
export const SetupBody = Type.Object({ code: Type.String({ maxLength: 64 }), password: Type.String({ maxLength: 256 }) }, closed)

export const ProfileJson = Type.Object({
  id: Type.String(),
  name: Type.String(),
  content: ProfileContent,
  draftVersion: Type.Integer({ minimum: 1, description: 'send it back with a change: a stale one is 409 EDIT_CONFLICT' }),
  updatedAt: Instant,
  updatedBy: Type.String(),
  publishedRevision: Nullable(Type.Integer({ minimum: 1 })),
  unpublished: Type.Boolean({ description: 'the draft differs from the newest revision (or none is published)' }),
}, closed)
export const ProfileList = Type.Object({ data: Type.Array(ProfileJson) }, closed)

export const CreateProfileBody = Type.Object({
  id: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,160}$' })),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  content: ProfileContent,
}, closed)
export const UpdateProfileBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  content: ProfileContent,
  draftVersion: Type.Integer({ minimum: 1 }),
}, closed)

export const RevisionJson = Type.Object({ profileId: Type.String(), revision: Type.Integer({ minimum: 1 }), publishedAt: Instant }, closed)
export const RevisionList = Type.Object({
  data: Type.Array(Type.Object({ revision: Type.Integer({ minimum: 1 }), content: ProfileContent, publishedAt: Instant, publishedBy: Type.String() }, closed)),
}, closed)

export const BranchJson = Type.Object({
  queueUnitId: Type.String(),
  name: Nullable(Type.String()),
  profileId: Nullable(Type.String()),
  newestRevision: Nullable(Type.Integer({ minimum: 1 })),
  appliedRevision: Nullable(Type.Integer({ minimum: 1 })),
  appliedAt: Nullable(Instant),
  refusedRevision: Nullable(Type.Integer({ minimum: 1 })),
  refusedBecause: Nullable(Type.String({ description: 'why the branch refused `refusedRevision`, field by field' })),
  rollout: Type.Union([Type.Literal('applied'), Type.Literal('pending'), Type.Literal('refused'), Type.Literal('none')]),
}, closed)
export const BranchList = Type.Object({ data: Type.Array(BranchJson) }, closed)
export const AssignBody = Type.Object({ profileId: Type.String() }, closed)

export const LiveBranchJson = Type.Object({
  queueUnitId: Type.String(),
  name: Type.String(),
  waiting: Type.Integer({ minimum: 0 }),
  longestWaitSeconds: Type.Integer({ minimum: 0 }),
  countersOpen: Type.Integer({ minimum: 0 }),
  overTarget: Type.Integer({ minimum: 0, description: 'lines whose longest wait has passed their wait target' }),
  lastHeardAt: Instant,
  lastHeardSeconds: Type.Integer({ minimum: 0 }),
  replicatedAt: Nullable(Instant),
}, closed)
export const LiveList = Type.Object({ generatedAt: Instant, data: Type.Array(LiveBranchJson) }, closed)
export const LiveLineJson = Type.Object({
  locationId: Type.String(),
  serviceId: Type.String(),
  name: Type.String(),
  waiting: Type.Integer({ minimum: 0 }),
  longestWaitSeconds: Type.Integer({ minimum: 0 }),
  waitTargetSeconds: Type.Integer({ minimum: 0 }),
  overTarget: Type.Boolean(),
}, closed)
export const LiveBranchDetail = Type.Object({ queueUnitId: Type.String(), name: Type.String(), lastHeardAt: Instant, lines: Type.Array(LiveLineJson) }, closed)

const Seconds = Nullable(Type.Number({ minimum: 0 }))
export const ReportRowJson = Type.Object({
  date: Type.String({ format: 'date' }),
  queueUnitId: Type.String(),
  locationId: Type.String(),
  serviceId: Type.String(),
  issued: Type.Integer({ minimum: 0 }),
  served: Type.Integer({ minimum: 0 }),
  noShow: Type.Integer({ minimum: 0 }),
  cancelled: Type.Integer({ minimum: 0 }),
  transferredOut: Type.Integer({ minimum: 0 }),
  waitSeconds: Type.Object({ avg: Seconds, p50: Seconds, p90: Seconds, max: Seconds }, closed),
  serviceSeconds: Type.Object({ avg: Seconds, p50: Seconds, p90: Seconds }, closed),
  withinTarget: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
}, closed)
export const ReportList = Type.Object({ data: Type.Array(ReportRowJson) }, closed)
