export { enqueueMail } from './enqueue-mail.js';
export { createCourier, type Courier } from './courier-worker.js';
export { registerDevMailbox } from './dev-mailbox.js';
