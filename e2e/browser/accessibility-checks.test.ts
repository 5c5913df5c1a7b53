import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { totpCode } from '../support/identities.js';
import { expectFocusVisible } from './support/focus-visible.js';
import { useJourney } from './support/journey.js';
import { openMenu, resizeTo, sizeOf } from './support/layout.js';
import { expectButtonsIdentifiable, expectFieldBoundaries } from './support/non-text-contrast.js';
import { cli, createColleague, DEMO_CATALOGUE, signInAsAdministrator, signInWithPassword } from './support/pages.js';
import { expectPasteWorks } from './support/paste.js';
import { expectTextSpacingKeepsAll } from './support/text-spacing.js';

const journey = useJourney();

const FIELDS = 'input:not([type="hidden"]), select, textarea';

/**
 * Words that point at a colour, a shape or a side: an instruction with one may lean on sight alone. Not 'links'
 * (left), which is also the plural of 'link'.
 */
const SENSORY = new RegExp(
  '\\b(rood|rode|groen|groene|blauw|blauwe|geel|gele|oranje|rond|ronde|vierkant|vierkante|driehoek|' +
    'linkerkant|rechterkant|rechts|linksboven|linksonder|rechtsboven|rechtsonder)\\b',
  'i',
);

/**
 * WCAG 1.4.5 and 1.3.3 as far as a browser sees them: the only image other than icons is the QR code (no `<img>`
 * else, no `<text>` in an SVG, background images only SVG icons without text), and no visible text names a colour,
 * a shape or a side. Also 2.4.6: one `h1`.
 */
async function expectNoImagesOfTextNorSensoryWords(page: Page, state: string) {
  const found = await page.evaluate((pattern) => {
    const visible = (element: Element) => element.getClientRects().length > 0;
    const images = Array.from(document.querySelectorAll('img'))
      .filter(visible)
      .map((image) => image.id || image.src.slice(0, 40));
    const svgText = Array.from(document.querySelectorAll('svg text')).map((text) => text.textContent);
    const backgrounds = Array.from(document.querySelectorAll('*'))
      .map((element) => getComputedStyle(element).backgroundImage)
      .filter((image) => image.includes('url(') && (!image.includes('image/svg+xml') || /%3Ctext|<text/i.test(image)));
    const words = new RegExp(pattern, 'i');
    const sensory = (document.body.innerText.match(new RegExp(`[^.\\n]*${pattern}[^.\\n]*`, 'gi')) ?? []).filter(
      (sentence) => words.test(sentence),
    );
    const headings = Array.from(document.querySelectorAll('h1')).filter(visible).length;
    return { images, svgText, backgrounds, sensory, headings };
  }, SENSORY.source);
  expect(
    found.images.filter((image) => image !== 'totp_qr'),
    `images other than the QR code on ${state}`,
  ).toEqual([]);
  expect(found.svgText, `text in an SVG on ${state}`).toEqual([]);
  expect(found.backgrounds, `background images other than SVG icons on ${state}`).toEqual([]);
  expect(found.sensory, `colour, shape or side in the text of ${state}`).toEqual([]);
  expect(found.headings, `h1 headings on ${state}`).toBe(1);
}

/** Every check of this journey on the screen as it is, at 375 and 1280 px; on a phone with the menu open. */
async function expectWhatAxeCannotSee(page: Page, state: string, withMenu = false) {
  for (const width of [375, 1280]) {
    await resizeTo(page, sizeOf(width));
    const where = `${state} at ${width} px`;
    if (withMenu) await openMenu(page);
    await expectNoImagesOfTextNorSensoryWords(page, where);
    await expectFocusVisible(page, where);
    await expectFieldBoundaries(page.locator(FIELDS), where);
    await expectButtonsIdentifiable(page.locator('button, [role="button"]'), where);
    await expectTextSpacingKeepsAll(page, where);
  }
}

describe('journey 26: focus rings, non-text contrast, text spacing and pasting on the main screens', () => {
  it('signs in and recovers: the checks, and paste and autocomplete in the e-mail and password fields', async () => {
    const page = await journey.person('bezoeker');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/login');
    const email = page.getByLabel('E-mailadres');
    const password = page.getByLabel('Wachtwoord', { exact: true });
    await email.waitFor();
    await page.waitForLoadState('networkidle');
    // 'webauthn': a passkey offered by autofill as well.
    expect(await email.getAttribute('autocomplete')).toBe('username webauthn');
    expect(await password.getAttribute('autocomplete')).toBe('current-password');
    await expectPasteWorks(email, 'iemand@voorbeeldstad.nl', 'the e-mail field of the sign-in');
    await expectPasteWorks(password, 'Geplakt-Wachtwoord-42', 'the password field of the sign-in');
    await expectWhatAxeCannotSee(page, 'sign-in');

    await page.goto('/recovery');
    await page.getByLabel('E-mailadres').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByLabel('E-mailadres').getAttribute('autocomplete')).toBe('email');
    await expectWhatAxeCannotSee(page, 'recovery');
  });

  it('asks only the code in the second step, and lets it and the code of a new app be pasted', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    const colleague = await createColleague(journey, { first: 'Plak' });
    const page = await journey.person('tweede stap');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInWithPassword(page, colleague.email, colleague.password);
    const code = page.getByLabel('Verificatiecode');
    await code.waitFor();
    await page.waitForLoadState('networkidle');
    // WCAG 3.3.7: the step asks nothing the first one was given.
    const asked = await page
      .getByRole('main')
      .locator('input:not([type="hidden"])')
      .evaluateAll((inputs) => inputs.filter((input) => input.getClientRects().length > 0).map((input) => input.id));
    expect(asked, 'visible fields of the second step').toEqual([await code.getAttribute('id')]);
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    await expectPasteWorks(code, '123456', 'the code field of the second step');
    await expectWhatAxeCannotSee(page, 'second step');
    // A pasted code signs in.
    const current = await totpCode(colleague.secret!);
    await code.focus();
    await page.evaluate(async (value) => navigator.clipboard.writeText(value), current);
    await page.keyboard.press('ControlOrMeta+V');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/permissies');

    const newcomer = await createColleague(journey, { first: 'Nieuw', withApp: false });
    const linking = await journey.person('app koppelen');
    await linking.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInWithPassword(linking, newcomer.email, newcomer.password);
    const check = linking.getByLabel('Code controleren');
    await check.waitFor();
    await linking.waitForLoadState('networkidle');
    expect(await check.getAttribute('autocomplete')).toBe('one-time-code');
    await expectPasteWorks(check, '654321', 'the code field of linking an app');
    await expectWhatAxeCannotSee(linking, 'linking an authenticator app');
  });

  it("checks the administrator's overview, a dialog, Datavoorzieningen and the settings' password fields", async () => {
    const { page } = await signInAsAdministrator(journey);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.waitForLoadState('networkidle');
    await expectWhatAxeCannotSee(page, 'overview', true);

    await resizeTo(page, sizeOf(1280));
    await page.getByRole('button', { name: 'Nieuwe gebruiker toevoegen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nieuwe gebruiker toevoegen' });
    await dialog.waitFor();
    await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await expectWhatAxeCannotSee(page, 'new-user dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.goto('/permissies');
    await page.getByRole('heading', { level: 1, name: 'Datavoorzieningen' }).waitFor();
    await page.waitForLoadState('networkidle');
    await expectWhatAxeCannotSee(page, 'Datavoorzieningen', true);

    await page.goto('/settings');
    const newPassword = page.getByLabel('Nieuw wachtwoord', { exact: true });
    await newPassword.waitFor();
    await page.waitForLoadState('networkidle');
    for (const field of [newPassword, page.getByLabel('Wachtwoord bevestigen', { exact: true })]) {
      expect(await field.getAttribute('autocomplete')).toBe('new-password');
      await expectPasteWorks(field, 'Geplakt-Nieuw-Wachtwoord-7', 'a new password in the settings');
    }
    await expectWhatAxeCannotSee(page, 'settings', true);
  });
});
