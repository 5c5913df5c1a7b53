import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';

/**
 * Another UI (Ory's own, or a municipality's) can serve the screens elsewhere, set with Kratos' own variables; the
 * browser is then sent there instead of to the portal's paths.
 */
const UI = 'https://ui.voorbeeldstad.nl';
let portaal: Portaal;
beforeAll(async () => {
  portaal = await startPortaal({
    env: {
      SELFSERVICE_FLOWS_LOGIN_UI_URL: `${UI}/inloggen`,
      SELFSERVICE_FLOWS_RECOVERY_UI_URL: `${UI}/herstel`,
      SELFSERVICE_FLOWS_ERROR_UI_URL: `${UI}/fout`,
    },
  });
});
afterAll(async () => {
  await portaal?.stop();
});

const browserGet = (path: string) =>
  fetch(`${portaal.publicUrl}${path}`, { headers: { accept: 'text/html' }, redirect: 'manual' });

describe('configured UI locations', () => {
  it('send new browser flows to the configured screens', async () => {
    for (const [path, screen] of [
      ['/self-service/login/browser', `${UI}/inloggen`],
      ['/self-service/recovery/browser', `${UI}/herstel`],
    ] as const) {
      const answer = await browserGet(path);
      expect(answer.status).toBe(303);
      const location = new URL(answer.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(screen);
      expect(location.searchParams.get('flow')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("keep the portal's own path for a screen that is not configured", async () => {
    const answer = await browserGet('/self-service/verification/browser');
    expect(new URL(answer.headers.get('location')!).toString()).toMatch(
      new RegExp(`^${portaal.publicUrl}/verification\\?flow=`),
    );
  });

  it('show browser errors on the configured error screen', async () => {
    const answer = await browserGet('/self-service/login/browser?return_to=https://elders.example/');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toMatch(new RegExp(`^${UI}/fout\\?id=`));
  });
});
