import type { Page } from 'playwright-core';
import { totpCode } from '../../support/identities.js';

// Free of Vitest, so that the screenshot script can use them too.

/** Fills the sign-in form (normal or administrator path) with e-mail address and password. */
export async function signInWithPassword(page: Page, email: string, password: string, path = '/login') {
  await page.goto(path);
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByLabel('Wachtwoord', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
}

/** Answers the second-factor step with the current code of the authenticator app. */
export async function enterTotpCode(page: Page, secret: string, offsetSteps = 0) {
  await page.getByLabel('Verificatiecode').fill(await totpCode(secret, offsetSteps));
  await page.getByRole('button', { name: 'Log in' }).click();
}
