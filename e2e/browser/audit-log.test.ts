import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useJourney } from './support/journey.js';
import { signInAsAdministrator } from './support/pages.js';
import { atBothWidths, expectScreenFits, openMenu } from './support/layout.js';

// Journey 29: 'Logboek'. An administrator blocks a colleague, opens the organisation's audit log from the overview,
// narrows it to that colleague with the keyboard, reads what happened in Dutch sentences, downloads what is shown,
// and finds the download in the log too; on a phone the colleague's row in the overview leads to their part of it.

const journey = useJourney();
const RUN = randomUUID().slice(0, 6);
const colleague = `collega-${RUN}@voorbeeldstad.nl`;

/** Calls the Users API from the administrator's page, as the screens do; returns the status and the JSON. */
const call = (page: Page, method: string, path: string, body?: unknown) =>
  page.evaluate(
    async ([how, where, json]) => {
      const response = await fetch(`/api${where}`, {
        method: how,
        headers: json ? { 'content-type': 'application/json' } : {},
        body: json,
      });
      return { status: response.status, body: response.status === 204 ? undefined : await response.json() };
    },
    [method, path, body === undefined ? undefined : JSON.stringify(body)] as const,
  );

const sentences = (page: Page) => page.locator('tbody tr td:nth-child(2)').allTextContents();

describe("journey 29: 'Logboek'", () => {
  it('narrows the log to one colleague with the keyboard, in Dutch, and downloads and records it', async () => {
    const { page } = await signInAsAdministrator(journey);
    const created = await call(page, 'POST', '/users', {
      traits: { email: colleague, name: { first: 'Piet', last: 'Jansen' } },
    });
    expect(created.status).toBe(201);
    const listed = await call(page, 'GET', `/users?email=${encodeURIComponent(colleague)}`);
    expect((await call(page, 'PUT', `/users/${listed.body[0].id}`, { state: 'inactive' })).status).toBe(200);

    await page.getByRole('link', { name: 'Logboek bekijken' }).click();
    await page.getByRole('heading', { level: 1, name: 'Logboek' }).waitFor();
    await expect.poll(() => sentences(page)).toContain('Bea Beheer heeft Piet Jansen geblokkeerd');

    // With the keyboard only: into 'Persoon (e-mailadres)', type, and Enter filters.
    await page.getByLabel('Persoon (e-mailadres)').focus();
    await page.keyboard.type(`COLLEGA-${RUN}`);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => sentences(page))
      .toEqual(['Bea Beheer heeft Piet Jansen geblokkeerd', 'Bea Beheer heeft Piet Jansen toegevoegd']);
    await page.getByRole('status').filter({ hasText: '2 regels getoond' }).waitFor();
    await atBothWidths(page, () => expectScreenFits(page, "'Logboek' narrowed to one colleague"));

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Deze regels downloaden (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^logboek-voorbeeldstad-\d{4}-\d\d-\d\d\.csv$/);
    const lines = readFileSync(await download.path(), 'utf8')
      .split('\r\n')
      .filter(Boolean);
    expect(lines[0]).toBe('\uFEFFDatum en tijd;Actie;Gebeurtenis;Uitkomst;Door;Over;IP-adres');
    expect(lines.slice(1).map((line) => line.split(';').slice(1, 4))).toEqual([
      ['Geblokkeerd', 'Bea Beheer heeft Piet Jansen geblokkeerd', 'gelukt'],
      ['Account aangemaakt', 'Bea Beheer heeft Piet Jansen toegevoegd', 'gelukt'],
    ]);

    // The download is in the log itself, found through 'Actie'.
    await page.getByRole('button', { name: 'Filters wissen' }).click();
    await page.getByLabel('Actie').selectOption({ label: 'Logboek gedownload' });
    await page.getByRole('button', { name: 'Filteren' }).click();
    await expect.poll(() => sentences(page)).toEqual(['Bea Beheer heeft het logboek gedownload']);

    // On a phone, the overview's row of the colleague leads to their part of the log; the menu leads back.
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`${journey.portaal.publicUrl}/`);
    await page.getByRole('table').waitFor();
    await page.getByRole('link', { name: 'Logboek van Piet Jansen' }).click();
    await page.getByRole('heading', { level: 1, name: 'Logboek' }).waitFor();
    expect(await page.getByLabel('Persoon (e-mailadres)').inputValue()).toBe(colleague);
    // The address holds the filter: loaded again (a bookmark, a reload), the same part of the log.
    expect(new URL(page.url()).search).toBe(`?persoon=${encodeURIComponent(colleague)}`);
    expect((await page.reload())?.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Logboek' }).waitFor();
    await expect
      .poll(() => sentences(page))
      .toEqual(['Bea Beheer heeft Piet Jansen geblokkeerd', 'Bea Beheer heeft Piet Jansen toegevoegd']);
    await expectScreenFits(page, "'Logboek' of one colleague on a phone");
    await openMenu(page);
    await page
      .getByRole('navigation', { name: 'Hoofdmenu' })
      .getByRole('link', { name: 'Administratie dashboard' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Overzicht' }).waitFor();
  });
});
