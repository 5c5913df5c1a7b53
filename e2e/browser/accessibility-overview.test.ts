import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useJourney } from './support/journey.js';
import { expectDialogFits, resizeTo } from './support/layout.js';
import { descriptionOf } from './support/people.js';
import {
  createColleague,
  expectAccessible,
  refuseSignIns,
  rowOf,
  signInAsAdministrator,
  signInWithPassword,
} from './support/pages.js';

// Journey 17: the user overview's dialogs and the toasts as an accessibility auditor checks them (WCAG 2.2 AA). A
// failure is said in the dialog, with the focus on it; confirmations and row buttons name the person; the new-user
// form keeps the focus when the e-mail check makes the names read-only; tooltips cover no other button; the sort
// select looks like one; toasts can be closed, and an error stays until it is.

const SUPPORT = 'ondersteuning@voorbeeldstad.nl';
const journey = useJourney({ env: { SUPPORT_EMAIL: SUPPORT } });
const LAPTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 740 };
/** Wide enough for the overview as a table beside the sidebar; narrower, its rows are cards. */
const WIDE = { width: 1920, height: 1080 };
/** Set JOURNEY_SCREENSHOTS to a folder to keep a picture of each state, to look at by eye. */
const SCREENSHOTS = process.env.JOURNEY_SCREENSHOTS;

/** A picture of the window as it is now, and at 375 px wide, when JOURNEY_SCREENSHOTS is set. */
async function shoot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const size = page.viewportSize()!;
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-${size.width}.png` });
  if (size.width <= PHONE.width) return;
  await resizeTo(page, PHONE);
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-${PHONE.width}.png` });
  await resizeTo(page, size);
}

const hasFocus = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
const focusInside = (locator: Locator) => locator.evaluate((element) => element.contains(document.activeElement));
const focusOnPage = (page: Page) =>
  page.evaluate(() => document.activeElement !== null && document.activeElement !== document.body);
/** The toasts at the bottom right (outside an open dialog, so hidden from assistive technology then). */
const toasts = (page: Page) => page.locator('.dvp-toasts > li');

/** The Users API's user paths: `/api/users` itself, or one user's `/api/users/:id`. */
const USERS = (url: URL) => url.pathname === '/api/users';
const USER = (url: URL) => /^\/api\/users\/[0-9a-f-]{36}$/.test(url.pathname);

/** Makes the Users API answer `method` requests to paths `matching` with a 500 and no reason. */
async function failing(page: Page, matching: (url: URL) => boolean, method: string) {
  await page.route(matching, (route) =>
    route.request().method() === method
      ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":500}}' })
      : route.fallback(),
  );
}

/** Presses Tab until `locator` has the focus, and fails when it does not get it within `limit` presses. */
async function tabTo(page: Page, locator: Locator, limit = 40) {
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press('Tab');
    if (await hasFocus(locator)) return;
  }
  throw new Error('not reached with Tab');
}

const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('journey 17: the user overview for an accessibility audit', () => {
  it('says a failure in the dialog, focused, names the person, and closes with a toast on success', async () => {
    const { page } = await signInAsAdministrator(journey);
    const jan = await createColleague(journey, { first: 'Jan' });
    const rosa = await createColleague(journey, { first: 'Rosa' });
    await page.reload();
    const row = rowOf(page, jan.email);
    await row.waitFor();

    // Every row button names the person, after its visible text (WCAG 2.5.3 label in name).
    for (const label of ['Reset 2FA', 'Bewerken', 'Blokkeer', 'Verwijderen'])
      await row.getByRole('button', { name: `${label}: Jan Collega`, exact: true }).waitFor();
    const notStartingWithText = await page
      .getByRole('table')
      .getByRole('button')
      .evaluateAll((buttons) =>
        buttons
          .filter((button) => !(button.getAttribute('aria-label') ?? '').startsWith(button.textContent!.trim()))
          .map((button) => button.textContent),
      );
    expect(notStartingWithText).toEqual([]);

    // The server fails without a reason: the general message, the spec's text and the support address, in the dialog.
    await failing(page, USER, 'PUT');
    await row.getByRole('button', { name: 'Blokkeer: Jan Collega' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Gebruiker blokkeren' });
    await dialog.getByText('Weet je zeker dat je de gebruiker wil blokkeren?', { exact: true }).waitFor();
    await dialog.getByText('Jan Collega', { exact: true }).waitFor();
    await dialog.getByText(jan.email, { exact: true }).waitFor();
    expect(await descriptionOf(dialog)).toBe(
      `Weet je zeker dat je de gebruiker wil blokkeren? | Gebruiker: Jan Collega ${jan.email}`,
    );
    await expectAccessible(page, 'block dialog naming the person');
    await shoot(page, '1-block-dialog');
    const confirm = dialog.getByRole('button', { name: 'Blokkeren' });
    await confirm.focus();
    await page.keyboard.press('Enter');
    const alert = dialog.getByRole('alert');
    await alert.getByText('Er is iets misgegaan.', { exact: true }).waitFor();
    await alert.getByText('Fout opgetreden bij wijzigen gebruiker status.', { exact: true }).waitFor();
    await alert.getByText(`Blijft dit gebeuren? Mail dan naar ${SUPPORT}.`, { exact: true }).waitFor();
    await alert.getByRole('link', { name: SUPPORT }).waitFor();
    await expect.poll(() => hasFocus(alert)).toBe(true);
    expect(await dialog.isVisible()).toBe(true);
    expect(await toasts(page).count()).toBe(0);
    await expectDialogFits(page, dialog, 'block dialog with a failure');
    await shoot(page, '2-block-failure');
    await resizeTo(page, PHONE);
    await expectDialogFits(page, dialog, 'block dialog with a failure');
    await resizeTo(page, LAPTOP);
    // Tabbing on stays in the dialog: the support address, then its buttons.
    await page.keyboard.press('Tab');
    expect(await hasFocus(alert.getByRole('link', { name: SUPPORT }))).toBe(true);
    await tabTo(page, confirm, 4);
    expect(await focusInside(dialog)).toBe(true);

    // A refusal with the server's Dutch reason: the person was removed meanwhile.
    await page.unroute(USER);
    const removed = await page.evaluate(async (email) => {
      const users = (await (await fetch('/api/users')).json()) as { id: string; traits: { email: string } }[];
      const id = users.find((user) => user.traits.email === email)!.id;
      return (await fetch(`/api/users?id=${id}`, { method: 'DELETE' })).status;
    }, jan.email);
    expect(removed).toBeLessThan(300);
    await page.keyboard.press('Enter');
    await alert.getByText('Deze gebruiker hoort niet bij jouw organisatie.', { exact: true }).waitFor();
    expect(await alert.getByText('Er is iets misgegaan.').count()).toBe(0);
    await expect.poll(() => hasFocus(alert)).toBe(true);
    await expectAccessible(page, 'block dialog with the server’s reason');
    await shoot(page, '3-block-refused');
    await dialog.getByRole('button', { name: 'Annuleren' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Success closes the dialog and shows the success toast, with 'Sluiten', at the bottom right.
    await page.reload();
    await rowOf(page, rosa.email).getByRole('button', { name: 'Blokkeer: Rosa Collega' }).click();
    await dialog.getByRole('button', { name: 'Blokkeren' }).click();
    await dialog.waitFor({ state: 'detached' });
    const toast = toasts(page).filter({ hasText: 'Gebruiker geblokkeerd.' });
    await toast.waitFor();
    const box = (await toast.boundingBox())!;
    expect(LAPTOP.width - (box.x + box.width)).toBeLessThanOrEqual(48);
    expect(LAPTOP.height - (box.y + box.height)).toBeLessThanOrEqual(48);
    expect(box.x).toBeGreaterThan(LAPTOP.width / 2);
    await expectAccessible(page, 'overview with a success toast');
    await shoot(page, '4-success-toast');
    // Paused while the focus is on its 'Sluiten': still there after more than its 5 seconds; Enter closes it.
    const close = toast.getByRole('button', { name: 'Sluiten' });
    await close.focus();
    await page.waitForTimeout(6_000);
    expect(await toast.isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await toast.waitFor({ state: 'detached' });
    expect(await focusOnPage(page)).toBe(true);
  }, 120_000);

  it('keeps the focus on a name field the e-mail check locks; says a save failure in the dialog', async () => {
    const { page } = await signInAsAdministrator(journey);
    const lotte = await createColleague(journey, { first: 'Lotte', withApp: false });
    await page.reload();
    await rowOf(page, lotte.email).waitFor();

    await page.getByRole('button', { name: 'Nieuwe gebruiker toevoegen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nieuwe gebruiker toevoegen' });
    await dialog.getByRole('button', { name: 'Toevoegen' }).click();
    const summary = dialog.getByRole('alert', { name: 'Controleer de volgende velden:' });
    await summary.getByText('Vul de naam in van de aan te maken gebruiker.', { exact: true }).waitFor();
    const first = dialog.getByLabel('Voornaam');
    expect(await first.getAttribute('aria-invalid')).toBe('true');

    // By keyboard: the address of an existing account, then Tab: the focus stays on 'Voornaam', now read-only.
    await dialog.getByLabel('E-mailadres').focus();
    await page.keyboard.type(lotte.email);
    await page.keyboard.press('Tab');
    await dialog.getByText('Deze gebruiker heeft al een account.', { exact: true }).waitFor();
    await page.waitForTimeout(200);
    expect(await hasFocus(first)).toBe(true);
    expect(await first.isEditable()).toBe(false);
    expect(await first.isDisabled()).toBe(false);
    expect(await first.getAttribute('aria-invalid')).toBeNull();
    expect(await dialog.getByLabel('Achternaam').getAttribute('aria-invalid')).toBeNull();
    expect(await summary.count()).toBe(0);
    expect(await descriptionOf(first)).toBe('Een bestaand account houdt zijn eigen naam.');
    // It looks read-only: grey with a dashed border, unlike a field to type in.
    const look = await first.evaluate((field) => {
      const style = getComputedStyle(field);
      return { border: style.borderTopStyle, background: style.backgroundColor };
    });
    expect(look.border).toBe('dashed');
    expect(look.background).not.toBe('rgb(255, 255, 255)');
    // Back from 'Voornaam': the way to correct the address comes before it in the order.
    await page.keyboard.press('Shift+Tab');
    expect(await hasFocus(dialog.getByRole('button', { name: 'Ander e-mailadres invullen' }))).toBe(true);
    await page.keyboard.press('Tab');
    const editable = await page
      .getByLabel('Zoek gebruiker')
      .evaluate((field) => getComputedStyle(field).borderTopStyle);
    expect(editable).toBe('solid');
    await expectAccessible(page, 'new-user dialog with an existing address');
    await shoot(page, '5-existing-address');
    await page.keyboard.press('Tab');
    expect(await hasFocus(dialog.getByLabel('Achternaam'))).toBe(true);
    // On to the first data role (the demo catalogue's 'Sociaal domein'), and a role chosen.
    await page.keyboard.press('Tab');
    expect(await hasFocus(dialog.getByRole('group', { name: 'Datarollen' }).getByRole('checkbox').first())).toBe(true);
    await page.keyboard.press('Space');

    // Saving fails: the message in the dialog, which stays open, with the focus on it.
    await failing(page, USERS, 'POST');
    const add = dialog.getByRole('button', { name: 'Toevoegen' });
    await add.focus();
    await page.keyboard.press('Enter');
    const alert = dialog.getByRole('alert');
    await alert
      .getByText('Kon momenteel de gebruiker niet updaten. Probeer het later nog eens.', { exact: true })
      .waitFor();
    await alert.getByText(`Blijft dit gebeuren? Mail dan naar ${SUPPORT}.`, { exact: true }).waitFor();
    await expect.poll(() => hasFocus(alert)).toBe(true);
    expect(await toasts(page).count()).toBe(0);
    await expectDialogFits(page, dialog, 'new-user dialog with a failure');
    await alert.scrollIntoViewIfNeeded();
    await shoot(page, '6-new-user-failure');
    await resizeTo(page, PHONE);
    await expectDialogFits(page, dialog, 'new-user dialog with a failure');
    await resizeTo(page, LAPTOP);

    // Again, now that the server answers: the dialog closes with the success toast.
    await page.unroute(USERS);
    await add.click();
    await dialog.waitFor({ state: 'detached' });
    await toasts(page).filter({ hasText: 'Bestaande gebruiker aangepast' }).waitFor();

    // Editing fails: the spec's text with the support address, in the dialog.
    await failing(page, USER, 'PUT');
    await rowOf(page, lotte.email).getByRole('button', { name: 'Bewerken: Lotte Collega' }).click();
    const edit = page.getByRole('dialog', { name: 'Gebruiker bewerken' });
    await edit.getByLabel('Voornaam').fill('Lot');
    await edit.getByRole('button', { name: 'Opslaan' }).click();
    const editAlert = edit.getByRole('alert');
    await editAlert.getByText('Kon gebruiker niet bewerken', { exact: true }).waitFor();
    await editAlert.getByRole('link', { name: SUPPORT }).waitFor();
    await expect.poll(() => hasFocus(editAlert)).toBe(true);
    await expectAccessible(page, 'edit dialog with a failure');
  }, 120_000);

  it('adds words in tooltips over nothing, draws the select chevron, keeps an error toast until closed', async () => {
    const { page } = await signInAsAdministrator(journey);
    const colleague = await createColleague(journey, { first: 'Tim' });
    await page.reload();
    const row = rowOf(page, colleague.email);
    await row.waitFor();

    for (const size of [WIDE, LAPTOP, { width: 940, height: 900 }, PHONE]) {
      await resizeTo(page, size);
      await page.waitForTimeout(200);
      const buttons = row.getByRole('button');
      const count = await buttons.count();
      // Reset 2FA, Bewerken, Afmelden, Blokkeer, Verwijderen.
      expect(count).toBe(5);
      for (let index = 0; index < count; index += 1) {
        const button = buttons.nth(index);
        await button.scrollIntoViewIfNeeded();
        // The way a mouse comes: moving onto the button from beside it (a pointer that jumps is not a hover).
        const at = (await button.boundingBox())!;
        await page.mouse.move(at.x - 40, at.y + at.height / 2);
        await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2, { steps: 5 });
        const tooltip = page.getByRole('tooltip');
        const hovered = (await button.getAttribute('aria-label'))!;
        const text = await button.innerText();
        // A tooltip only where it adds words to the button's text ('Afmelden op alle apparaten'), and only where it
        // covers nothing: in the table the side before the buttons is free; on a card every side of a button may be
        // taken by other buttons and text, and then it is left out.
        const shown = await tooltip.waitFor({ timeout: 2_000 }).then(
          () => true,
          () => false,
        );
        if (hovered.startsWith(`${text}:`)) {
          expect(shown, `tooltip of '${hovered}' repeats its text`).toBe(false);
          continue;
        }
        if (size === WIDE) expect(shown, `tooltip of '${hovered}'`).toBe(true);
        if (!shown) continue;
        const said = await tooltip.innerText();
        expect(said).toMatch(new RegExp(`^${text} \\S`));
        expect(hovered).toBe(`${said}: Tim Collega`);
        const tip = (await tooltip.boundingBox())!;
        // No other control, and no line of text, under it.
        const boxes = await button.evaluate((hoveredButton) => {
          const found: { name: string; x: number; y: number; width: number; height: number }[] = [];
          const add = (name: string, boxes: DOMRectList) => {
            for (const box of Array.from(boxes))
              if (box.width > 0 && box.height > 0)
                found.push({ name, x: box.x, y: box.y, width: box.width, height: box.height });
          };
          const tooltip = document.querySelector('[role="tooltip"]')!;
          for (const control of Array.from(document.querySelectorAll('main button, main select, main input, main a')))
            if (control !== hoveredButton) add(control.getAttribute('aria-label') ?? '', control.getClientRects());
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          const range = document.createRange();
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!node.textContent?.trim() || tooltip.contains(node) || hoveredButton.contains(node)) continue;
            range.selectNodeContents(node);
            add(node.textContent.trim(), range.getClientRects());
          }
          return found;
        });
        const covered = boxes.filter((box) => overlaps(tip, box));
        expect(covered, `tooltip of '${hovered}' at ${size.width} px`).toEqual([]);
        await page.mouse.move(1, 1);
        await tooltip.waitFor({ state: 'detached' });
      }
    }
    await resizeTo(page, WIDE);
    const signOutButton = row.getByRole('button', { name: 'Afmelden op alle apparaten: Tim Collega' });
    await signOutButton.scrollIntoViewIfNeeded();
    const signOut = (await signOutButton.boundingBox())!;
    await page.mouse.move(signOut.x - 40, signOut.y + signOut.height / 2);
    await page.mouse.move(signOut.x + signOut.width / 2, signOut.y + signOut.height / 2, { steps: 5 });
    await page.getByRole('tooltip').waitFor();
    await shoot(page, '7-tooltip');
    await page.mouse.move(1, 1);
    await resizeTo(page, LAPTOP);

    // The sort select: a chevron at its end, with room for it beside the text.
    const select = page.getByLabel('Sorteer op');
    const chevron = await select.evaluate((element) => {
      const style = getComputedStyle(element);
      return {
        image: style.backgroundImage,
        repeat: style.backgroundRepeat,
        padding: Number.parseFloat(style.paddingRight),
        size: Number.parseFloat(style.backgroundSize),
      };
    });
    expect(chevron.image).toContain('svg');
    expect(chevron.repeat).toBe('no-repeat');
    expect(chevron.size).toBeGreaterThanOrEqual(12);
    expect(chevron.padding).toBeGreaterThanOrEqual(chevron.size + 8);

    // An error toast (sign-in refused) stays until it is closed, by keyboard too.
    const visitor = await journey.person('bezoeker');
    await refuseSignIns(visitor);
    await signInWithPassword(visitor, colleague.email, colleague.password);
    const error = toasts(visitor).filter({ hasText: 'Je kan momenteel niet inloggen' });
    await error.waitFor();
    await visitor.waitForTimeout(7_000);
    expect(await error.isVisible()).toBe(true);
    expect(await error.evaluate((toast) => toast.classList.contains('dvp-toast--fading'))).toBe(false);
    await expectAccessible(visitor, 'sign-in with an error toast');
    await shoot(visitor, '8-error-toast');
    const close = error.getByRole('button', { name: 'Sluiten' });
    await tabTo(visitor, close);
    await visitor.keyboard.press('Enter');
    await error.waitFor({ state: 'detached' });
    expect(await focusOnPage(visitor)).toBe(true);
  }, 120_000);
});
