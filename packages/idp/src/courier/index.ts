export { enqueueMail } from './enqueue-mail.js';
export { createCourier } from './courier-worker.js';
export { registerDevMailbox } from './dev-mailbox.js';
export { countMailsByStatus, listMails, retryAbandonedMails, type MailStatus } from './mail-queue-admin.js';
