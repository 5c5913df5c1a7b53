export { enqueueMail } from './enqueue-mail.js';
export { createCourier } from './courier-worker.js';
export { registerDevMailbox } from './dev-mailbox.js';
