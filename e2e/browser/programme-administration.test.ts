import { describe, expect, it } from 'vitest';
import { createMember, signInAtAal2 } from '../support/portal-users.js';
import { useJourney } from './support/journey.js';
import { atBothWidths, expectDialogFits, expectScreenFits } from './support/layout.js';
import {
  cli,
  DEMO_CATALOGUE,
  enrolAuthenticator,
  enterTotpCode,
  expectAccessible,
  linkFromMail,
  signInWithPassword,
} from './support/pages.js';

// Journey 32: 'Programmabeheer'. A programme administrator (made by the operator's CLI) adds a new municipality with
// the keyboard and invites its first administrator; she follows the mail, chooses a password, links an app, finds
// herself administrator of the new municipality and adds a colleague; the programme's list then counts them. The
// programme administrator then gives the municipality a data role and retires it, and deactivates the municipality
// and makes it active again, each after a confirmation.

const journey = useJourney();

describe("journey 32: 'Programmabeheer'", () => {
  it('adds a municipality and invites its first administrator, who sets up and adds a colleague', async () => {
    const staff = { email: 'pim.programma@dego.nl', password: 'Programma-Raad-Kaart-31' };
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    await createMember(journey.portaal, { ...staff, org: 'dego', first: 'Pim', last: 'Programma' });
    cli(journey.portaal, ['programme-admin', 'add', '--email', staff.email]);
    const { secret } = await signInAtAal2(journey.portaal, staff.email, staff.password);
    const page = await journey.person('programmabeheerder');
    await signInWithPassword(page, staff.email, staff.password);
    await enterTotpCode(page, secret);
    await page.getByRole('navigation', { name: 'Hoofdmenu' }).getByRole('link', { name: 'Programmabeheer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Programmabeheer' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Gemeente Voorbeeldstad' }).waitFor();
    await expectAccessible(page, "'Programmabeheer'");
    await atBothWidths(page, () => expectScreenFits(page, "'Programmabeheer'"));

    // With the keyboard only: the dialog, its fields in order, and 'Toevoegen'.
    await page.getByRole('button', { name: 'Organisatie toevoegen' }).focus();
    await page.keyboard.press('Enter');
    const add = page.getByRole('dialog', { name: 'Organisatie toevoegen' });
    await add.getByLabel('Code').waitFor();
    await atBothWidths(page, () => expectDialogFits(page, add, "'Organisatie toevoegen'"));
    await add.getByLabel('Code').focus();
    await page.keyboard.type('nieuwstad');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Gemeente Nieuwstad');
    expect(await add.getByLabel('Tweede factor verplicht').isChecked()).toBe(true);
    await add.getByRole('button', { name: 'Toevoegen' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Organisatie Gemeente Nieuwstad toegevoegd.').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Gemeente Nieuwstad' });
    await row.waitFor();

    const newcomer = { email: 'eva.eerste@nieuwstad.nl', password: 'Nieuwe-Stad-Eerste-Dag-1' };
    await row.getByRole('button', { name: 'Beheerder uitnodigen: Gemeente Nieuwstad' }).focus();
    await page.keyboard.press('Enter');
    const invite = page.getByRole('dialog', { name: 'Beheerder uitnodigen' });
    await invite.getByLabel('Voornaam').fill('Eva');
    await invite.getByLabel('Achternaam').fill('Eerste');
    await invite.getByLabel('E-mailadres').fill(newcomer.email);
    await expectAccessible(page, "'Beheerder uitnodigen'");
    const sent = new Date();
    await invite.getByRole('button', { name: 'Uitnodigen' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Eva Eerste is uitgenodigd als beheerder van Gemeente Nieuwstad.').waitFor();

    // The first administrator follows the mail, chooses a password and links an app (Nieuwstad asks for it).
    const link = await linkFromMail(journey.portaal, newcomer.email, sent);
    const eva = await journey.person('eerste beheerder');
    await eva.goto(link);
    await eva.getByLabel('Nieuw wachtwoord', { exact: true }).fill(newcomer.password);
    await eva.getByLabel('Wachtwoord bevestigen', { exact: true }).fill(newcomer.password);
    await eva.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
    await enrolAuthenticator(eva);
    await eva.getByRole('link', { name: 'Verder naar het portaal' }).click();
    await eva.getByText('Je bent ingelogd als beheerder voor Gemeente Nieuwstad').waitFor();
    await eva
      .getByRole('navigation', { name: 'Hoofdmenu' })
      .getByRole('link', { name: 'Administratie dashboard' })
      .click();
    await eva.getByRole('heading', { level: 1, name: 'Overzicht' }).waitFor();

    // She adds the first colleague of her municipality herself.
    await eva.getByRole('button', { name: 'Nieuwe gebruiker toevoegen' }).click();
    const colleague = eva.getByRole('dialog', { name: 'Nieuwe gebruiker toevoegen' });
    await colleague.getByLabel('E-mailadres').fill('sam.stad@nieuwstad.nl');
    await colleague.getByLabel('Voornaam').fill('Sam');
    await colleague.getByLabel('Achternaam').fill('Stad');
    await colleague.getByRole('button', { name: 'Toevoegen' }).click();
    await eva.getByText('Nieuwe gebruiker aangemaakt').waitFor();

    // The programme's list counts them: two members, one administrator, one who has not signed in yet.
    await page.reload();
    const counted = page.getByRole('row').filter({ hasText: 'Gemeente Nieuwstad' });
    await expect
      .poll(async () => (await counted.getByRole('cell').allTextContents()).slice(1, 4))
      .toEqual(['2', '1', '1']);

    // A data role for the new municipality, with the keyboard: added, and retired again (nobody holds it yet).
    await counted.getByRole('button', { name: 'Datarollen: Gemeente Nieuwstad' }).focus();
    await page.keyboard.press('Enter');
    const roles = page.getByRole('dialog', { name: 'Datarollen van Gemeente Nieuwstad' });
    await roles.getByText('Gemeente Nieuwstad heeft nog geen datarollen.').waitFor();
    await expectAccessible(page, "'Datarollen'");
    await roles.getByRole('button', { name: 'Datarol toevoegen' }).focus();
    await page.keyboard.press('Enter');
    const addRole = page.getByRole('dialog', { name: 'Datarol toevoegen' });
    await addRole.getByLabel('Code').focus();
    await page.keyboard.type('wonen');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Wonen');
    await page.keyboard.press('Enter');
    await roles.getByRole('status').getByText('Datarol Wonen toegevoegd.').waitFor();
    const wonen = roles.getByRole('listitem').filter({ hasText: 'Wonen' });
    await wonen.getByText('Niemand heeft deze datarol').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Datarol toevoegen');
    await expectAccessible(page, "'Datarollen' with a data role");
    await atBothWidths(page, () => expectDialogFits(page, roles, "'Datarollen'"));

    await wonen.getByRole('button', { name: 'Opheffen: Wonen' }).focus();
    await page.keyboard.press('Enter');
    const retire = page.getByRole('alertdialog', { name: 'Datarol opheffen' });
    await retire.getByText(/^Niemand heeft deze datarol\. Als je Wonen opheft,/).waitFor();
    await retire.getByRole('button', { name: 'Opheffen' }).focus();
    await page.keyboard.press('Enter');
    await roles.getByRole('status').getByText('Datarol Wonen opgeheven.').waitFor();
    await roles.getByText('Gemeente Nieuwstad heeft nog geen datarollen.').waitFor();
    await page.keyboard.press('Escape');
    await roles.waitFor({ state: 'detached' });

    // Deactivated: nothing is deleted, the list says so; then active again.
    await counted.getByRole('button', { name: 'Deactiveren: Gemeente Nieuwstad' }).focus();
    await page.keyboard.press('Enter');
    const deactivate = page.getByRole('alertdialog', { name: 'Organisatie deactiveren' });
    await deactivate
      .getByText(
        'Leden van Gemeente Nieuwstad kunnen dan geen datavoorzieningen meer gebruiken via deze organisatie. Er ' +
          'wordt niets verwijderd; je kunt de organisatie later weer activeren.',
      )
      .waitFor();
    await expectAccessible(page, "'Organisatie deactiveren'");
    await deactivate.getByRole('button', { name: 'Deactiveren' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Gemeente Nieuwstad is gedeactiveerd.').waitFor();
    await counted.getByText('Gedeactiveerd', { exact: true }).waitFor();
    await expectAccessible(page, "'Programmabeheer' with a deactivated organisation");
    // On a laptop the list is still a table, its badge and four buttons a row included (components/use-cards.ts).
    expect(page.viewportSize()!.width).toBe(1280);
    expect(await page.locator('.dvp-table-scroll--cards').count()).toBe(0);
    const activate = counted.getByRole('button', { name: 'Activeren: Gemeente Nieuwstad' });
    await expect.poll(() => activate.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page
      .getByRole('alertdialog', { name: 'Organisatie activeren' })
      .getByRole('button', { name: 'Activeren' })
      .click();
    await page.getByText('Gemeente Nieuwstad is weer actief.').waitFor();
    await expect.poll(() => counted.getByText('Gedeactiveerd', { exact: true }).count()).toBe(0);
    await counted.getByRole('button', { name: 'Deactiveren: Gemeente Nieuwstad' }).waitFor();
  });
});
