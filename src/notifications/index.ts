/*
 * The notifications feature's door (contract §25): SMS, e-mail and web push to customers who
 * opted in. Other features and the composition root import from here.
 */
export { NotificationService, MAX_CONTACTS_PER_TICKET, type OptIn, type PreparedContact, type ShownContact, type MessageView } from './service'
export { NotificationWorker, RETRY_WINDOW_MS as NOTIFICATION_RETRY_WINDOW_MS } from './worker'
export { NotificationCodes, NotificationErrorExamples } from './errors'
export { NotificationSettings, TEMPLATE_KINDS, TEMPLATE_VARIABLES, DEFAULT_TEMPLATES, templateProblems, type TemplateKind } from './model'
export { readChannels, exportedSettings, settingsProblems, writeNotificationSettings, type WorkspaceChannels } from './settings'
export type { NotificationChannel } from './tables'
export { maskContact, maskPhone, maskEmail, parsePhone, parseEmail } from './contacts'
