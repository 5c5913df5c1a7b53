import { HttpError } from './herodot.js';

/** The Kratos error ids (docs/kratos-compatibility.md#error-ids), each built in one place. */
export const kratosErrors = {
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
  flowNotFound: () => new HttpError({ code: 404, message: 'Unable to locate the resource' }),
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
