import { describe, expect, it } from 'vitest';
import { kratosErrors } from './kratos-errors.js';

// The catalogue's envelopes as they go on the wire (docs/kratos-compatibility.md#the-error-envelope): the official
// SDKs and the integration suite read status, id, reason and message, so each is pinned here byte for byte.

const wire = (error: { toEnvelope(): Record<string, unknown> }) => JSON.stringify(error.toEnvelope());

const BAD_REQUEST = 'The request was malformed or contained invalid parameters';

describe("herodot's generic errors", () => {
  it('carry the reason under the status text and herodot message', () => {
    expect(wire(kratosErrors.badRequest('missing flow'))).toBe(
      `{"error":{"code":400,"status":"Bad Request","reason":"missing flow","message":"${BAD_REQUEST}"}}`,
    );
    expect(wire(kratosErrors.notFound('no such flow'))).toBe(
      '{"error":{"code":404,"status":"Not Found","reason":"no such flow",' +
        '"message":"The requested resource could not be found"}}',
    );
    expect(wire(kratosErrors.conflict('taken'))).toBe(
      '{"error":{"code":409,"status":"Conflict","reason":"taken",' +
        '"message":"The resource could not be created due to a conflict"}}',
    );
  });

  it('put field messages in details, between reason and message', () => {
    const messages = [{ id: 4000002, text: 'Property email is missing.', type: 'error', node: 'traits.email' }];
    expect(Object.keys(kratosErrors.badRequest('Property email is missing.', { messages }).toErrorObject())).toEqual([
      'code',
      'status',
      'reason',
      'details',
      'message',
    ]);
  });

  it('leave a 500 bare unless it is meant to say why', () => {
    expect(wire(kratosErrors.internalServerError())).toBe(
      '{"error":{"code":500,"status":"Internal Server Error",' +
        '"message":"An internal server error occurred, please contact the system administrator"}}',
    );
    expect(kratosErrors.internalServerError('This is a stub error.').toErrorObject()).toMatchObject({
      code: 500,
      reason: 'This is a stub error.',
    });
  });

  it('answer an unreadable request with Fastify status and a 503 while the database is away', () => {
    expect(wire(kratosErrors.unreadableRequest(415, 'The request media type is not supported.'))).toBe(
      '{"error":{"code":415,"status":"Unsupported Media Type","reason":"The request media type is not supported.",' +
        '"message":"The request media type is not supported"}}',
    );
    expect(wire(kratosErrors.databaseUnavailable())).toBe(
      '{"error":{"code":503,"status":"Service Unavailable",' +
        '"reason":"The database is unavailable, please try again in a moment.",' +
        '"message":"The service is temporarily unavailable, please try again later"}}',
    );
  });
});

describe('what Kratos names', () => {
  it('answers a missing row with its message, as sqlcon does, and an unknown path with "Not Found"', () => {
    const noRows = '{"error":{"code":404,"status":"Not Found","message":"Unable to locate the resource"}}';
    for (const error of [
      kratosErrors.identityNotFound(),
      kratosErrors.sessionNotFound(),
      kratosErrors.schemaNotFound(),
      kratosErrors.flowNotFound(),
    ]) {
      expect(wire(error)).toBe(noRows);
    }
    expect(wire(kratosErrors.credentialNotFound())).toBe(
      '{"error":{"code":404,"status":"Not Found","reason":"You tried to remove a credential which does not exist.",' +
        '"message":"Unable to locate the resource"}}',
    );
    expect(wire(kratosErrors.routeNotFound())).toBe(
      '{"error":{"code":404,"status":"Not Found","message":"Not Found"}}',
    );
  });

  it('refuses a duplicate identity, a crafted page token, a bad patch and an unknown level', () => {
    expect(wire(kratosErrors.identityConflict())).toBe(
      '{"error":{"code":409,"status":"Conflict",' +
        '"reason":"This identity conflicts with another identity that already exists.",' +
        '"message":"The resource could not be created due to a conflict"}}',
    );
    expect(wire(kratosErrors.invalidPageToken())).toBe(
      '{"error":{"code":400,"status":"Bad Request",' +
        `"reason":"The page token is invalid, do not craft your own page tokens","message":"${BAD_REQUEST}"}}`,
    );
    expect(wire(kratosErrors.jsonPatchFailed())).toBe(
      `{"error":{"code":400,"status":"Bad Request","reason":"failed to apply JSON patch","message":"${BAD_REQUEST}"}}`,
    );
    expect(kratosErrors.unknownAal('aal3').reason).toBe(
      'Unable to parse AuthenticationMethod Assurance Level (AAL): expected one of [aal1, aal2] but got aal3',
    );
  });

  it('names a forbidden return_to in the reason, quoted, with its id', () => {
    expect(wire(kratosErrors.returnToForbidden('https://evil.example/'))).toBe(
      '{"error":{"id":"self_service_flow_return_to_forbidden","code":400,"status":"Bad Request",' +
        `"reason":"Requested return_to URL \\"https://evil.example/\\" is not allowed.","message":"${BAD_REQUEST}"}}`,
    );
  });

  it('explains a CSRF violation with the reject reason, and a hint where there is one', () => {
    const reject = 'The HTTP Cookie Header is empty or not set.';
    expect(kratosErrors.csrfViolation(reject).toEnvelope()).toEqual({
      error: {
        id: 'security_csrf_violation',
        code: 403,
        status: 'Forbidden',
        reason:
          'Please retry the flow and optionally clear your cookies. The request was rejected to protect you from ' +
          'Cross-Site-Request-Forgery (CSRF) which could cause account takeover, leaking personal information, ' +
          'and other serious security issues.',
        details: { docs: 'https://www.ory.com/docs/troubleshooting/csrf', hint: reject, reject_reason: reject },
        message: 'the request was rejected to protect you from Cross-Site-Request-Forgery',
      },
    });
    expect(kratosErrors.csrfViolation(reject, 'more').details).toMatchObject({ hint: 'more', reject_reason: reject });
  });

  it('refuses browser headers on an API flow in Kratos words', () => {
    expect(kratosErrors.originHeaderNeedsBrowserFlow().reason).toBe(
      'The HTTP Request Header included the "Origin" key, indicating that this request was made as part of an AJAX ' +
        'request in a Browser. The flow however was initiated as an API request. To prevent potential misuse and ' +
        'mitigate several attack vectors including CSRF, the request has been blocked. Please consult the ' +
        'documentation.',
    );
    expect(kratosErrors.cookieHeaderNeedsBrowserFlow().reason).toBe(
      'The HTTP Request Header included the "Cookie" key, indicating that this request was made by a Browser. The ' +
        'flow however was initiated as an API request. To prevent potential misuse and mitigate several attack ' +
        'vectors including CSRF, the request has been blocked. Please consult the documentation.',
    );
    expect(kratosErrors.originHeaderNeedsBrowserFlow().code).toBe(400);
  });

  it('refuses a logout without its token, with another one, or with an unknown session token', () => {
    expect(wire(kratosErrors.logoutTokenMissing())).toBe(
      '{"error":{"code":400,"status":"Bad Request","reason":"Please include a token in the URL query.",' +
        `"message":"${BAD_REQUEST}"}}`,
    );
    expect(wire(kratosErrors.logoutTokenMismatch())).toBe(
      '{"error":{"code":403,"status":"Forbidden","reason":"Unable to log out because the logout token in the URL ' +
        'query does not match the session cookie.","message":"The requested action was forbidden"}}',
    );
    expect(wire(kratosErrors.invalidSessionToken())).toBe(
      '{"error":{"code":403,"status":"Forbidden","reason":"The provided Ory Session Token could not be found, is ' +
        'invalid, or otherwise malformed.","message":"The requested action was forbidden"}}',
    );
  });
});
