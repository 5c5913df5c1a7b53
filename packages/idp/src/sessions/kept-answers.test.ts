import { describe, expect, it } from 'vitest';
import { KeptAnswers, presentedCredentials, unchangedUntil } from './kept-answers.js';

describe('KeptAnswers', () => {
  it('gives an answer back while the mark stays and its time lasts, and forgets it once either moves', () => {
    const kept = new KeptAnswers<string>(10);
    kept.keep('token-a', 'mark-1', 1_000, 'answer');
    expect(kept.get('token-a', 'mark-1', 999)).toBe('answer');
    expect(kept.get('token-b', 'mark-1', 999)).toBeUndefined();
    expect(kept.get('token-a', 'mark-1', 1_000), 'its time has come').toBeUndefined();
    kept.keep('token-a', 'mark-1', 1_000, 'answer');
    expect(kept.get('token-a', 'mark-2', 10), 'the database changed').toBeUndefined();
    expect(kept.get('token-a', 'mark-1', 10), 'forgotten, not kept for the old mark').toBeUndefined();
  });

  it('keeps at most its limit, dropping the oldest first', () => {
    const kept = new KeptAnswers<number>(2);
    kept.keep('a', 'm', 10, 1);
    kept.keep('b', 'm', 10, 2);
    kept.keep('c', 'm', 10, 3);
    expect([kept.get('a', 'm', 0), kept.get('b', 'm', 0), kept.get('c', 'm', 0)]).toEqual([undefined, 2, 3]);
  });
});

describe('what an answer about a session is kept by, and for how long', () => {
  it('tells apart every way of presenting a session', () => {
    const keys = [
      { cookie: 'ory_kratos_session=a' },
      { 'x-session-token': 'a' },
      { authorization: 'Bearer a' },
      { cookie: 'ory_kratos_session=a', 'x-session-token': 'b' },
    ].map(presentedCredentials);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('lasts until the session expires, its idle clock is due or a replaced token ends, whichever comes first', () => {
    const at = (iso: string) => Date.parse(iso);
    const session = { expiresAt: '2026-11-27T00:00:00.000Z', lastSeenAt: '2026-11-26T12:00:00.000Z' };
    // An idle timeout of an hour: the clock is written once a minute.
    expect(unchangedUntil({ session }, 3_600_000)).toBe(at('2026-11-26T12:01:00.000Z'));
    expect(unchangedUntil({ session: { ...session, expiresAt: '2026-11-26T12:00:30.000Z' } }, 3_600_000)).toBe(
      at('2026-11-26T12:00:30.000Z'),
    );
    // A short idle timeout of 5 minutes: written every 30 seconds.
    expect(unchangedUntil({ session }, 300_000)).toBe(at('2026-11-26T12:00:30.000Z'));
    // Presented with a token a renewal replaced: no longer than its grace window.
    expect(unchangedUntil({ session, presentedTokenEndsAt: '2026-11-26T12:00:20.000Z' }, 3_600_000)).toBe(
      at('2026-11-26T12:00:20.000Z'),
    );
  });
});
