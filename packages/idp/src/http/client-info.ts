import type { FastifyRequest } from 'fastify';

/** The client as this listener sees it; `X-Forwarded-For` is trusted only when the server is told to. */
export const clientAddress = (request: FastifyRequest): string => request.ip ?? '';
export const userAgent = (request: FastifyRequest): string => String(request.headers['user-agent'] ?? '');
