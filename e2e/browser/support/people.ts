import type { Locator, Page } from 'playwright-core';

/** The sidebar ('Account') of the shared layout, where the signed-in person's name shows. */
export const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Account' });

/** Signs out with the sidebar's 'Uitloggen' and waits for the sign-in form. */
export async function signOut(page: Page) {
  await page.getByRole('link', { name: 'Uitloggen', exact: true }).first().click();
  await page.waitForURL((url) => url.pathname === '/login');
  await page.getByLabel('E-mailadres').waitFor();
}

/** The texts that assistive technology reads as the field's description (its `aria-describedby` elements). */
export function descriptionOf(field: Locator): Promise<string> {
  return field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => element.ownerDocument.getElementById(id)?.textContent?.trim() ?? '')
      .join(' | '),
  );
}
