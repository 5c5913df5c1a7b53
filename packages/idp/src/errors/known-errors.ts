import { IdentityConflictError, IdentityNotFoundError } from '../identities/identity-errors.js';
import { HttpError } from './herodot.js';
import { kratosErrors } from './kratos-errors.js';

/** The Kratos error an error stands for: an HttpError itself, a repository's refusal as Kratos answers it. */
export function httpErrorOf(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof IdentityConflictError) return kratosErrors.identityConflict();
  if (error instanceof IdentityNotFoundError) return kratosErrors.identityNotFound();
  return undefined;
}
