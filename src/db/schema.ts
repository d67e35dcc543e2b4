// The whole Drizzle schema, gathered from the features that own the tables.
export * from '../provisioning/tables'
export * from '../widgets/tables'
export * from '../prayer/tables'
export * from '../queue/tables'
export * from '../counters/tables'
export * from '../webhooks/tables'
export * from '../platform/tables'
export * from '../voice/tables'
