export { createFailureThrottle, identifierKey, clientAddressKey } from './failure-throttle.js';
