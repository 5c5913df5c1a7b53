import { describe, expect, it } from 'vitest';
import { useJourney } from './support/journey.js';
import {
  createColleague,
  enterTotpCode,
  expectAccessible,
  signInAsAdministrator,
  signInWithPassword,
} from './support/pages.js';

const journey = useJourney();
const PHONE = { width: 375, height: 740 };

describe('journey 14: on a 375 px wide screen', () => {
  it('shows the sidebar above the content and the navigation at the bottom, without sideways scrolling', async () => {
    await signInAsAdministrator(journey);
    const colleague = await createColleague(journey, { first: 'Ravi' });
    const page = await journey.person('telefoon', PHONE);
    await signInWithPassword(page, colleague.email, colleague.password);
    await enterTotpCode(page, colleague.secret!);
    await page.waitForURL((url) => url.pathname === '/permissies');

    const bottomNav = page.getByRole('navigation', { name: 'Menu onderaan' });
    await bottomNav.waitFor();
    expect(await page.getByRole('navigation', { name: 'Hoofdmenu' }).isVisible()).toBe(false);
    const links = bottomNav.getByRole('link');
    expect(await links.allInnerTexts()).toEqual(['Datavoorzieningen', 'Account instellingen', 'Uitloggen']);
    const box = await bottomNav.boundingBox();
    expect(box && box.y + box.height).toBeCloseTo(PHONE.height, 0);
    // The sidebar collapses into a block above the content.
    const sidebar = await page.getByRole('complementary', { name: 'Menu' }).boundingBox();
    const main = await page.getByRole('main').boundingBox();
    expect(sidebar && main && sidebar.y + sidebar.height <= main.y + 1).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page, 'Datavoorzieningen at 375 px');

    await bottomNav.getByRole('link', { name: 'Account instellingen' }).click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await page.getByRole('heading', { name: 'Account instellingen' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page, 'settings at 375 px');
  });

  it('lets an administrator reach every screen, the overview included, from the bottom navigation', async () => {
    const admin = await signInAsAdministrator(journey);
    await admin.page.setViewportSize(PHONE);
    const bottomNav = admin.page.getByRole('navigation', { name: 'Menu onderaan' });
    await bottomNav.waitFor();
    expect(await bottomNav.getByRole('link').allInnerTexts()).toEqual([
      'Administratie dashboard',
      'Datavoorzieningen',
      'Account instellingen',
      'Uitloggen',
    ]);
    await bottomNav.getByRole('link', { name: 'Datavoorzieningen' }).click();
    await admin.page.waitForURL((url) => url.pathname === '/permissies');
    await bottomNav.getByRole('link', { name: 'Administratie dashboard' }).click();
    await admin.page.getByRole('table').waitFor();
    await expectAccessible(admin.page, 'overview at 375 px');
  });
});
