import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { enrolLookupSecrets } from '../support/flows.js';
import { signInAtAal2 } from '../support/portal-users.js';
import { useJourney } from './support/journey.js';
import { expectNoSidewaysScroll, resizeTo } from './support/layout.js';
import {
  createColleague,
  expectAccessible,
  refuseSignIns,
  rowOf,
  signInAsAdministrator,
  signInWithPassword,
} from './support/pages.js';

// Journey 27: the administrator's overview at the widths people use, from a phone at the WCAG reflow width to a
// laptop: every row action in view beside long names, long addresses and a pending invitation, text that wraps at
// sensible places, and a success toast that never hides the control with the focus (WCAG 2.4.11).

const journey = useJourney();
const PASSWORD = 'Grachten-Fiets-Tulp-51';
/** A person of another organisation, invited here and not yet accepted: a long name and a long address. */
const INVITED = {
  email: 'anne-marie.vandenberg-oudshoorn@gemeente-sudwest-fryslan.nl',
  first: 'Anne-Marie',
  last: 'van den Berg-Oudshoorn',
};
/** A member with a long name and address, every data role and two kinds of second factor. */
const MEMBER = {
  email: 'maximiliaan.vredenburch-schimmelpenninck@gemeente-voorbeeldstad.nl',
  first: 'Maximiliaan',
  last: 'Vredenburch-Schimmelpenninck',
};
const ALI = { email: 'ali.analist@voorbeeldstad.nl', first: 'Ali', last: 'Analist' };
const ROLES = ['Sociaal domein', 'Ruimte en wonen', 'Financiën'];
const SIZES = [
  { width: 320, height: 640 },
  { width: 375, height: 740 },
  { width: 640, height: 450 },
  { width: 768, height: 1024 },
  { width: 1280, height: 900 },
];
/** A wide screen, where the six columns fit beside the sidebar even with the long rows. */
const WIDE = { width: 1920, height: 1080 };
/** Set JOURNEY_SCREENSHOTS to a folder to keep a picture of each state, to look at by eye. */
const SCREENSHOTS = process.env.JOURNEY_SCREENSHOTS;

async function shoot(page: Page, name: string, fullPage = false) {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const { width, height } = page.viewportSize()!;
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-${width}x${height}.png`, fullPage });
}

/** POSTs to the Users API from the administrator's page, as the new-user form does; returns the status. */
const post = (page: Page, body: unknown) =>
  page.evaluate(
    async (json) =>
      (await fetch('/api/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: json }))
        .status,
    JSON.stringify(body),
  );

const roles = (...ids: string[]) =>
  ids.map((id) => ({ namespace: 'subdivisions', object: `${id}_voorbeeldstad`, relation: 'issuer' }));

/**
 * The administrator's overview with Ali Analist, a member with a long name, every data role, an app and backup codes,
 * and a pending invitation of a person of another organisation with a long name and address.
 */
let seeded = false;
async function overviewWithLongRows() {
  const { page } = await signInAsAdministrator(journey);
  if (!seeded) await seed(page);
  seeded = true;
  await page.reload();
  await rowOf(page, INVITED.email).getByText('Uitgenodigd', { exact: true }).waitFor();
  return page;
}

/** The people of `overviewWithLongRows`, once for the file's installation, through the administrator's `page`. */
async function seed(page: Page) {
  await createColleague(journey, { first: ALI.first, last: ALI.last, email: ALI.email, withApp: false });
  await createColleague(journey, { first: MEMBER.first, last: MEMBER.last, email: MEMBER.email, withApp: false });
  const member = await signInAtAal2(journey.portaal, MEMBER.email, PASSWORD);
  await enrolLookupSecrets(member.browser);
  await createColleague(journey, {
    first: INVITED.first,
    last: INVITED.last,
    email: INVITED.email,
    withApp: false,
    org: 'dego',
  });
  const everyRole = roles('sociaal-domein', 'ruimte', 'financien');
  expect(await post(page, { traits: { email: MEMBER.email }, permissions: everyRole })).toBeLessThan(300);
  // An existing account of another organisation: invited, a member only once they accept.
  expect(await post(page, { traits: { email: INVITED.email }, permissions: roles('financien', 'ruimte') })).toBe(202);
}

/** The number of lines `text` takes inside `cell` (1: it does not wrap), measured on the laid-out text. */
const linesOf = (cell: Locator, text: string) =>
  cell.evaluate((element, wanted) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    let all = '';
    const nodes: { node: Text; start: number }[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      nodes.push({ node: node as Text, start: all.length });
      all += node.textContent;
    }
    const at = all.indexOf(wanted);
    if (at < 0) return -1;
    const tops = new Set<number>();
    for (let index = at; index < at + wanted.length; index += 1) {
      const { node, start } = nodes.findLast((candidate) => candidate.start <= index)!;
      const range = document.createRange();
      range.setStart(node, index - start);
      range.setEnd(node, index - start + 1);
      for (const rect of Array.from(range.getClientRects())) if (rect.width > 0) tops.add(Math.round(rect.top));
    }
    return tops.size;
  }, text);

/** Whether the focused element's centre and corners show the element itself, not a toast or tooltip over it. */
const focusedCovered = (page: Page) =>
  page.evaluate(() => {
    const focused = document.activeElement as HTMLElement;
    const box = focused.getBoundingClientRect();
    const points: [number, number][] = [
      [box.left + box.width / 2, box.top + box.height / 2],
      [box.left + 2, box.top + 2],
      [box.right - 2, box.top + 2],
      [box.left + 2, box.bottom - 2],
      [box.right - 2, box.bottom - 2],
    ];
    const hidden = points.filter(([x, y]) => {
      const shown = document.elementFromPoint(x, y);
      return !shown || !(focused === shown || focused.contains(shown));
    });
    const inWindow = box.top >= 0 && box.bottom <= window.innerHeight;
    return {
      name: focused.getAttribute('aria-label') ?? focused.textContent,
      covered: hidden.length > 0 || !inWindow,
      box: [box.left, box.top, box.right, box.bottom].map(Math.round),
    };
  });

describe('journey 27: the overview at every width', () => {
  it('keeps every row action in view beside a pending invitation, long names and addresses', async () => {
    const page = await overviewWithLongRows();
    const region = page.getByRole('region', { name: 'Gebruikers' });
    for (const size of [...SIZES, WIDE]) {
      await resizeTo(page, size);
      await page.waitForTimeout(200);
      const where = `the overview at ${size.width}x${size.height}`;
      await shoot(page, 'long-rows', true);
      await expectNoSidewaysScroll(page, where);
      // Nothing to scroll to sideways in the table's region either.
      const scroll = await region.evaluate((element) => element.scrollWidth - element.clientWidth);
      expect.soft(scroll, `the table scrolls sideways at ${where}`).toBeLessThanOrEqual(0);
      // Every row action wholly inside the table's region and the window (4 px from its edges).
      const outside = await region.getByRole('button').evaluateAll((all) =>
        all
          .map((button) => {
            const box = button.getBoundingClientRect();
            const room = button.closest('[role="region"]')!.getBoundingClientRect();
            const left = Math.max(room.left, 4);
            const right = Math.min(room.right, window.innerWidth - 4);
            const inside = box.left >= left - 0.5 && box.right <= right + 0.5;
            const name = button.getAttribute('aria-label');
            return inside ? '' : `${name}: ${box.left}–${box.right} in ${left}–${right}`;
          })
          .filter(Boolean),
      );
      expect.soft(outside, where).toEqual([]);

      // Text wraps at sensible places: never before an address's '@', not inside a data role or a factor's name.
      for (const email of [INVITED.email, MEMBER.email]) {
        const cell = rowOf(page, email).getByRole('cell', { name: email });
        const at = email.indexOf('@');
        expect.soft(await linesOf(cell, email.slice(at - 1, at + 1)), `'@' of ${email} at ${where}`).toBe(1);
        // Never a line that starts with a hyphen; beyond a phone, where there is room, no break after one either.
        for (const [index, character] of [...email].entries())
          if (character === '-') {
            const around = email.slice(index - 1, size.width >= 640 ? index + 2 : index + 1);
            expect.soft(await linesOf(cell, around), `'${around}' of ${email} at ${where}`).toBe(1);
          }
      }
      const member = rowOf(page, MEMBER.email);
      for (const role of ROLES) expect.soft(await linesOf(member, role), `'${role}' at ${where}`).toBe(1);
      for (const factor of ['authenticator-app', 'back-upcodes'])
        expect.soft(await linesOf(member, factor), `'${factor}' at ${where}`).toBe(1);
      expect.soft(await linesOf(rowOf(page, INVITED.email), 'Anne-Marie'), `'Anne-Marie' at ${where}`).toBe(1);
      if (size.width === 375) await expectAccessible(page, `${where}, as cards on a phone`);
    }
    // Where there is room, it is a table: the column headers in sight.
    const header = (await page.getByRole('columnheader', { name: 'Acties' }).boundingBox())!;
    expect(header.width).toBeGreaterThan(50);
    await expectAccessible(page, 'the overview with long rows and an invitation, as a table');
    await resizeTo(page, { width: 1280, height: 900 });
    await expectAccessible(page, 'the overview with long rows and an invitation, as cards');
  }, 180_000);

  it('shows the toast after a save without covering the focused control', async () => {
    const page = await overviewWithLongRows();
    for (const size of SIZES) {
      await resizeTo(page, size);
      await page.waitForTimeout(200);
      const where = `${size.width}x${size.height}`;
      const edit = rowOf(page, ALI.email).getByRole('button', { name: 'Bewerken: Ali Analist', exact: true });
      // The worst case: the button at the bottom of the window, where the toasts stand.
      await edit.evaluate((button) =>
        window.scrollBy(0, button.getBoundingClientRect().bottom - window.innerHeight + 8),
      );
      await edit.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Gebruiker bewerken' });
      await dialog.getByRole('button', { name: 'Opslaan' }).click();
      await dialog.waitFor({ state: 'detached' });
      const toast = page.locator('.dvp-toasts > li').filter({ hasText: 'Gebruiker aangepast' });
      await toast.waitFor();
      // The pointer on the toast holds it, as it holds it for a reader: the checks below need it there, and on a
      // busy machine they take longer than the five seconds it stays by itself.
      await toast.hover();
      await expect.poll(() => edit.evaluate((button) => button === document.activeElement)).toBe(true);
      await page.waitForTimeout(500);
      await shoot(page, 'toast-after-save');
      expect.soft(await focusedCovered(page), `after the save at ${where}`).toMatchObject({ covered: false });
      // On to the next controls while the toast is there: each in view, none under the toast.
      for (let presses = 0; presses < 3; presses += 1) {
        await page.keyboard.press('Tab');
        await page.waitForTimeout(300);
        expect.soft(await focusedCovered(page), `Tab ${presses + 1} after the save at ${where}`).toMatchObject({
          covered: false,
        });
      }
      if (size.width === 1280) await expectAccessible(page, `the overview with a toast at ${where}`);
      await toast.getByRole('button', { name: 'Sluiten' }).click();
      await toast.waitFor({ state: 'detached' });
    }
  }, 180_000);

  it('keeps the page still when a toast goes by itself, at the very end of the page', async () => {
    const page = await overviewWithLongRows();
    await resizeTo(page, SIZES[1]!);
    const height = () => page.evaluate(() => document.documentElement.scrollHeight);
    const before = await height();
    const edit = rowOf(page, ALI.email).getByRole('button', { name: 'Bewerken: Ali Analist', exact: true });
    await edit.click();
    const dialog = page.getByRole('dialog', { name: 'Gebruiker bewerken' });
    await dialog.getByRole('button', { name: 'Opslaan' }).click();
    await dialog.waitFor({ state: 'detached' });
    const toast = page.locator('.dvp-toasts > li').filter({ hasText: 'Gebruiker aangepast' });
    await toast.waitFor();
    // Scrolled to the end, where the toast made room, with the pointer off the toast (which would hold it).
    await page.mouse.move(1, 1);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const csv = page.getByRole('button', { name: /downloaden \(CSV\)/ });
    const where = async () => ({
      scroll: await page.evaluate(() => window.scrollY),
      csv: (await csv.boundingBox())!.y,
    });
    const shown = await where();
    await toast.waitFor({ state: 'detached' });
    // What is under the pointer stays there (a click as the toast goes lands where it was aimed).
    expect(await where(), 'the page after the toast went').toEqual(shown);
    // The room the toast took goes once the page is scrolled back from it.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(height).toBe(before);
  }, 120_000);

  it('keeps the focused control clear of an error toast on the sign-in screen', async () => {
    for (const size of [SIZES[0]!, SIZES[2]!]) {
      const visitor = await journey.person('bezoeker', size);
      await refuseSignIns(visitor);
      await signInWithPassword(visitor, ALI.email, PASSWORD);
      const toast = visitor.locator('.dvp-toasts > li').filter({ hasText: 'Je kan momenteel niet inloggen' });
      await toast.waitFor();
      const where = `${size.width}x${size.height}`;
      // From the top of the page through every control of the form, the toast's 'Sluiten' last.
      await visitor.evaluate(() => window.scrollTo(0, 0));
      await visitor.locator('body').focus();
      for (let presses = 0; presses < 8; presses += 1) {
        await visitor.keyboard.press('Tab');
        await visitor.waitForTimeout(200);
        const focused = await focusedCovered(visitor);
        expect.soft(focused, `Tab ${presses + 1} at ${where}`).toMatchObject({ covered: false });
        if (focused.name === 'Sluiten') break;
      }
      await shoot(visitor, 'sign-in-error-toast');
    }
  }, 120_000);
});
