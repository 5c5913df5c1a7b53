import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../audit/audit-log.js';
import { createRefusalCounts, type RefusalEntry } from './refusal-counts.js';

// The attack: anyone with a session makes refused forward-auth checks as fast as they can send requests (200 in
// 0.7 s), and each wrote an audit row, so the log grew without bound and drowned what it exists for. Refusals are
// counted per session, service, reason and minute instead: one entry each, with the count.

const START = Date.parse('2026-11-26T10:15:00.000Z');

const refusal = (service: string, reason = 'no access to the service'): RefusalEntry => ({
  actorId: 'anna',
  action: 'service.sign_in',
  result: 'denied',
  clientAddress: '192.0.2.1',
  details: { service, reason },
});

let written: AuditEntry[];
const write = async (entry: AuditEntry) => {
  written.push(entry);
};

beforeEach(() => {
  written = [];
  vi.useFakeTimers({ now: START + 5_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createRefusalCounts', () => {
  it('writes one entry with the count for 200 refusals of a session at a service in one minute', async () => {
    const counts = createRefusalCounts(write);
    for (let i = 0; i < 200; i += 1) counts.count('s1', refusal('geheim'));
    expect(written).toEqual([]);
    // The minute turns: its counts are written without a further refusal.
    await vi.advanceTimersByTimeAsync(55_200);
    expect(written).toEqual([
      {
        ...refusal('geheim'),
        details: {
          service: 'geheim',
          reason: 'no access to the service',
          count: 200,
          minute: '2026-11-26T10:15:00.000Z',
        },
      },
    ]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(written).toHaveLength(1);
  });

  it('counts each session, service, reason and minute apart', async () => {
    const counts = createRefusalCounts(write);
    counts.count('s1', refusal('geheim'));
    counts.count('s1', refusal('geheim'));
    counts.count('s2', refusal('geheim'));
    counts.count('s1', refusal('kaart'));
    counts.count('s1', refusal('geheim', 'second factor required'));
    vi.setSystemTime(START + 60_000);
    // The next minute's first refusal writes the minute that is over, before the timer does.
    counts.count('s1', refusal('geheim'));
    const summary = () => written.map((e) => `${e.details?.service} ${e.details?.reason} ${e.details?.count}`);
    expect(summary()).toEqual([
      'geheim no access to the service 2',
      'geheim no access to the service 1',
      'kaart no access to the service 1',
      'geheim second factor required 1',
    ]);
    await counts.flush();
    expect(written.at(-1)?.details).toMatchObject({ service: 'geheim', count: 1, minute: '2026-11-26T10:16:00.000Z' });
    expect(written).toHaveLength(5);
  });

  it('writes the current minute on flush (shutdown), and nothing twice', async () => {
    const counts = createRefusalCounts(write);
    counts.count('s1', refusal('geheim'));
    counts.count('s1', refusal('geheim'));
    await counts.flush();
    expect(written.map((e) => e.details?.count)).toEqual([2]);
    await vi.advanceTimersByTimeAsync(120_000);
    await counts.flush();
    expect(written).toHaveLength(1);
  });

  it('writes every open count at once past its limit, so memory stays bounded', () => {
    const counts = createRefusalCounts(write, { limit: 3 });
    for (const session of ['a', 'b', 'c']) counts.count(session, refusal('geheim'));
    expect(written).toEqual([]);
    counts.count('d', refusal('geheim'));
    expect(written).toHaveLength(4);
  });

  it('loses the count of a failed write without throwing into the check', async () => {
    const counts = createRefusalCounts(() => Promise.reject(new Error('database gone')));
    counts.count('s1', refusal('geheim'));
    await expect(counts.flush()).resolves.toBeUndefined();
  });
});
