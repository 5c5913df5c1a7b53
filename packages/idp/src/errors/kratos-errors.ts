import { HttpError } from './herodot.js';

/**
 * What Kratos answers when it cannot find a row by its id (ory/x sqlcon's `ErrNoRows`): a 404 whose message, not its
 * reason, says so.
 */
const noRows = (reason?: string) => new HttpError({ code: 404, message: 'Unable to locate the resource', reason });

const CSRF_REASON =
  'Please retry the flow and optionally clear your cookies. The request was rejected to protect you from ' +
  'Cross-Site-Request-Forgery (CSRF) which could cause account takeover, leaking personal information, ' +
  'and other serious security issues.';

const browserHeaderOnApiFlow = (header: 'Origin' | 'Cookie', indication: string) =>
  new HttpError({
    code: 400,
    reason:
      `The HTTP Request Header included the "${header}" key, indicating that ${indication}. ` +
      'The flow however was initiated as an API request. To prevent potential misuse and mitigate several ' +
      'attack vectors including CSRF, the request has been blocked. Please consult the documentation.',
  });

/**
 * Every error the identity provider answers, each built in one place (docs/kratos-compatibility.md#the-error-envelope
 * and #error-ids). The first entries are herodot's generic errors, as Kratos uses them with a reason of its own
 * (`herodot.ErrBadRequest.WithReason(…)`); the others are the errors Kratos names.
 */
export const kratosErrors = {
  /** herodot's `ErrBadRequest`; `details` carries the field messages a caller may translate. */
  badRequest: (reason: string, details?: Record<string, unknown>) => new HttpError({ code: 400, reason, details }),
  /** herodot's `ErrNotFound`. */
  notFound: (reason: string) => new HttpError({ code: 404, reason }),
  /** herodot's `ErrConflict`. */
  conflict: (reason: string) => new HttpError({ code: 409, reason }),
  /** herodot's `ErrInternalServerError`: a bare 500 that reveals nothing, unless a reason is meant to be seen. */
  internalServerError: (reason?: string) => new HttpError({ code: 500, reason }),
  /** A database out of reach for now (docs/architecture.md#start-and-stop). */
  databaseUnavailable: () =>
    new HttpError({ code: 503, reason: 'The database is unavailable, please try again in a moment.' }),
  /** A request Fastify could not read (bad JSON, wrong media type, body too large), with Fastify's 4xx status. */
  unreadableRequest: (code: number, reason: string) => new HttpError({ code, reason }),
  /** A path no route serves, as Kratos' router answers it. */
  routeNotFound: () => new HttpError({ code: 404, message: 'Not Found' }),

  identityNotFound: () => noRows(),
  sessionNotFound: () => noRows(),
  /** `DELETE /sessions/{id}` with the caller's own session: its message, not its reason, says so. */
  cannotRevokeCurrentSession: () => new HttpError({ code: 400, message: 'cannot revoke current session' }),
  schemaNotFound: () => noRows(),
  credentialNotFound: () => noRows('You tried to remove a credential which does not exist.'),
  identityConflict: () =>
    new HttpError({ code: 409, reason: 'This identity conflicts with another identity that already exists.' }),
  invalidPageToken: () =>
    new HttpError({ code: 400, reason: 'The page token is invalid, do not craft your own page tokens' }),
  jsonPatchFailed: () => new HttpError({ code: 400, reason: 'failed to apply JSON patch' }),
  unknownAal: (aal: string) =>
    new HttpError({
      code: 400,
      reason: `Unable to parse AuthenticationMethod Assurance Level (AAL): expected one of [aal1, aal2] but got ${aal}`,
    }),
  returnToForbidden: (value: string) =>
    new HttpError({
      code: 400,
      id: 'self_service_flow_return_to_forbidden',
      reason: `Requested return_to URL ${JSON.stringify(value)} is not allowed.`,
    }),
  /** docs/kratos-compatibility.md#csrf: `hint` says more than the reject reason where Kratos does. */
  csrfViolation: (rejectReason: string, hint?: string) =>
    new HttpError({
      code: 403,
      id: 'security_csrf_violation',
      message: 'the request was rejected to protect you from Cross-Site-Request-Forgery',
      reason: CSRF_REASON,
      details: {
        docs: 'https://www.ory.com/docs/troubleshooting/csrf',
        hint: hint ?? rejectReason,
        reject_reason: rejectReason,
      },
    }),
  /** An API flow submitted with a browser's `Origin` header (Kratos' `ErrOriginHeaderNeedsBrowserFlow`). */
  originHeaderNeedsBrowserFlow: () =>
    browserHeaderOnApiFlow('Origin', 'this request was made as part of an AJAX request in a Browser'),
  /** An API flow submitted with a browser's cookies (Kratos' `ErrCookieHeaderNeedsBrowserFlow`). */
  cookieHeaderNeedsBrowserFlow: () => browserHeaderOnApiFlow('Cookie', 'this request was made by a Browser'),
  logoutTokenMissing: () => new HttpError({ code: 400, reason: 'Please include a token in the URL query.' }),
  logoutTokenMismatch: () =>
    new HttpError({
      code: 403,
      reason: 'Unable to log out because the logout token in the URL query does not match the session cookie.',
    }),
  invalidSessionToken: () =>
    new HttpError({
      code: 403,
      reason: 'The provided Ory Session Token could not be found, is invalid, or otherwise malformed.',
    }),
  sessionAlreadyAvailable: (flow: 'login' | 'registration' | 'recovery') =>
    new HttpError({
      code: 400,
      id: 'session_already_available',
      message: flow === 'recovery' ? undefined : 'you are already logged in',
      reason:
        flow === 'login'
          ? 'A valid session was detected and thus login is not possible. Did you forget to set `?refresh=true`?'
          : `A valid session was detected and thus ${flow} is not possible.`,
    }),
  sessionAal1Required: () =>
    new HttpError({
      code: 401,
      id: 'session_aal1_required',
      message: 'aal2 and aal3 can only be requested if a session exists already',
      reason: 'You can not requested a higher AAL (AAL2/AAL3) without an active session.',
    }),
  sessionAal2Required: (redirectTo: string) =>
    new HttpError({
      code: 403,
      id: 'session_aal2_required',
      message: 'Session does not fulfill the requested Authenticator Assurance Level',
      reason:
        'An active session was found but it does not fulfill the requested Authenticator Assurance Level. ' +
        'Please verify yourself with a second factor to resolve this issue.',
      details: { redirect_browser_to: redirectTo },
      extra: { redirect_browser_to: redirectTo },
    }),
  sessionRefreshRequired: (redirectTo: string) =>
    new HttpError({
      code: 403,
      id: 'session_refresh_required',
      reason: 'The login session is too old and thus not allowed to update these fields. Please re-authenticate.',
      extra: { redirect_browser_to: redirectTo },
    }),
  sessionInactive: (reason = 'No active session was found in this request.') =>
    new HttpError({
      code: 401,
      id: 'session_inactive',
      message: 'request does not have a valid authentication session',
      reason,
    }),
  /** whoami and settings answer 401 without an id (docs/kratos-compatibility.md#error-ids). */
  noSessionCredentials: (reason = 'No valid session credentials found in the request.') =>
    new HttpError({ code: 401, reason }),
  browserLocationChangeRequired: (url: string) =>
    new HttpError({
      code: 422,
      id: 'browser_location_change_required',
      message: 'browser location change required',
      reason: `In order to complete this flow please redirect the browser to: ${url}`,
      extra: { redirect_browser_to: url },
    }),
  flowExpired: (newFlowId: string, expiredAt: Date, now: Date) =>
    new HttpError({
      code: 410,
      id: 'self_service_flow_expired',
      message: 'self-service flow expired',
      reason:
        `The self-service flow expired ${((now.getTime() - expiredAt.getTime()) / 60_000).toFixed(2)} minutes ago, ` +
        'initialize a new one.',
      extra: {
        expired_at: expiredAt.toISOString(),
        since: (now.getTime() - expiredAt.getTime()) * 1_000_000,
        use_flow_id: newFlowId,
      },
    }),
  flowReplaced: (newFlowId: string) =>
    new HttpError({
      code: 410,
      id: 'self_service_flow_replaced',
      message: 'self-service flow replaced',
      reason: 'An error occured, please use the new flow.',
      extra: { use_flow_id: newFlowId },
    }),
  flowDisabled: () =>
    new HttpError({
      code: 400,
      id: 'self_service_flow_disabled',
      message: 'registration flow disabled',
      reason: 'Registration is not allowed because it was disabled.',
    }),
  identityMismatch: (onSubmit: boolean) =>
    new HttpError({
      code: 403,
      id: 'security_identity_mismatch',
      reason: onSubmit
        ? 'The request was initiated by someone else and has been blocked for security reasons. ' +
          'Please go back and try again.'
        : 'The request was made for another identity and has been blocked for security reasons.',
    }),
  flowNotFound: () => noRows(),
  /**
   * GET of an expired flow (docs/kratos-compatibility.md#flow-objects): a browser flow names the init URL to send the
   * browser to, an API flow the init API endpoint.
   */
  flowExpiredOnGet: (
    kind: string,
    type: 'browser' | 'api',
    initUrl: string,
    returnTo: string | null,
    withId: boolean,
  ) =>
    new HttpError({
      code: 410,
      id: withId ? 'self_service_flow_expired' : undefined,
      reason:
        type === 'browser'
          ? `The ${kind} flow has expired. ` +
            `Redirect the user to the ${kind} flow init endpoint to initialize a new ${kind} flow.`
          : `The ${kind} flow has expired. Call the ${kind} flow init API endpoint to initialize a new ${kind} flow.`,
      details:
        type === 'browser' ? { redirect_to: initUrl, ...(returnTo ? { return_to: returnTo } : {}) } : { api: initUrl },
    }),
};
