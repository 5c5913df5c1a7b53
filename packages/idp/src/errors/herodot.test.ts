import { describe, expect, it } from 'vitest';
import { HttpError } from './herodot.js';

describe('herodot envelope', () => {
  it('serialises id, code, status, reason and message in Kratos order, with extra siblings', () => {
    const error = new HttpError({ code: 410, id: 'self_service_flow_expired', reason: 'expired', message: 'self-service flow expired', extra: { use_flow_id: 'abc' } });
    expect(JSON.stringify(error.toEnvelope())).toBe(
      '{"error":{"id":"self_service_flow_expired","code":410,"status":"Gone","reason":"expired","message":"self-service flow expired"},"use_flow_id":"abc"}',
    );
  });

  it('uses the herodot default message and leaves out empty parts', () => {
    expect(new HttpError({ code: 404 }).toEnvelope()).toEqual({
      error: { code: 404, status: 'Not Found', message: 'The requested resource could not be found' },
    });
    expect(new HttpError({ code: 400, details: {} }).toErrorObject()).not.toHaveProperty('details');
  });
});
