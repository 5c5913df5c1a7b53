/**
 * What the identity repository refuses, in its own terms: each package's edge says it in its own protocol (the
 * Kratos envelope through `errors/known-errors.ts`, the Users API's ConflictError through its embedded backend).
 */

/** An address or identifier that another identity already has. */
export class IdentityConflictError extends Error {
  constructor() {
    super('This identity conflicts with another identity that already exists.');
    this.name = 'IdentityConflictError';
  }
}

/** No identity with that id. */
export class IdentityNotFoundError extends Error {
  constructor() {
    super('The identity does not exist.');
    this.name = 'IdentityNotFoundError';
  }
}
