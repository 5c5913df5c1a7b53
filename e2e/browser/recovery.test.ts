import { describe, expect, it } from 'vitest';
import { useJourney } from './support/journey.js';
import {
  cli,
  createColleague,
  DEMO_CATALOGUE,
  enterTotpCode,
  expectAccessible,
  linkFromMail,
  signInWithPassword,
} from './support/pages.js';
import { atBothWidths, expectScreenFits } from './support/layout.js';
import { descriptionOf, sidebar, signOut } from './support/people.js';

const journey = useJourney();

const SENT =
  'Als het opgegeven e-mailadres een geldig account is, wordt er een e-mail verzonden met ' +
  'instructies om het wachtwoord opnieuw in te stellen.';
const NOT_RECEIVED = 'E-mail niet ontvangen? Neem contact op met de administrator van jouw gemeente.';

describe('journey 6: a forgotten password', () => {
  it('is set anew by /recovery and the mailed link; the answer reveals nothing; the new password works', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    const colleague = await createColleague(journey, { first: 'Rosa' });
    const unknown = 'niemand-bekend@voorbeeldstad.nl';
    const newPassword = 'Vergeten-Sleutel-Haven-64';
    const page = await journey.person('vergeetachtige collega');

    await page.goto('/login');
    await page.getByRole('link', { name: 'Wachtwoord vergeten' }).click();
    await page.waitForURL((url) => url.pathname === '/recovery');
    await page.getByRole('heading', { name: 'Herstel je wachtwoord', level: 1 }).waitFor();
    await expectAccessible(page, 'recovery form');

    // The address must be valid.
    const emailField = page.getByLabel('E-mailadres');
    await emailField.fill('geen-e-mailadres');
    await page.getByRole('button', { name: 'Versturen' }).click();
    await page.getByText('E-mail is niet valide.', { exact: true }).waitFor();
    expect(await emailField.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(emailField)).toContain('E-mail is niet valide.');
    await expectAccessible(page, 'recovery form with a validation message');

    // An address without an account: the same answer, and no mail.
    await emailField.fill(unknown);
    await page.getByRole('button', { name: 'Versturen' }).click();
    const answer = page.getByRole('status').filter({ hasText: NOT_RECEIVED });
    await answer.waitFor();
    const answerForUnknown = await answer.innerText();
    expect(answerForUnknown).toContain(SENT);
    await expectAccessible(page, 'recovery answer for an unknown address');

    // An address with an account, written in capitals: the same answer, and a mail with a link.
    await page.goto('/recovery');
    await page.getByLabel('E-mailadres').fill(colleague.email.toUpperCase());
    const asked = new Date();
    await page.getByRole('button', { name: 'Versturen' }).click();
    await answer.waitFor();
    expect(await answer.innerText()).toBe(answerForUnknown);
    await expectAccessible(page, 'recovery answer for a known address');
    const link = await linkFromMail(journey.portaal, colleague.email, asked);
    expect(journey.portaal.mail.to(unknown)).toEqual([]);
    expect(journey.portaal.mail.messages.filter((mail) => mail.to.includes(unknown))).toEqual([]);

    // The mailed link signs in with the link alone; as the account has an app, its code comes first (the settings
    // flow asks for the highest assurance available), then the new password.
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('aal') === 'aal2');
    await page.getByLabel('Verificatiecode').waitFor();
    await expectAccessible(page, 'second-factor step after the recovery link');
    await enterTotpCode(page, colleague.secret!, 0);
    await page.waitForURL((url) => url.pathname === '/settings' && url.searchParams.has('flow'));
    await page.getByRole('heading', { name: 'Wachtwoord instellen', level: 1 }).waitFor();
    await expectAccessible(page, 'choose a new password after the recovery link');
    await page.getByLabel('Nieuw wachtwoord', { exact: true }).fill(newPassword);
    await page.getByLabel('Wachtwoord bevestigen', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
    await page.waitForURL((url) => url.pathname === '/permissies');
    await page.getByRole('heading', { name: 'Datavoorzieningen', level: 1 }).waitFor();
    await sidebar(page).getByText(colleague.name, { exact: true }).waitFor();
    await expectAccessible(page, 'Datavoorzieningen after recovery');

    // Later: the old password no longer works, the new one does.
    await signOut(page);
    await signInWithPassword(page, colleague.email, colleague.password);
    await page
      .getByText(
        'Het e-mailadres of wachtwoord klopt niet. Controleer ze en probeer het opnieuw. ' +
          'Na te veel mislukte pogingen is je account een tijdje geblokkeerd.',
        { exact: true },
      )
      .waitFor();
    await expectAccessible(page, 'sign-in refused with the old password');
    await signInWithPassword(page, colleague.email, newPassword);
    await page.getByLabel('Verificatiecode').waitFor();
    await enterTotpCode(page, colleague.secret!, 1);
    await page.waitForURL((url) => url.pathname === '/permissies');
    await sidebar(page).getByText(colleague.name, { exact: true }).waitFor();
  });

  it('ends without an app for a person whose organisation does not require one, at either width', async () => {
    const colleague = await createColleague(journey, { first: 'Dirk', withApp: false, org: 'dego' });
    const page = await journey.person('collega zonder app');
    await page.goto('/recovery');
    await page.getByLabel('E-mailadres').fill(colleague.email);
    const asked = new Date();
    await page.getByRole('button', { name: 'Versturen' }).click();
    await page.getByRole('status').filter({ hasText: NOT_RECEIVED }).waitFor();
    await page.goto(await linkFromMail(journey.portaal, colleague.email, asked));
    await page.getByRole('heading', { name: 'Wachtwoord instellen', level: 1 }).waitFor();
    await page.getByLabel('Nieuw wachtwoord', { exact: true }).fill('Vergeten-Sleutel-Haven-64');
    await page.getByLabel('Wachtwoord bevestigen', { exact: true }).fill('Vergeten-Sleutel-Haven-64');
    await page.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
    await page.waitForURL((url) => url.pathname === '/settings/2fa-app');
    const later = page.getByRole('link', { name: 'Later instellen en verder naar het portaal' });
    await later.waitFor();
    expect(await later.locator('xpath=..').innerText()).toContain('Voor jouw account is 2FA niet verplicht');
    await atBothWidths(page, () => expectScreenFits(page, "step 3 of the recovery, with 'Later instellen'"));
    await later.click();
    await page.waitForURL((url) => url.pathname === '/permissies');
    await sidebar(page).getByText(colleague.name, { exact: true }).waitFor();
  });

  it("stays on the recovery after a quick click on 'Wachtwoord vergeten' before the sign-in flow came", async () => {
    const page = await journey.person('snelle klikker');
    // The sign-in flow is answered only once the person has followed the link, and the recovery screen's code only
    // after that answer: the router shows the next screen in a transition, which waits for that code, while the
    // browser's address says /recovery already. An answer in that gap used to take the person back to /login.
    let clicked!: () => void;
    const followed = new Promise<void>((resolve) => (clicked = resolve));
    const flowAnswered = page.waitForResponse((answer) => answer.url().includes('/self-service/login/browser'));
    await page.route('**/self-service/login/browser*', async (route) => {
      await followed;
      await route.continue();
    });
    let leaving = false;
    await page.route('**/assets/*.js', async (route) => {
      if (leaving) await flowAnswered.then(() => new Promise((resolve) => setTimeout(resolve, 200)));
      await route.continue();
    });
    await page.goto('/login');
    const link = page.getByRole('link', { name: 'Wachtwoord vergeten' });
    await link.waitFor();
    leaving = true;
    await link.click();
    await page.waitForURL((url) => url.pathname === '/recovery');
    clicked();
    await flowAnswered;
    await page.getByRole('heading', { name: 'Herstel je wachtwoord', level: 1 }).waitFor();
    await page.getByLabel('E-mailadres').waitFor();
    expect(new URL(page.url()).pathname).toBe('/recovery');
  });
});
