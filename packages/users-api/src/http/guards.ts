import type { FastifyRequest } from 'fastify';
import type { Caller } from '../users/caller.js';
import type { AdminCaller, ApiContext } from '../context.js';
import { adminOf, callerOf, programmeAdminOf } from './callers.js';

// Who calls, settled once per request by the route's guard; a WeakMap so that nothing outlives the request.
const callers = new WeakMap<FastifyRequest, Caller>();

/**
 * A route's `preValidation` guard: a person with a live session (`callerOf`). It runs before the route's declared
 * schemas are checked, so that a caller who may not call learns nothing about the input the call takes.
 */
export const signedIn =
  (ctx: ApiContext, options: { aal1?: boolean } = {}) =>
  async (request: FastifyRequest): Promise<void> => {
    callers.set(request, await callerOf(ctx, request, options));
  };

/** A route's `preValidation` guard: an administrator of the active organisation (`adminOf`, refusals audited). */
export const administrator =
  (ctx: ApiContext, action: string) =>
  async (request: FastifyRequest): Promise<void> => {
    callers.set(request, await adminOf(ctx, request, action));
  };

/** A route's `preValidation` guard: a programme administrator at aal2 (`programmeAdminOf`, refusals audited). */
export const programmeAdministrator =
  (ctx: ApiContext, action: string) =>
  async (request: FastifyRequest): Promise<void> => {
    callers.set(request, await programmeAdminOf(ctx, request, action));
  };

/** The caller the route's guard settled. */
export function callerIn(request: FastifyRequest): Caller {
  const caller = callers.get(request);
  if (!caller) throw new Error(`${request.routeOptions.url ?? request.url} has no guard`);
  return caller;
}

/** The administrator the route's `administrator` guard settled. */
export const adminIn = (request: FastifyRequest): AdminCaller => callerIn(request) as AdminCaller;
