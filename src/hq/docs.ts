import { routeDetail, type RouteDoc } from '../platform/openapi'
import { HqCodes, HqErrorExamples } from './errors'
import * as M from './model'

/* The OpenAPI operations of head office's JSON API (./routes.ts), one each. */

const doc = (d: Omit<RouteDoc, 'tags' | 'errorExamples'> & { tags?: string[] }) =>
  routeDetail({ tags: ['Head office'], errorExamples: HqErrorExamples, ...d })
const signedIn = { 401: [HqCodes.AUTHENTICATION_FAILED] } as const
const changes = { ...signedIn, 403: [HqCodes.ORIGIN_FORBIDDEN, HqCodes.FORBIDDEN] } as const

export const signInHqDocs = doc({
        operationId: 'signInHq', summary: 'Sign in to head office', public: true,
        body: { name: 'HqSignIn', schema: M.SignInBody, examples: { admin: { summary: 'an HQ admin', value: { username: 'nadia', password: 'correct horse battery' } } } },
        responses: { 200: { description: 'signed in; the cookie lobby_hq_session is set', name: 'HqSignedIn', schema: { ...M.HqUserJson, properties: { ...M.HqUserJson.properties, home: { type: 'string' } }, required: [...M.HqUserJson.required, 'home'] }, example: { username: 'nadia', displayName: 'Nadia', role: 'hq-admin', home: '/hq' } } },
        errors: { 400: [HqCodes.INVALID_REQUEST], 401: [HqCodes.SIGN_IN_FAILED], 429: [HqCodes.SIGN_IN_LOCKED] },
      })
export const readHqSessionDocs = doc({
        operationId: 'readHqSession', summary: 'Who is signed in', security: 'hqSession',
        responses: { 200: { description: 'the signed-in HQ user', name: 'HqUser', schema: M.HqUserJson, example: { username: 'nadia', displayName: 'Nadia', role: 'hq-admin' } } },
        errors: signedIn,
      })
export const signOutHqDocs = doc({ operationId: 'signOutHq', summary: 'Sign out', public: true, responses: { 204: { description: 'signed out (also when no session was there)' } } })
export const completeHqSetupDocs = doc({
        operationId: 'completeHqSetup', summary: 'Set a password with a setup link', public: true,
        body: { name: 'HqSetup', schema: M.SetupBody, examples: { setup: { summary: 'the code of `lobby hq users add`', value: { code: 'abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrst', password: 'correct horse battery' } } } },
        responses: { 200: { description: 'the password is set', name: 'HqSetupDone', schema: { type: 'object', required: ['username'], additionalProperties: false, properties: { username: { type: 'string' } } }, example: { username: 'nadia' } } },
        errors: { 400: [HqCodes.INVALID_REQUEST, HqCodes.SETUP_CODE_INVALID], 403: [HqCodes.ORIGIN_FORBIDDEN], 422: [HqCodes.VALIDATION_FAILED, HqCodes.PASSWORD_TOO_SHORT, HqCodes.PASSWORD_TOO_COMMON, HqCodes.PASSWORD_REPEATED, HqCodes.PASSWORD_SEQUENCE, HqCodes.PASSWORD_CONTAINS_USERNAME] },
      })
export const listProfilesDocs = doc({ operationId: 'listProfiles', summary: 'Profiles', security: 'hqSession', responses: { 200: { description: 'every profile with its draft', name: 'ProfileList', schema: M.ProfileList, example: { data: [] } } }, errors: signedIn })
export const createProfileDocs = doc({
        operationId: 'createProfile', summary: 'A new profile (a draft)', security: 'hqSession',
        body: { name: 'CreateProfile', schema: M.CreateProfileBody, examples: { retail: { summary: 'services, hours, break reasons', value: { id: 'prof_retail', name: 'Retail', content: { services: [{ id: 'svc_accounts', name: { en: 'Accounts', ar: 'الحسابات' }, prefix: 'A', waitTargetSeconds: 600 }], breakReasons: ['Break', 'Lunch'] } } } } },
        responses: { 201: { description: 'the profile', name: 'Profile', schema: M.ProfileJson } },
        errors: { ...changes, 400: [HqCodes.INVALID_REQUEST], 422: [HqCodes.VALIDATION_FAILED] },
      })
export const readProfileDocs = doc({ operationId: 'readProfile', summary: 'A profile', security: 'hqSession', params: { profileId: { description: 'the profile', example: 'prof_retail' } }, responses: { 200: { description: 'the profile', name: 'Profile', schema: M.ProfileJson } }, errors: { ...signedIn, 404: [HqCodes.NOT_FOUND] } })
export const updateProfileDocs = doc({
        operationId: 'updateProfile', summary: 'Change a profile\'s draft', security: 'hqSession',
        description: 'Replaces the draft\'s name and content; branches see nothing of it until it is published. `draftVersion` is the one loaded (409 EDIT_CONFLICT with `error.current` otherwise).',
        params: { profileId: { description: 'the profile', example: 'prof_retail' } },
        body: { name: 'UpdateProfile', schema: M.UpdateProfileBody, examples: { rename: { summary: 'a new wait target', value: { name: 'Retail', draftVersion: 1, content: { services: [{ id: 'svc_accounts', name: 'Accounts', prefix: 'A', waitTargetSeconds: 480 }] } } } } },
        responses: { 200: { description: 'the profile', name: 'Profile', schema: M.ProfileJson } },
        errors: { ...changes, 400: [HqCodes.INVALID_REQUEST], 404: [HqCodes.NOT_FOUND], 409: [HqCodes.EDIT_CONFLICT], 422: [HqCodes.VALIDATION_FAILED] },
        errorProperties: { current: { ...M.ProfileJson, description: 'EDIT_CONFLICT only: the profile as it is now' } },
      })
export const publishProfileDocs = doc({
        operationId: 'publishProfile', summary: 'Publish the draft as the next revision', security: 'hqSession',
        description: 'The draft becomes an immutable, numbered revision; every branch following the profile applies it within 30 seconds (or refuses it and says why).',
        params: { profileId: { description: 'the profile', example: 'prof_retail' } },
        responses: { 201: { description: 'the new revision', name: 'ProfileRevision', schema: M.RevisionJson, example: { profileId: 'prof_retail', revision: 4, publishedAt: '2026-12-02T08:00:00.000Z' } } },
        errors: { ...changes, 404: [HqCodes.NOT_FOUND], 409: [HqCodes.NOTHING_TO_PUBLISH] },
      })
export const listProfileRevisionsDocs = doc({ operationId: 'listProfileRevisions', summary: 'A profile\'s revisions, newest first', security: 'hqSession', params: { profileId: { description: 'the profile', example: 'prof_retail' } }, responses: { 200: { description: 'its revisions', name: 'ProfileRevisionList', schema: M.RevisionList } }, errors: { ...signedIn, 404: [HqCodes.NOT_FOUND] } })
export const listBranchesDocs = doc({ operationId: 'listBranches', summary: 'Branches and their rollout', security: 'hqSession', responses: { 200: { description: 'every branch head office knows, by queue unit ID', name: 'BranchList', schema: M.BranchList } }, errors: signedIn })
export const assignProfileDocs = doc({
        operationId: 'assignProfile', summary: 'The profile a branch follows', security: 'hqSession',
        params: { queueUnitId: { description: 'the branch (its queue unit ID)', example: 'qu_riyadh' } },
        body: { name: 'AssignProfile', schema: M.AssignBody, examples: { retail: { summary: 'follow Retail', value: { profileId: 'prof_retail' } } } },
        responses: { 200: { description: 'the branch', name: 'Branch', schema: M.BranchJson } },
        errors: { ...changes, 400: [HqCodes.INVALID_REQUEST], 404: [HqCodes.NOT_FOUND], 422: [HqCodes.VALIDATION_FAILED] },
      })
export const readChainLiveDocs = doc({ operationId: 'readChainLive', summary: 'Every branch now', description: 'Waiting, longest wait, counters open, lines over target and when the branch was last heard (it tells every few seconds).', security: 'hqSession', responses: { 200: { description: 'the chain', name: 'ChainLive', schema: M.LiveList } }, errors: signedIn })
export const readBranchLiveDocs = doc({ operationId: 'readBranchLive', summary: 'One branch\'s lines now', security: 'hqSession', params: { queueUnitId: { description: 'the branch', example: 'qu_riyadh' } }, responses: { 200: { description: 'its lines', name: 'BranchLive', schema: M.LiveBranchDetail } }, errors: { ...signedIn, 404: [HqCodes.NOT_FOUND] } })
export const readChainDailyDocs = doc({
        operationId: 'readChainDaily', summary: 'Daily figures across branches', security: 'hqSession',
        description: 'Contract §12\'s figures by day, branch, location and service, read from the roll-ups the branches replicate. `format=csv` answers text/csv with `lobby report`\'s column names.',
        query: {
          from: { description: 'first business day', example: '2026-12-01', required: true },
          to: { description: 'last business day', example: '2026-12-02', required: true },
          queueUnitId: { description: 'one branch only', example: 'qu_riyadh' },
          serviceId: { description: 'one service only', example: 'svc_accounts' },
          format: { description: '`json` (default) or `csv`', example: 'json', schema: { type: 'string', enum: ['json', 'csv'] } },
        },
        responses: { 200: { description: 'the rows', name: 'ChainDaily', schema: M.ReportList } },
        errors: { ...signedIn, 422: [HqCodes.VALIDATION_FAILED] },
      })
