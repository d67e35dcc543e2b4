/*
 * The replication feature's door: what another folder of src/ may use of it. Nothing else of
 * src/replication/ is imported from outside (test/platform/imports.test.ts).
 */
export { HEAD_OFFICE_SCHEMA_VERSION, migrateHeadOffice } from './postgres-schema'
export { replicationStatus, type ReplicationStatus } from './state'
export { parseReplicationTarget, type ReplicationTarget } from './target'

/** The replicator, loaded only when replicating (the PostgreSQL client and the feed cost ~7 ms of every start otherwise). */
export async function loadReplicator() {
  return (await import('./replicator')).Replicator
}
