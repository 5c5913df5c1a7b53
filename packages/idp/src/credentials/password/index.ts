export { createPasswordHasher } from './password-hasher.js';
export { createPasswordPolicy, loadCommonPasswords } from './password-policy.js';
