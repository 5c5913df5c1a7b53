import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPerson } from '../support/flows.js';
import { startPortaal, type Portaal } from '../support/portaal.js';

/** With a short idle timeout, use must still keep a session alive: the idle clock is written often enough. */
let portaal: Portaal;
beforeAll(async () => {
  portaal = await startPortaal({ env: { SESSION_IDLE_TIMEOUT: '6s' } });
});
afterAll(async () => {
  await portaal?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a short idle timeout', () => {
  it('keeps a session in use alive past the timeout, and ends it once it is left alone', async () => {
    const { browser } = await signedInPerson(portaal);
    const whoami = async () => (await browser.fetch(`${portaal.publicUrl}/sessions/whoami`)).status;
    for (let second = 0; second < 10; second += 2) {
      expect(await whoami(), `after ${second} s of use`).toBe(200);
      await sleep(2_000);
    }
    expect(await whoami()).toBe(200);
    await sleep(7_000);
    expect(await whoami()).toBe(401);
  });
});
