// The door of head office (contract §26) for the branch: what the admin console checks against
// (HQ_MANAGED) and the actor of head office's changes. The two heavy halves are loaded only by
// the one command that runs them, like replication's replicator: `./branch-link` by `serve --hq`
// (src/root/tasks.ts) and `./app` by `lobby hq serve` (src/cli/hq.ts), so a branch start without
// head office loads neither the PostgreSQL work nor the HQ server.
export { assertNotManaged, appliedProfile } from './managed'
export { HqCodes, type HqCode } from './errors'
export { HQ_ACTOR, MANAGED_SERVICE_FIELDS, type ProfileContent } from './profile'
