import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useJourney } from './support/journey.js';
import {
  cli,
  createColleague,
  DEMO_CATALOGUE,
  enterTotpCode,
  expectAccessible,
  signInWithPassword,
} from './support/pages.js';
import { sidebar } from './support/people.js';
import { atBothWidths, expectScreenFits } from './support/layout.js';

const journey = useJourney();

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like ' +
  'Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

const otherSessions = (page: Page) => page.getByRole('region', { name: 'Ingelogd op andere apparaten' });
const devicesListed = (page: Page) => otherSessions(page).getByRole('listitem').allInnerTexts();

describe('journey 15: sessions', () => {
  it('lists the sessions elsewhere, ends one of them, and after a password change the rest', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    // Linking the app over the API leaves a session there: the first device elsewhere.
    const colleague = await createColleague(journey, { first: 'Iris' });
    const phone = await journey.person('telefoon', { width: 375, height: 800, userAgent: PHONE });
    await signInWithPassword(phone, colleague.email, colleague.password);
    await enterTotpCode(phone, colleague.secret!, 0);
    await phone.waitForURL((url) => url.pathname === '/permissies');
    // Two more laptops of one kind, signed in the same minute from the same address (the password step is enough).
    for (const name of ['laptop-werk', 'laptop-thuis']) {
      const spare = await journey.person(name);
      await signInWithPassword(spare, colleague.email, colleague.password);
      await spare.getByLabel('Verificatiecode').waitFor();
    }
    const laptop = await journey.person('laptop');
    await signInWithPassword(laptop, colleague.email, colleague.password);
    await enterTotpCode(laptop, colleague.secret!, 1);
    await laptop.waitForURL((url) => url.pathname === '/permissies');

    await sidebar(laptop).getByRole('link', { name: 'Account instellingen' }).click();
    await otherSessions(laptop).getByRole('button', { name: 'Uitloggen op Safari op iOS' }).waitFor();
    const listed = await devicesListed(laptop);
    expect(listed).toHaveLength(4);
    // Every row, and the name of its button, differs: also those of the two laptops of one kind.
    expect(new Set(listed).size).toBe(4);
    const names = await otherSessions(laptop)
      .getByRole('button', { name: /^Uitloggen op / })
      .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')));
    expect(names).toHaveLength(4);
    expect(new Set(names).size).toBe(4);
    for (const name of names) expect(name).toMatch(/^Uitloggen op .+ \(Ingelogd op .+, IP-adres .+, kenmerk \w{8}\)$/);
    await atBothWidths(laptop, () => expectScreenFits(laptop, 'settings with four sessions elsewhere'));
    expect(listed.filter((text) => text.startsWith('Safari op iOS'))).toHaveLength(1);
    for (const text of listed) expect(text).toMatch(/Ingelogd op \d{1,2} [a-z]+ \d{4} om \d\d:\d\d · IP-adres /);
    await expectAccessible(laptop, 'settings with four sessions elsewhere');

    // The phone is lost: its session ends, and it shows the sign-in form on the next load.
    await otherSessions(laptop).getByRole('button', { name: 'Uitloggen op Safari op iOS' }).click();
    await laptop.getByText('Je bent uitgelogd op Safari op iOS.', { exact: true }).waitFor();
    await otherSessions(laptop)
      .getByRole('button', { name: 'Uitloggen op Safari op iOS' })
      .waitFor({ state: 'detached' });
    expect(await devicesListed(laptop)).toHaveLength(3);
    await phone.reload();
    await phone.waitForURL((url) => url.pathname === '/login');
    await phone.getByLabel('E-mailadres').waitFor();

    // A new password: the portal offers to end the session still open elsewhere.
    const newPassword = 'Zandpad-Veerpont-Oost-48';
    await laptop.getByLabel('Nieuw wachtwoord', { exact: true }).fill(newPassword);
    await laptop.getByLabel('Wachtwoord bevestigen', { exact: true }).fill(newPassword);
    await laptop.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
    const offer = laptop.getByRole('status').filter({ hasText: 'Je bent nog ingelogd op 3 andere apparaten.' });
    await offer.waitFor();
    await expectAccessible(laptop, 'the offer to log out elsewhere after a password change');
    await offer.getByRole('button', { name: 'Op alle andere apparaten uitloggen' }).click();
    await laptop.getByRole('status').filter({ hasText: 'Je bent op alle andere apparaten uitgelogd.' }).waitFor();
    await otherSessions(laptop).getByText('Je bent nergens anders ingelogd.', { exact: true }).waitFor();

    // This device stays signed in.
    await laptop.reload();
    await laptop.getByRole('heading', { name: 'Account instellingen', level: 1 }).waitFor();
    await otherSessions(laptop).getByText('Je bent nergens anders ingelogd.', { exact: true }).waitFor();
    expect(await laptop.evaluate(() => fetch('/api/users/whoami').then((response) => response.status))).toBe(200);
  });

  it('warns before the idle timeout, keeps the session on request, and otherwise signs out and says why', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    const colleague = await createColleague(journey, { first: 'Tess' });
    const page = await journey.person('stil');
    // The page's clock, not the server's, is moved on: the session stays young on the server.
    await page.clock.install();
    await signInWithPassword(page, colleague.email, colleague.password);
    await enterTotpCode(page, colleague.secret!, 0);
    await page.waitForURL((url) => url.pathname === '/permissies');
    await page.getByRole('link', { name: /Naar Wijkmonitor/ }).waitFor();
    // Every answer counts as use: one still on its way when the clock jumps would count as use 26 minutes later.
    await page.waitForLoadState('networkidle');

    await page.clock.fastForward('26:30');
    const warning = page.getByRole('alertdialog', { name: 'Je wordt bijna uitgelogd' });
    expect(await warning.count()).toBe(0);
    await page.clock.fastForward('00:45');
    await warning.waitFor();
    await warning
      .getByText('Om je account te beschermen word je over 2 minuten automatisch uitgelogd.', { exact: false })
      .waitFor();
    await expectAccessible(page, 'the warning before the idle timeout');
    await page.keyboard.press('Enter');
    await warning.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => fetch('/api/users/whoami').then((response) => response.status))).toBe(200);

    await page.clock.fastForward('27:15');
    await warning.waitFor();
    await page.clock.fastForward('02:00');
    await page.waitForURL((url) => url.pathname === '/login');
    await page
      .getByText(
        'Je bent automatisch uitgelogd, omdat je 30 minuten niets hebt gedaan. Log opnieuw in om verder te gaan.',
        { exact: true },
      )
      .waitFor();
    await expectAccessible(page, 'sign-in after the automatic sign-out');
    expect(await page.evaluate(() => fetch('/api/users/whoami').then((response) => response.status))).toBe(401);
  });
});
