import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startPortaal } from '../support/portaal.js';
import { DEMO_PASSWORD } from '../support/portal-users.js';
import { useJourney } from './support/journey.js';
import { expectPlainPageFits, resizeTo } from './support/layout.js';
import { signInWithPassword } from './support/sign-in.js';

// Journey 24: the pages the server renders outside the web app, where people arrive from a data service, look and
// behave like the rest of the portal (packages/users-api/src/http/house-page.ts): the programme's header, Dutch, no
// sideways scrolling, controls inside the window, no axe violations, at 375 and 1280 px. The provider's logout
// question and 'Geen toegang' are walked in journey 23 (apache-oidc.test.ts). The installation sets its own title
// (PORTAL_TITLE, PORTAL_DESCRIPTION): these pages name it as the web app does.
const TITLE = 'Datavoorzieningen Súdwest-Fryslân';
const DESCRIPTION = 'Gegevens voor de gemeente en haar partners';
const journey = useJourney({ args: ['--demo'], env: { PORTAL_TITLE: TITLE, PORTAL_DESCRIPTION: DESCRIPTION } });
/** Set JOURNEY_SCREENSHOTS to a folder to keep pictures to look at by eye. */
const SCREENSHOTS = process.env.JOURNEY_SCREENSHOTS;

/** The page's header names the installation, not the programme, at 375 and 1280 px. */
async function expectOwnTitle(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await resizeTo(page, { width, height: 800 });
    const banner = page.getByRole('banner');
    await expect.poll(() => banner.innerText()).toContain(TITLE);
    expect(await banner.innerText()).toContain(DESCRIPTION);
    expect(await banner.innerText()).not.toContain('VNG');
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}-${width}.png`, fullPage: true });
  }
}

describe("journey 24: the server's own pages in the portal's house style", () => {
  it("shows the provider's error page with the portal's header", async () => {
    const page = await journey.person('error');
    const answer = await page.goto(
      `${journey.portaal.publicUrl}/oidc/auth?client_id=onbekend&response_type=code&scope=openid` +
        '&redirect_uri=https%3A%2F%2Fonbekend.example.nl%2Fcallback',
    );
    expect(answer?.status()).toBe(400);
    await page.getByRole('heading', { level: 1, name: 'Inloggen bij de datavoorziening is niet gelukt' }).waitFor();
    await expectOwnTitle(page, 'provider-error');
    await expectPlainPageFits(page, "the provider's error page");
  });

  it("shows forward authentication's refusal page, for a proxy that passes it on, in the house style", async () => {
    const page = await journey.person('refusal');
    await signInWithPassword(page, 'analist@dego.nl', DEMO_PASSWORD);
    await page.waitForURL((url) => url.pathname !== '/login');
    // The web app's own header names the same title.
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expectOwnTitle(page, 'web-app');
    const answer = await page.goto(
      `${journey.portaal.publicUrl}/api/forward-auth?service=woningbouwplanner&redirect=true`,
    );
    expect(answer?.status()).toBe(403);
    await page.getByRole('heading', { level: 1, name: 'Geen toegang' }).waitFor();
    await expectOwnTitle(page, 'refusal');
    // The Content-Security-Policy allows the page's own style: it is applied, not blocked.
    const background = await page.evaluate(() => getComputedStyle(document.querySelector('header')!).backgroundColor);
    expect(background).toBe('rgb(38, 45, 48)');
    await expectPlainPageFits(page, "forward authentication's refusal page");
  });

  it("shows the provider's signed-out page, for a sign-out without a service to return to", async () => {
    const page = await journey.person('signed-out');
    // Without a provider session there is nothing to ask: the provider signs out at once and says so.
    await page.goto(`${journey.portaal.publicUrl}/oidc/session/end`);
    await page.getByRole('heading', { level: 1, name: 'Je bent uitgelogd' }).waitFor();
    expect(await page.getByRole('banner').textContent()).toContain(TITLE);
    await expectPlainPageFits(page, "the provider's signed-out page");
  });

  it('says in the house style that signing in at a service cannot be done while the keys differ', async () => {
    // A second process on the same database with its own data directory and no OIDC_JWKS, so a key of its own: every
    // `/oidc` address then answers 503 (docs/operations.md#oidc-signing-keys).
    const { portaal } = journey;
    const databaseUrl = portaal.env.DATABASE_URL ?? path.join(portaal.dataDir, 'portaal.sqlite');
    const other = await startPortaal({ env: { DATABASE_URL: databaseUrl, PORTAL_TITLE: TITLE, OIDC_JWKS: '' } });
    try {
      const page = await journey.person('keys-differ');
      const answer = await page.goto(`${other.publicUrl}/oidc/.well-known/openid-configuration`);
      expect(answer?.status()).toBe(503);
      await page.getByRole('heading', { level: 1, name: 'Inloggen bij datavoorzieningen kan nu niet' }).waitFor();
      expect(await page.getByRole('banner').textContent()).toContain(TITLE);
      await expectPlainPageFits(page, 'the page while the signing keys differ');
    } finally {
      await other.stop();
    }
  });
});
