import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPortaal } from '../support/portaal.js';
import { DEMO_PASSWORD } from '../support/portal-users.js';
import { useJourney } from './support/journey.js';
import { expectPlainPageFits } from './support/layout.js';
import { signInWithPassword } from './support/sign-in.js';

// Journey 24: the pages the server renders outside the web app, where people arrive from a data service, look and
// behave like the rest of the portal (packages/users-api/src/http/house-page.ts): the programme's header, Dutch, no
// sideways scrolling, controls inside the window, no axe violations, at 375 and 1280 px. The provider's logout
// question and 'Geen toegang' are walked in journey 23 (apache-oidc.test.ts).
const journey = useJourney({ args: ['--demo'] });

describe("journey 24: the server's own pages in the portal's house style", () => {
  it("shows the provider's error page with the portal's header", async () => {
    const page = await journey.person('error');
    const answer = await page.goto(
      `${journey.portaal.publicUrl}/oidc/auth?client_id=onbekend&response_type=code&scope=openid` +
        '&redirect_uri=https%3A%2F%2Fonbekend.example.nl%2Fcallback',
    );
    expect(answer?.status()).toBe(400);
    await expect.poll(() => page.getByRole('banner').textContent()).toContain('Datavoorzieningen VNG');
    await page.getByRole('heading', { level: 1, name: 'Inloggen bij de datavoorziening is niet gelukt' }).waitFor();
    await expectPlainPageFits(page, "the provider's error page");
  });

  it("shows forward authentication's refusal page, for a proxy that passes it on, in the house style", async () => {
    const page = await journey.person('refusal');
    await signInWithPassword(page, 'analist@dego.nl', DEMO_PASSWORD);
    await page.waitForURL((url) => url.pathname !== '/login');
    const answer = await page.goto(
      `${journey.portaal.publicUrl}/api/forward-auth?service=woningbouwplanner&redirect=true`,
    );
    expect(answer?.status()).toBe(403);
    await page.getByRole('heading', { level: 1, name: 'Geen toegang' }).waitFor();
    expect(await page.getByRole('banner').textContent()).toContain('Datavoorzieningen VNG');
    // The Content-Security-Policy allows the page's own style: it is applied, not blocked.
    const background = await page.evaluate(() => getComputedStyle(document.querySelector('header')!).backgroundColor);
    expect(background).toBe('rgb(38, 45, 48)');
    await expectPlainPageFits(page, "forward authentication's refusal page");
  });

  it('says in the house style that signing in at a service cannot be done while the keys differ', async () => {
    // A second process on the same database with its own data directory, so its own generated signing key: every
    // `/oidc` address then answers 503 (docs/operations.md#oidc-signing-keys).
    const { portaal } = journey;
    const databaseUrl = portaal.env.DATABASE_URL ?? path.join(portaal.dataDir, 'portaal.sqlite');
    const other = await startPortaal({ env: { DATABASE_URL: databaseUrl } });
    try {
      const page = await journey.person('keys-differ');
      const answer = await page.goto(`${other.publicUrl}/oidc/.well-known/openid-configuration`);
      expect(answer?.status()).toBe(503);
      await page.getByRole('heading', { level: 1, name: 'Inloggen bij datavoorzieningen kan nu niet' }).waitFor();
      expect(await page.getByRole('banner').textContent()).toContain('Datavoorzieningen VNG');
      await expectPlainPageFits(page, 'the page while the signing keys differ');
    } finally {
      await other.stop();
    }
  });
});
