import { errors } from '../http/api-error.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user id from the path or query; anything that is not one reads as someone who is not a member (404). */
export const idParam = (value: unknown): string => {
  if (typeof value !== 'string' || !UUID.test(value)) throw errors.notMember();
  return value.toLowerCase();
};
