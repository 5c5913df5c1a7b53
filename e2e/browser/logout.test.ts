import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useJourney } from './support/journey.js';
import { createColleague, expectAccessible, rowOf, signInAsAdministrator } from './support/pages.js';
import { sidebar } from './support/people.js';

const journey = useJourney();

/** Nothing of the person or their municipality on the page: the sign-in form, no name, address, table or services. */
async function expectNothingPrivate(page: Page, secrets: string[]) {
  await page.waitForURL((url) => url.pathname === '/login');
  await page.getByRole('heading', { name: 'Welkom', level: 1 }).waitFor();
  await page.getByLabel('E-mailadres').waitFor();
  expect(await page.getByLabel('E-mailadres').inputValue()).toBe('');
  const text = await page.locator('body').innerText();
  for (const secret of secrets) expect(text).not.toContain(secret);
  expect(await page.getByRole('table').count()).toBe(0);
  expect(await page.getByRole('complementary', { name: 'Account' }).count()).toBe(0);
  expect(await page.getByRole('heading', { name: 'Datavoorzieningen' }).count()).toBe(0);
  expect(await page.getByRole('link', { name: /Naar Wijkmonitor/ }).count()).toBe(0);
}

const whoamiStatus = (page: Page) =>
  page.evaluate(() =>
    fetch('/api/users/whoami', { headers: { accept: 'application/json' } }).then((response) => response.status),
  );

describe('journey 11: logging out', () => {
  it('ends the session: the back button shows nothing private and /api/users/whoami answers 401', async () => {
    const admin = await signInAsAdministrator(journey);
    const { page } = admin;
    const colleague = await createColleague(journey, { first: 'Wessel' });
    await page.reload();
    await rowOf(page, colleague.email).waitFor();
    await sidebar(page).getByText('Bea Beheer', { exact: true }).waitFor();
    await expectAccessible(page, 'user overview');

    await sidebar(page).getByRole('link', { name: 'Datavoorzieningen' }).click();
    await page.waitForURL((url) => url.pathname === '/permissies');
    await page.getByRole('link', { name: /Naar Wijkmonitor/ }).waitFor();
    await expectAccessible(page, 'Datavoorzieningen');
    expect(await whoamiStatus(page)).toBe(200);

    await sidebar(page).getByRole('link', { name: 'Uitloggen', exact: true }).click();
    const secrets = [
      'Bea Beheer',
      admin.email,
      colleague.email,
      colleague.name,
      'Wijkmonitor',
      'Gemeente Voorbeeldstad',
    ];
    await expectNothingPrivate(page, secrets);
    await expectAccessible(page, 'sign-in after logging out');
    expect(await whoamiStatus(page)).toBe(401);

    // Back to the data services, then further back to the user overview: each time the sign-in form, nothing else,
    // not even for a moment before the sign-in form replaces the screen.
    await page.addInitScript((watched: string[]) => {
      const seen: string[] = [];
      (window as unknown as { privateSeen: string[] }).privateSeen = seen;
      new MutationObserver(() => {
        const text = document.documentElement.textContent ?? '';
        for (const secret of watched) if (text.includes(secret) && !seen.includes(secret)) seen.push(secret);
      }).observe(document, { childList: true, subtree: true, characterData: true });
    }, secrets);
    const privateSeen = () => page.evaluate(() => (window as unknown as { privateSeen?: string[] }).privateSeen);
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    await page.goBack();
    await expectNothingPrivate(page, secrets);
    expect(visited[0]).toBe('/permissies');
    expect(await privateSeen()).toEqual([]);
    visited.length = 0;
    await page.goBack();
    await expectNothingPrivate(page, secrets);
    expect(visited[0]).toBe('/');
    expect(await privateSeen()).toEqual([]);
    await expectAccessible(page, 'sign-in after the back button');
    expect(await whoamiStatus(page)).toBe(401);
  });
});
