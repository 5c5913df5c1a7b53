import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useJourney } from './support/journey.js';
import { expectAccessible, rowOf, signInAsAdministrator } from './support/pages.js';
import { expectInsideWindow, expectNoSidewaysScroll, resizeTo } from './support/layout.js';

// Journey 28: an organisation of more people than a page holds. The Users API sorts, searches and pages
// (docs/architecture.md#the-users-list-a-page-at-a-time): the next pages show the rest, a search finds someone who
// is not on the first page, the download has everyone the search leaves, a block reloads the page shown, and the
// status 'Geblokkeerd' then finds that one person, on a laptop and on a phone.

const journey = useJourney();
const PEOPLE = 60;
const RUN = randomUUID().slice(0, 6);
const nameOf = (i: number) => `Pagina ${String(i).padStart(2, '0')}`;
const emailOf = (i: number) => `pagina-${String(i).padStart(2, '0')}-${RUN}@voorbeeldstad.nl`;

/** POSTs to the Users API from the administrator's page, as the new-user form does; returns the status. */
const post = (page: Page, body: unknown) =>
  page.evaluate(
    async (json) =>
      (await fetch('/api/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: json }))
        .status,
    JSON.stringify(body),
  );

/** The addresses of the rows shown. */
const addresses = (page: Page) => page.locator('tbody tr td:nth-child(2)').allTextContents();
const range = (page: Page) => page.getByRole('navigation', { name: "Pagina's met gebruikers" }).getByRole('status');
const hasFocus = (page: Page, name: string) =>
  page.getByRole('button', { name }).evaluate((element) => element === document.activeElement);

describe('journey 28: a large organisation, a page at a time', () => {
  it('pages, sorts and searches on the server; the download has everyone found', async () => {
    const { page } = await signInAsAdministrator(journey);
    for (let i = 0; i < PEOPLE; i += 1)
      expect(await post(page, { traits: { email: emailOf(i), name: { first: nameOf(i), last: 'Groot' } } })).toBe(201);
    await page.reload();
    await page.getByRole('table').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(25);

    await page.getByLabel('Sorteer op').selectOption({ label: 'Naam' });
    await page.getByLabel('Zoek gebruiker').fill('PAGINA');
    await page.getByText(`${PEOPLE} gebruikers gevonden`).waitFor();
    await expect.poll(() => range(page).textContent()).toBe('Gebruikers 1–25 van 60 (pagina 1 van 3)');
    expect(await addresses(page)).toEqual(Array.from({ length: 25 }, (_, i) => emailOf(i)));
    await expectAccessible(page, 'overview, first of three pages');

    // The next pages show the rest; the button pressed keeps the focus.
    const next = page.getByRole('button', { name: 'Volgende pagina' });
    await next.click();
    await expect.poll(() => addresses(page)).toEqual(Array.from({ length: 25 }, (_, i) => emailOf(i + 25)));
    await next.click();
    await expect.poll(() => addresses(page)).toEqual(Array.from({ length: 10 }, (_, i) => emailOf(i + 50)));
    expect(await range(page).textContent()).toBe('Gebruikers 51–60 van 60 (pagina 3 van 3)');
    expect(await hasFocus(page, 'Volgende pagina')).toBe(true);

    // Someone on the second page, found by a part of the address.
    await page.getByLabel('Zoek gebruiker').fill(`pagina-37-${RUN}`);
    await page.getByText('1 gebruiker gevonden').waitFor();
    await expect.poll(() => addresses(page)).toEqual([emailOf(37)]);
    await expect(page.getByRole('navigation', { name: "Pagina's met gebruikers" }).count()).resolves.toBe(0);

    // The download has all sixty the search leaves, not the page shown.
    await page.getByLabel('Zoek gebruiker').fill('pagina');
    await page.getByText(`${PEOPLE} gebruikers gevonden`).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Deze ${PEOPLE} gebruikers downloaden (CSV)` }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^gebruikers-voorbeeldstad-\d{4}-\d\d-\d\d\.csv$/);
    const lines = readFileSync(await download.path(), 'utf8')
      .split('\r\n')
      .filter(Boolean);
    expect(lines.slice(1).map((line) => line.split(';')[0])).toEqual(
      Array.from({ length: PEOPLE }, (_, i) => nameOf(i)),
    );

    // A block on the second page reloads that page, which shows the person blocked.
    await next.click();
    await expect.poll(() => range(page).textContent()).toBe('Gebruikers 26–50 van 60 (pagina 2 van 3)');
    const row = rowOf(page, emailOf(30));
    await row.getByRole('button', { name: 'Blokkeer' }).click();
    await page
      .getByRole('alertdialog', { name: 'Gebruiker blokkeren' })
      .getByRole('button', { name: 'Blokkeren' })
      .click();
    await page.getByText('Gebruiker geblokkeerd.').waitFor();
    await row.getByRole('button', { name: 'Deblokkeer' }).waitFor();
    expect(await range(page).textContent()).toBe('Gebruikers 26–50 van 60 (pagina 2 van 3)');

    // 'Status': the one blocked among them, with the search kept, at both widths.
    await page.getByLabel('Status').selectOption({ label: 'Geblokkeerd' });
    await page.getByText('1 gebruiker gevonden').waitFor();
    await expect.poll(() => addresses(page)).toEqual([emailOf(30)]);
    for (const size of [
      { width: 1280, height: 900 },
      { width: 375, height: 740 },
    ]) {
      await resizeTo(page, size);
      const where = `the overview filtered on 'Geblokkeerd' at ${size.width} px`;
      await page.getByText(emailOf(30)).first().waitFor();
      await expectNoSidewaysScroll(page, where);
      await expectInsideWindow(page, page.locator('.dvp-toolbar select, .dvp-toolbar input'), where);
      await expectAccessible(page, where);
    }
    await page.getByLabel('Status').selectOption({ label: 'Actief' });
    await page.getByText(`${PEOPLE - 1} gebruikers gevonden`).waitFor();
  });
});
