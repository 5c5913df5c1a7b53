import type { FastifyReply } from 'fastify';
import type { IdpConfig } from '../config.js';
import { clearSessionCookie, setCsrfCookie, setSessionCookie } from './cookies.js';

/**
 * What a step asks of the answer besides its outcome: a session cookie set or cleared, a new anti-CSRF cookie, a
 * header. Steps only record them; `answer.ts` writes them onto the reply, also when the step then fails, as the
 * error's answer carries them too.
 */
export interface AnswerEffects {
  setSession(token: string, expiresAt: Date, now: Date): void;
  clearSession(): void;
  setCsrf(token: string): void;
  header(name: string, value: string): void;
}

export interface CollectedEffects extends AnswerEffects {
  /** Writes what was recorded onto the reply; called once, by answer.ts. */
  applyTo(reply: FastifyReply, config: IdpConfig): void;
}

export function collectEffects(): CollectedEffects {
  const effects: Array<(reply: FastifyReply, config: IdpConfig) => void> = [];
  return {
    setSession: (token, expiresAt, now) =>
      effects.push((reply, config) => setSessionCookie(reply, config, token, expiresAt, now)),
    clearSession: () => effects.push((reply, config) => clearSessionCookie(reply, config)),
    setCsrf: (token) => effects.push((reply, config) => setCsrfCookie(reply, config, token)),
    header: (name, value) => effects.push((reply) => void reply.header(name, value)),
    applyTo(reply, config) {
      for (const effect of effects.splice(0)) effect(reply, config);
    },
  };
}
