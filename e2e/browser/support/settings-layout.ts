import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectScreenFits } from './layout.js';

/** Each form section of /settings and its own save button. */
const SAVES = [
  ['Account instelling wijzigen', 'Bewerkingen opslaan'],
  ['Wachtwoord aanpassen', 'Wachtwoord opslaan'],
] as const;

/**
 * /settings as the audit asked, at the window's width: the screen fits (no sideways scrolling, every control inside
 * the window, axe clean); one width for every text field of the profile, password and key sections; each section's
 * save button directly under its own fields and, focused, not covered by anything; the state of the second step said
 * in words; no placeholder (which reads as a value filled in); the show/hide toggles buttons that look like buttons.
 */
export async function expectSettingsLayout(page: Page, state: string) {
  const where = `${state} at ${page.viewportSize()!.width} px`;
  await expectScreenFits(page, where);

  const widths = await page
    .getByRole('main')
    .locator('input:not([type="hidden"])')
    .evaluateAll((inputs) =>
      inputs
        .filter((input) => input.getClientRects().length > 0)
        .map((input) => Math.round(input.getBoundingClientRect().width)),
    );
  expect(widths.length, `text fields on ${where}`).toBeGreaterThanOrEqual(5);
  expect(new Set(widths).size, `field widths on ${where}: ${widths.join(', ')}`).toBe(1);
  expect(await page.getByRole('main').locator('input[placeholder]').count(), `placeholders on ${where}`).toBe(0);

  for (const [heading, name] of SAVES) {
    const section = page.getByRole('region', { name: heading, exact: true });
    const save = section.getByRole('button', { name, exact: true });
    // The last control of the section's form is its save button, right under the last field.
    const controls = await section
      .locator('form')
      .locator('input:not([type="hidden"]), button, a')
      .evaluateAll((elements) => elements.map((element) => element.textContent?.trim() ?? element.tagName));
    expect(controls.at(-1), `last control of '${heading}' on ${where}`).toBe(name);
    const gap = await section.locator('form').evaluate((form) => {
      const fields = form.querySelectorAll('.utrecht-form-field');
      const last = fields[fields.length - 1]!.getBoundingClientRect();
      const button = form.querySelector('button[type="submit"]')!.getBoundingClientRect();
      return button.top - last.bottom;
    });
    expect(gap, `room between the fields and '${name}' on ${where}`).toBeGreaterThanOrEqual(0);
    expect(gap, `room between the fields and '${name}' on ${where}`).toBeLessThanOrEqual(48);
    // Reached with the keyboard from the section's last field, as a keyboard user does.
    await section.locator('form input:visible').last().focus();
    for (let step = 0; step < 3 && !(await save.evaluate((button) => button === document.activeElement)); step++)
      await page.keyboard.press('Tab');
    // What a sighted keyboard user sees of the focused button: in the window, and on top at its middle.
    const covered = await save.evaluate((button) => {
      const box = button.getBoundingClientRect();
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (box.top < -1 || box.bottom > window.innerHeight + 1)
        return `outside ${window.innerHeight}: ${box.top}-${box.bottom}`;
      return top !== null && button.contains(top) ? '' : `covered by ${top?.outerHTML.slice(0, 120)}`;
    });
    expect(covered, `'${name}' focused on ${where}`).toBe('');
  }

  const status = page.getByRole('list', { name: 'Status van je twee-factor-authenticatie' });
  for (const text of await status.getByRole('listitem').allInnerTexts())
    expect(text, `2FA status on ${where}`).toMatch(
      /^(Authenticator-app|Back-upcodes|Beveiligingssleutel of passkey): /,
    );
  expect(await status.getByRole('listitem').count(), `2FA status on ${where}`).toBe(3);

  for (const label of ['nieuw wachtwoord', 'wachtwoord bevestigen']) {
    const toggle = page.getByRole('button', { name: `Toon ${label}`, exact: true });
    expect(await toggle.getAttribute('aria-pressed'), `toggle for ${label} on ${where}`).toBe('false');
    const border = await toggle.evaluate((button) => getComputedStyle(button).borderTopColor);
    expect(border, `border of the toggle for ${label} on ${where}`).not.toBe('rgba(0, 0, 0, 0)');
  }
}
