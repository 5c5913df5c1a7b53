import { STATUS_CODES } from 'node:http';

/**
 * The one error type of the identity provider. It serialises to the herodot envelope that Kratos and Keto send
 * (docs/kratos-compatibility.md#the-error-envelope):
 * `{"error": {id, code, status, reason, message, details}, ...extra}`.
 */
export class HttpError extends Error {
  readonly code: number;
  readonly id: string | undefined;
  readonly reason: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  /** Top-level siblings of `error`, such as `redirect_browser_to` or `use_flow_id`. */
  readonly extra: Record<string, unknown>;

  constructor(init: {
    code: number;
    id?: string;
    message?: string;
    reason?: string;
    details?: Record<string, unknown>;
    extra?: Record<string, unknown>;
  }) {
    super(init.message ?? defaultMessage(init.code));
    this.code = init.code;
    this.id = init.id;
    this.reason = init.reason;
    this.details = init.details;
    this.extra = init.extra ?? {};
  }

  /** The `error` object itself (also what `/self-service/errors` stores). */
  toErrorObject(): Record<string, unknown> {
    const error: Record<string, unknown> = {};
    if (this.id) error.id = this.id;
    error.code = this.code;
    error.status = STATUS_CODES[this.code] ?? 'Unknown';
    if (this.reason) error.reason = this.reason;
    if (this.details && Object.keys(this.details).length > 0) error.details = this.details;
    error.message = this.message;
    return error;
  }

  toEnvelope(): Record<string, unknown> {
    return { error: this.toErrorObject(), ...this.extra };
  }
}

const defaultMessages: Record<number, string> = {
  400: 'The request was malformed or contained invalid parameters',
  401: 'The request could not be authorized',
  403: 'The requested action was forbidden',
  404: 'The requested resource could not be found',
  405: 'The request method is not allowed',
  409: 'The resource could not be created due to a conflict',
  410: 'The requested resource is no longer available because it has expired or is otherwise invalid.',
  413: 'The request body is too large',
  415: 'The request media type is not supported',
  422: 'The request was well-formed but was unable to be followed due to semantic errors',
  429: 'Too many requests were sent, please try again later',
  500: 'An internal server error occurred, please contact the system administrator',
  503: 'The service is temporarily unavailable, please try again later',
};

export function defaultMessage(code: number): string {
  return defaultMessages[code] ?? STATUS_CODES[code] ?? 'Error';
}
