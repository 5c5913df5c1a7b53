import { STATUS_CODES } from 'node:http';

/** An error in Keto's herodot envelope (docs/kratos-compatibility.md#the-error-envelope). */
export class KetoError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly reason?: string,
  ) {
    super(message);
  }

  toEnvelope() {
    return {
      error: {
        code: this.code,
        status: STATUS_CODES[this.code] ?? 'Error',
        ...(this.reason ? { reason: this.reason } : {}),
        message: this.message,
      },
    };
  }
}

export const badRequest = (message: string) => new KetoError(400, message);
export const unknownNamespace = (namespace: string) =>
  new KetoError(404, 'The requested resource could not be found', `Unknown namespace with name "${namespace}".`);
