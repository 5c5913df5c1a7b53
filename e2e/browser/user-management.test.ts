import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useJourney } from './support/journey.js';
import {
  createColleague,
  enrolAuthenticator,
  enterTotpCode,
  expectAccessible,
  rowOf,
  signInAsAdministrator,
  signInWithPassword,
} from './support/pages.js';

const journey = useJourney();

describe('administrators manage the users of their municipality', () => {
  it('journey 3: adding an existing address locks the names and adds the data roles to that account', async () => {
    const { page, email: administrator } = await signInAsAdministrator(journey);
    const existing = await createColleague(journey, { first: 'Lotte', withApp: false });
    await page.reload();
    await rowOf(page, existing.email).waitFor();

    await page.getByRole('button', { name: 'Nieuwe gebruiker toevoegen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nieuwe gebruiker toevoegen' });
    // The new-user form's rules, reached by typing: the address pattern, then the names.
    await dialog.getByLabel('E-mailadres').fill('lotte@voorbeeldstad');
    await dialog.getByRole('button', { name: 'Toevoegen' }).click();
    const summary = dialog.getByRole('alert', { name: 'Controleer de volgende velden:' });
    await summary
      .getByText('Het opgegeven e-mailadres wordt niet herkent als valide e-mailadres.', { exact: true })
      .waitFor();
    await expect.poll(() => summary.evaluate((element) => element === document.activeElement)).toBe(true);
    await dialog.getByLabel('E-mailadres').fill('nog-niet-bekend@voorbeeldstad.nl');
    await dialog.getByLabel('E-mailadres').blur();
    await dialog.getByText('E-mailadres is nog niet in gebruik.').waitFor();
    await dialog.getByRole('button', { name: 'Toevoegen' }).click();
    await summary.getByText('Vul de naam in van de aan te maken gebruiker.', { exact: true }).waitFor();
    expect(await dialog.getByLabel('Voornaam').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'new-user dialog with validation messages');
    await dialog.getByLabel('E-mailadres').fill(existing.email.toUpperCase());
    await dialog.getByLabel('E-mailadres').blur();
    await dialog.getByText('Deze gebruiker heeft al een account.').waitFor();
    // Read-only rather than disabled, so that a name field with the focus keeps it (journey 17).
    expect(await dialog.getByLabel('Voornaam').isEditable()).toBe(false);
    expect(await dialog.getByLabel('Achternaam').isEditable()).toBe(false);
    await expectAccessible(page, 'new-user dialog with an existing address');
    await dialog.getByLabel('Financiën').check();
    await dialog.getByRole('button', { name: 'Toevoegen' }).click();
    await page.getByText('Bestaande gebruiker aangepast').waitFor();
    await rowOf(page, existing.email).getByRole('cell', { name: 'Financiën' }).waitFor();
    expect(await rowOf(page, existing.email).count()).toBe(1);

    // Editing the data roles: the chosen ones replace the old ones.
    await rowOf(page, existing.email).getByRole('button', { name: 'Bewerken' }).click();
    const edit = page.getByRole('dialog', { name: 'Gebruiker bewerken' });
    expect(await edit.getByLabel('Financiën').isChecked()).toBe(true);
    expect(await edit.getByLabel('Voornaam').inputValue()).toBe('Lotte');
    // Another account's address is checked on leaving the field, as the new-user form checks one, and refused.
    await edit.getByLabel('E-mailadres').fill(administrator);
    await edit.getByLabel('E-mailadres').blur();
    // Said at the field and in the form's summary of errors.
    await edit.getByRole('alert').getByText('Deze gebruiker heeft al een account.').waitFor();
    expect(await edit.getByLabel('E-mailadres').getAttribute('aria-invalid')).toBe('true');
    expect(await edit.getByText('Deze gebruiker heeft al een account.').count()).toBe(2);
    await expectAccessible(page, 'edit dialog with another account’s address');
    await edit.getByLabel('E-mailadres').fill(existing.email);
    await edit.getByLabel('E-mailadres').blur();
    await expect.poll(() => edit.getByLabel('E-mailadres').getAttribute('aria-invalid')).toBeNull();
    await edit.getByLabel('Voornaam').fill('');
    await edit.getByRole('button', { name: 'Opslaan' }).click();
    await edit
      .getByRole('alert', { name: 'Controleer de volgende velden:' })
      .getByText('De gebruiker moet een naam hebben.')
      .waitFor();
    await expectAccessible(page, 'edit dialog with a validation message');
    await edit.getByLabel('Voornaam').fill('Lotte');
    await edit.getByLabel('Financiën').uncheck();
    await edit.getByLabel('Ruimte en wonen').check();
    await edit.getByRole('button', { name: 'Opslaan' }).click();
    // Exactly: the message of the add before ('Bestaande gebruiker aangepast') may still be there.
    await page.getByText('Gebruiker aangepast', { exact: true }).waitFor();
    await rowOf(page, existing.email).getByRole('cell', { name: 'Ruimte en wonen' }).waitFor();
    expect(await rowOf(page, existing.email).getByRole('cell', { name: 'Financiën' }).count()).toBe(0);

    // Sorting and searching the table.
    await page.getByLabel('Sorteer op').selectOption({ label: 'Naam' });
    await page.getByRole('columnheader', { name: 'Naam' }).and(page.locator('[aria-sort="ascending"]')).waitFor();
    const names = await page.getByRole('row').locator('td:first-child').allInnerTexts();
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'nl', { sensitivity: 'base' })));
    await expectAccessible(page, 'overview sorted by name');
    await page.getByLabel('Zoek gebruiker').fill('LOTTE');
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await rowOf(page, existing.email).waitFor();
    await page.getByLabel('Zoek gebruiker').fill('niemand');
    await page
      .getByRole('cell', {
        name: "Geen gebruikers gevonden bij 'niemand'. Zoek op een deel van de naam of het e-mailadres.",
      })
      .waitFor();
    await expectAccessible(page, 'overview with a search that finds nobody');
  });

  it('journey 4: a blocked user cannot sign in and is struck through; unblocked, they can again', async () => {
    const { page } = await signInAsAdministrator(journey);
    const colleague = await createColleague(journey, { first: 'Bram' });
    await page.reload();
    const row = rowOf(page, colleague.email);
    await row.getByRole('button', { name: 'Blokkeer' }).click();
    const confirm = page
      .getByRole('alertdialog', { name: 'Gebruiker blokkeren' })
      .or(page.getByRole('dialog', { name: 'Gebruiker blokkeren' }));
    await confirm.getByText('Weet je zeker dat je de gebruiker wil blokkeren?').waitFor();
    await expectAccessible(page, 'block dialog');
    await confirm.getByRole('button', { name: 'Blokkeren' }).click();
    await page.getByText('Gebruiker geblokkeerd.').waitFor();
    await row.getByRole('button', { name: 'Deblokkeer' }).waitFor();
    expect(
      await row
        .getByRole('cell')
        .first()
        .evaluate((cell) => getComputedStyle(cell).textDecorationLine),
    ).toBe('line-through');
    await expectAccessible(page, 'overview with a blocked user');
    // The list as a file: the blocked colleague is in it as such.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Alle gebruikers downloaden (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^gebruikers-voorbeeldstad-\d{4}-\d\d-\d\d\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    const line = csv.split('\r\n').find((row) => row.includes(colleague.email));
    const address = colleague.email.replace(/\./g, '\\.');
    const day = '\\d{4}-\\d\\d-\\d\\d';
    expect(line).toMatch(
      // He signed in to link his app: the last column says when.
      new RegExp(
        `^Bram;Collega;${address};Medewerker;;${day};geblokkeerd;ja;authenticator-app;ja;${day} \\d\\d:\\d\\d$`,
      ),
    );

    const blocked = await journey.person('geblokkeerde collega');
    await signInWithPassword(blocked, colleague.email, colleague.password);
    await blocked.getByText('Dit account is geblokkeerd. Neem contact op met de beheerder van je gemeente.').waitFor();
    await expectAccessible(blocked, 'sign-in refused for a blocked account');

    await row.getByRole('button', { name: 'Deblokkeer' }).click();
    const unblock = page
      .getByRole('alertdialog', { name: 'Gebruiker deblokkeren' })
      .or(page.getByRole('dialog', { name: 'Gebruiker deblokkeren' }));
    await unblock.getByText('Weet je zeker dat je de gebruiker wil deblokkeren?').waitFor();
    await expectAccessible(page, 'unblock dialog');
    await unblock.getByRole('button', { name: 'Deblokkeren' }).click();
    await page.getByText('Gebruiker gedeblokkeerd.').waitFor();
    await row.getByRole('button', { name: 'Blokkeer' }).waitFor();

    await signInWithPassword(blocked, colleague.email, colleague.password);
    await enterTotpCode(blocked, colleague.secret!);
    await blocked.waitForURL((url) => url.pathname === '/permissies');
  });

  it('journey 5: after a 2FA reset the user links an app again; a deleted user is gone, cannot sign in', async () => {
    const { page } = await signInAsAdministrator(journey);
    const colleague = await createColleague(journey, { first: 'Fenna' });
    await page.reload();
    const row = rowOf(page, colleague.email);
    await row.getByRole('button', { name: 'Reset 2FA' }).click();
    const reset = page
      .getByRole('alertdialog', { name: '2FA Resetten' })
      .or(page.getByRole('dialog', { name: '2FA Resetten' }));
    await reset.getByText(/Weet je zeker dat je de tweestapsverificatie van Fenna Collega wil resetten\?/).waitFor();
    await expectAccessible(page, 'reset 2FA dialog');
    await reset.getByRole('button', { name: 'Resetten' }).click();
    await page.getByText('2FA reset succesvol').waitFor();
    await row.getByRole('button', { name: 'Bewerken' }).waitFor();
    expect(await row.getByRole('button', { name: 'Reset 2FA' }).count()).toBe(0);

    const person = await journey.person('collega na reset');
    await signInWithPassword(person, colleague.email, colleague.password);
    await enrolAuthenticator(person);

    await row.getByRole('button', { name: 'Verwijderen' }).click();
    const remove = page
      .getByRole('alertdialog', { name: 'Gebruiker verwijderen' })
      .or(page.getByRole('dialog', { name: 'Gebruiker verwijderen' }));
    await remove.getByText('Weet je zeker dat je de gebruiker wil verwijderen?').waitFor();
    await expectAccessible(page, 'delete dialog');
    await remove.getByRole('button', { name: 'Verwijderen' }).click();
    await page.getByText('Gebruiker verwijderd.').waitFor();
    await row.waitFor({ state: 'detached' });

    const gone = await journey.person('verwijderde collega');
    await signInWithPassword(gone, colleague.email, colleague.password);
    await gone.getByText('Het e-mailadres of wachtwoord klopt niet.').waitFor();
  });

  it('journey 19: an administrator signs a colleague out everywhere', async () => {
    const { page } = await signInAsAdministrator(journey);
    const colleague = await createColleague(journey, { first: 'Sanne' });
    const theirs = await journey.person('collega');
    await signInWithPassword(theirs, colleague.email, colleague.password);
    await enterTotpCode(theirs, colleague.secret!, 1);
    await theirs.waitForURL((url) => url.pathname === '/permissies');

    // 'Afmelden op alle apparaten': the colleague's session ends, on the server.
    await page.reload();
    await rowOf(page, colleague.email)
      .getByRole('button', { name: `Afmelden op alle apparaten: ${colleague.name}` })
      .click();
    const signOut = page.getByRole('alertdialog', { name: 'Afmelden op alle apparaten' });
    await signOut.getByText(`Weet je zeker dat je ${colleague.name} op alle apparaten wil afmelden?`).waitFor();
    await expectAccessible(page, 'sign-out-everywhere confirmation');
    await signOut.getByRole('button', { name: 'Afmelden' }).click();
    await page.getByText(`${colleague.name} is op alle apparaten afgemeld.`).waitFor();
    await theirs.reload();
    await theirs.waitForURL((url) => url.pathname === '/login');
  });
});
