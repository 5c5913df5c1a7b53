import { createIdentityWithPassword, findIdentityIdByIdentifier, type IdentityProvider } from '@portaal/idp';

/** Demo identities of `portaal demo` and `npm start`; fictional people, a password only for local use. */
export const DEMO_PASSWORD = 'Tulpen-Molen-Gracht-7';

export const demoAccounts = [
  { email: 'beheerder@voorbeeldstad.nl', firstName: 'Bea', lastName: 'Beheerder', role: 'beheerder' },
  { email: 'medewerker@voorbeeldstad.nl', firstName: 'Mees', lastName: 'Medewerker', role: 'medewerker' },
  { email: 'analist@dego.nl', firstName: 'Ali', lastName: 'Analist', role: 'medewerker' },
] as const;

/** Creates the demo identities that do not exist yet; safe to run on every start. */
export async function loadDemoAccounts(idp: IdentityProvider): Promise<{ created: number }> {
  let created = 0;
  for (const account of demoAccounts) {
    const existing = await findIdentityIdByIdentifier(idp.services.ctx.db.kysely, 'password', account.email);
    if (existing) continue;
    await createIdentityWithPassword(idp.services, { ...account, password: DEMO_PASSWORD, verified: true });
    created += 1;
  }
  return { created };
}

export function demoAccountsText(publicUrl: URL, mailboxUrl: string | undefined): string {
  const lines = [
    'Demo-accounts (wachtwoord voor allemaal: ' + DEMO_PASSWORD + '):',
    ...demoAccounts.map((a) => `  ${a.email.padEnd(30)} ${a.firstName} ${a.lastName} (${a.role})`),
    `Inloggen: ${new URL('/login', publicUrl).toString()}`,
    'Bij de eerste keer inloggen stel je een authenticator-app in (tweestapsverificatie).',
  ];
  if (mailboxUrl) lines.push(`E-mails (wachtwoordherstel, uitnodigingen) lees je op ${mailboxUrl}`);
  return lines.join('\n');
}
