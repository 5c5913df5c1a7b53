import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInAtAal2 } from '../support/portal-users.js';
import { useJourney } from './support/journey.js';
import { createColleague, signInAsAdministrator } from './support/pages.js';
import { atBothWidths, expectDialogFits, expectScreenFits } from './support/layout.js';

// Journey 30: 'Toegangsreview'. An administrator opens the review from the overview, withdraws a colleague's data
// role with the keyboard, keeps the rest, confirms, and the colleague's next check at the data service of that role
// is refused at once; the finished review is listed and downloaded as evidence.

const journey = useJourney();

/** Calls the Users API from the administrator's page, as the screens do; returns the status. */
const call = (page: Page, method: string, path: string, body?: unknown) =>
  page.evaluate(
    async ([how, where, json]) =>
      (
        await fetch(`/api${where}`, {
          method: how,
          headers: json ? { 'content-type': 'application/json' } : {},
          body: json,
        })
      ).status,
    [method, path, body === undefined ? undefined : JSON.stringify(body)] as const,
  );

describe("journey 30: 'Toegangsreview'", () => {
  it('withdraws a data role with the keyboard; the data service refuses the colleague at once', async () => {
    const { page } = await signInAsAdministrator(journey);
    const colleague = await createColleague(journey, { first: 'Rita', last: 'Rollen' });
    // The same form as 'Gebruiker toevoegen' for an existing member: the data role is added at once.
    const added = await call(page, 'POST', '/users', {
      traits: { email: colleague.email },
      permissions: [{ namespace: 'subdivisions', object: 'sociaal-domein_voorbeeldstad', relation: 'issuer' }],
    });
    expect(added).toBe(200);
    const { browser } = await signInAtAal2(journey.portaal, colleague.email, colleague.password, colleague.secret);
    const dashboard = async () =>
      (await browser.fetch(`${journey.portaal.publicUrl}/api/forward-auth?service=jeugdzorg-dashboard`)).status;
    expect(await dashboard()).toBe(200);

    await page.getByRole('link', { name: 'Toegangsreview' }).click();
    await page.getByRole('heading', { level: 1, name: 'Toegangsreview' }).waitFor();
    const rita = page.getByRole('region', { name: 'Rita Rollen' });
    await rita.getByText(colleague.email).waitFor();
    await atBothWidths(page, () => expectScreenFits(page, "'Toegangsreview' before any choice"));

    // Finishing with choices open names how many, and moves the focus there.
    await page.getByRole('button', { name: 'Review afronden' }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
      .toContain('nog 1 datarol open');

    // With the keyboard only: onto 'Behouden' of her role, the arrow to 'Intrekken' chooses it.
    await rita.getByRole('radio', { name: 'Behouden' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await rita.getByRole('radio', { name: 'Intrekken' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Overige behouden' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Review afronden' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Review afronden' });
    await atBothWidths(page, () => expectDialogFits(page, dialog, 'the confirmation of the review'));
    expect(await dialog.textContent()).toContain('Je trekt de enige datarol in. Het intrekken gaat direct in.');
    await dialog.getByRole('button', { name: 'Afronden' }).click();
    await page.getByText(/^De review is afgerond: \d+ datarol(len)? behouden, 1 datarol ingetrokken\.$/).waitFor();
    expect(await dashboard()).toBe(403);
    await rita.waitFor({ state: 'detached' });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /^Review van .* downloaden \(CSV\)$/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^toegangsreview-voorbeeldstad-\d{4}-\d\d-\d\d\.csv$/);
    const lines = readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(lines.filter((line) => line.includes(colleague.email))).toEqual([
      expect.stringMatching(/;Rita Rollen;[^;]+;Sociaal domein;[^;]+;authenticator-app;ingetrokken$/),
    ]);
    await atBothWidths(page, () => expectScreenFits(page, "'Toegangsreview' after the review"));
  });
});
