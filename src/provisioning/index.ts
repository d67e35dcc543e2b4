/*
 * The provisioning feature's door: what another folder of src/ may use of it. Nothing else of
 * src/provisioning/ is imported from outside (test/platform/imports.test.ts).
 */
export { exportProvisioning, exportQueueUnit, type UnitPart } from './export'
export { DEFAULT_QUEUE_SCOPES, NamedKey, ProvisionedEntities, QUEUE_SCOPES, QueueKey, WEBHOOK_EVENTS, Webhook, MAX_BREAK_REASONS, MAX_BREAK_REASON_LENGTH, MAX_NORMAL_PER_PRIORITY, type ProvisionedQueueUnit, type ProvisioningFile } from './model'
export { ProvisioningError, applyProvisioning, applyProvisioningWithin, parseProvisioningText } from './service'
