import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { api, DEMO_PASSWORD, signInAtAal2 } from '../support/portal-users.js';
import { useJourney } from './support/journey.js';
import { expectNoSidewaysScroll } from './support/layout.js';
import { runAxe } from './support/axe.js';
import { cli, expectAccessible, signInWithPassword } from './support/pages.js';

// The demo installation: Bea administers Gemeente Voorbeeldstad, which asks for a second factor; DEGO asks for none.
const journey = useJourney({ args: ['--demo'] });
const PASSWORD = 'Duinen-Dijk-Polder-58';
/** Bea over the API, signed in once with the app she links then. */
let bea: ReturnType<typeof signInAtAal2> | undefined;
const VOORBEELDSTAD = 'Gemeente Voorbeeldstad';

/** The element with the focus is `expected` and lies wholly inside the window, once the page has settled. */
async function expectFocusedInView(page: Page, expected: Locator, state: string) {
  await expect
    .poll(() => expected.evaluate((element) => element === document.activeElement), { timeout: 5_000 })
    .toBe(true);
  // The sections above it may still load: look again after they had the time.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  expect(await expected.evaluate((element) => element === document.activeElement), `focus on ${state}`).toBe(true);
  const box = await expected.evaluate((element) => element.getBoundingClientRect().toJSON());
  const height = page.viewportSize()!.height;
  expect(box.top, `top of the focused heading on ${state}`).toBeGreaterThanOrEqual(0);
  expect(box.bottom, `bottom of the focused heading on ${state}`).toBeLessThanOrEqual(height);
}

describe('journey 2b: an invitation on a phone, from the notice to the second factor it asks for', () => {
  for (const size of [
    { width: 320, height: 568 },
    { width: 375, height: 667 },
  ]) {
    it(`leads to the invitation in view and says why a second factor is needed, at ${size.width} px`, async () => {
      // A DEGO colleague without a second factor; Bea asks them to join (over the API: the form is journey 16's).
      const email = `dego.${size.width}@dego.nl`;
      cli(journey.portaal, [
        ...['user', 'create', '--email', email, '--first-name', 'Dirk', '--last-name', 'Dego'],
        ...['--password', PASSWORD, '--org', 'dego'],
      ]);
      bea ??= signInAtAal2(journey.portaal, 'beheerder@voorbeeldstad.nl', DEMO_PASSWORD);
      const invited = await api(journey.portaal, (await bea).browser, 'POST', '/users', { traits: { email } });
      expect(invited.status).toBeLessThan(300);

      const page = await journey.person('Ali', size);
      await signInWithPassword(page, email, PASSWORD);
      const notice = page.getByRole('region', { name: 'Uitnodigingen' }).getByRole('status');
      await notice.filter({ hasText: `Je bent uitgenodigd voor ${VOORBEELDSTAD}.` }).waitFor();
      await page.waitForLoadState('networkidle');
      // The notice is inside a landmark of its own, and every landmark has a name of its own.
      const landmarks = await runAxe(page, 'the invitation notice', { rules: ['landmark-unique', 'region'] });
      expect(landmarks.violations).toEqual([]);
      expect(landmarks.passes.map((rule) => rule.id).sort()).toEqual(['landmark-unique', 'region']);
      const top = (await notice.boundingBox())!.y;
      expect(top, 'top of the notice').toBeLessThanOrEqual(size.height / 3);
      await expectNoSidewaysScroll(page, `invitation notice at ${size.width} px`);
      await expectAccessible(page, `invitation notice at ${size.width} px`);

      await notice.getByRole('link', { name: 'Bekijk de uitnodiging' }).click();
      await page.waitForURL((url) => url.pathname === '/settings' && url.hash === '#organisaties');
      const invitations = page.getByRole('heading', { name: 'Uitnodigingen', exact: true });
      await expectFocusedInView(page, invitations, `the invitations at ${size.width} px`);
      await expectNoSidewaysScroll(page, `the invitations at ${size.width} px`);
      await expectAccessible(page, `the invitations at ${size.width} px`);

      await page.getByRole('button', { name: `Uitnodiging van ${VOORBEELDSTAD} accepteren` }).click();
      await page.waitForURL((url) => url.pathname === '/settings/2fa-app');
      const gate = page.getByRole('heading', { level: 1, name: 'Authenticator-app instellen' });
      await page
        .getByText(`De organisatie ${VOORBEELDSTAD} vraagt om tweestapsverificatie. Stel die nu in.`, { exact: true })
        .waitFor();
      await expectFocusedInView(page, gate, `the second-factor gate at ${size.width} px`);
      await expectNoSidewaysScroll(page, `the second-factor gate at ${size.width} px`);
      await expectAccessible(page, `the second-factor gate at ${size.width} px`);
    });
  }
});
