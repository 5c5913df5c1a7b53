import type { FastifyRequest } from 'fastify';

/** The client as this listener sees it: the peer address (`X-Forwarded-For` is not trusted; see README). */
export const clientAddress = (request: FastifyRequest): string => request.ip ?? '';
export const userAgent = (request: FastifyRequest): string => String(request.headers['user-agent'] ?? '');
