import { describe, expect, it } from 'vitest';
import { defaultMessage, HttpError } from './herodot.js';

describe('herodot envelope', () => {
  it('serialises id, code, status, reason and message in Kratos order, with extra siblings', () => {
    const error = new HttpError({
      code: 410,
      id: 'self_service_flow_expired',
      reason: 'expired',
      message: 'self-service flow expired',
      extra: { use_flow_id: 'abc' },
    });
    expect(JSON.stringify(error.toEnvelope())).toBe(
      '{"error":{"id":"self_service_flow_expired","code":410,"status":"Gone","reason":"expired",' +
        '"message":"self-service flow expired"},"use_flow_id":"abc"}',
    );
  });

  it('uses the herodot default message and leaves out empty parts', () => {
    expect(new HttpError({ code: 404 }).toEnvelope()).toEqual({
      error: { code: 404, status: 'Not Found', message: 'The requested resource could not be found' },
    });
    expect(new HttpError({ code: 400, details: {} }).toErrorObject()).not.toHaveProperty('details');
  });
});

describe('herodot envelope, more cases', () => {
  it('includes non-empty details between reason and message', () => {
    const error = new HttpError({ code: 400, reason: 'bad', details: { field: 'email' } });
    expect(Object.keys(error.toErrorObject())).toEqual(['code', 'status', 'reason', 'details', 'message']);
    expect(error.toEnvelope()).toEqual({
      error: {
        code: 400,
        status: 'Bad Request',
        reason: 'bad',
        details: { field: 'email' },
        message: 'The request was malformed or contained invalid parameters',
      },
    });
  });

  it('is an Error whose message is the envelope message', () => {
    const error = new HttpError({ code: 403, message: 'nope' });
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('nope');
    expect(error.toErrorObject().message).toBe('nope');
    expect(error.extra).toEqual({});
  });

  it('falls back to the HTTP status text, then to "Error" and "Unknown"', () => {
    expect(defaultMessage(418)).toBe("I'm a Teapot");
    expect(defaultMessage(503)).toBe('The service is temporarily unavailable, please try again later');
    expect(new HttpError({ code: 599 }).toErrorObject()).toEqual({ code: 599, status: 'Unknown', message: 'Error' });
  });
});
