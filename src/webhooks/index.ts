/*
 * The webhooks feature's door: what another folder of src/ may use of it. Nothing else of
 * src/webhooks/ is imported from outside (test/platform/imports.test.ts).
 */
export { deleteDeliveriesCreatedBefore, deliveryBacklog, listDeliveries, readDelivery, redeliver, redeliverFailed, type DeliveryListing } from './deliveries'
export { webhooksDoc, type WaitTargetExceeded } from './model'
export { WebhookOutbox, tapOutboxEvents, type OutboxEvent } from './outbox'
export { webhooks } from './tables'
export { WebhookWorker } from './worker'
