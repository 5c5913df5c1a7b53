import { describe, expect, it } from 'vitest';
import { useJourney } from './support/journey.js';
import { expectInsideWindow, expectNoSidewaysScroll, openMenu, resizeTo } from './support/layout.js';
import { sidebar } from './support/people.js';
import { cli, createColleague, DEMO_CATALOGUE, expectAccessible, signInWithPassword } from './support/pages.js';

// Journey 25: an installation that sets neither FEEDBACK_EMAIL nor SUPPORT_EMAIL still tells people whom to turn to
// (apps/web/src/components/FeedbackContact.tsx), at 375 and 1280 px.
const journey = useJourney({ env: { FEEDBACK_EMAIL: '', SUPPORT_EMAIL: '' } });
/** Set JOURNEY_SCREENSHOTS to a folder to keep pictures to look at by eye. */
const SCREENSHOTS = process.env.JOURNEY_SCREENSHOTS;

describe('journey 25: whom to turn to without configured addresses', () => {
  it("says to contact the organisation's administrator where the sidebar would give the feedback address", async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    // DEGO asks no second factor: the colleague arrives on 'Datavoorzieningen' at once.
    const colleague = await createColleague(journey, { withApp: false, org: 'dego' });
    const page = await journey.person('collega');
    await signInWithPassword(page, colleague.email, colleague.password);
    await page.waitForURL((url) => url.pathname === '/permissies');
    const feedback = sidebar(page).getByRole('region', { name: 'Voor feedback en foutmeldingen' });
    for (const width of [375, 1280]) {
      await resizeTo(page, { width, height: 800 });
      // On a phone the section is in the menu, behind 'Menu'.
      await openMenu(page);
      await feedback.getByText('Neem contact op met de beheerder van je organisatie.', { exact: true }).waitFor();
      expect(await feedback.getByRole('link').count()).toBe(0);
      await expectInsideWindow(page, feedback, `the feedback section at ${width} px`);
      await expectNoSidewaysScroll(page, `'Datavoorzieningen' at ${width} px`);
      await expectAccessible(page, `'Datavoorzieningen' without addresses at ${width} px`);
      if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/no-addresses-${width}.png`, fullPage: true });
    }
  });
});
