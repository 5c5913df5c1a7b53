import { createIdentityWithPassword, findIdentityIdByIdentifier } from '@portaal/idp';
import { DEMO_CATALOGUE_FILE, type Catalogue } from '@portaal/users-api';
import type { RelationTuple } from '@portaal/relations';
import { homeRecord, type Product } from './product.js';

/** Demo identities of `portaal demo` and `npm start`; fictional people, a password only for local use. */
const DEMO_PASSWORD = 'Tulpen-Molen-Gracht-7';

interface DemoAccount {
  email: string;
  firstName: string;
  lastName: string;
  organisation: string;
  admin: boolean;
  dataRoles: string[];
  description: string;
}

const demoAccounts: DemoAccount[] = [
  {
    email: 'beheerder@voorbeeldstad.nl',
    firstName: 'Bea',
    lastName: 'Beheerder',
    organisation: 'voorbeeldstad',
    admin: true,
    dataRoles: ['sociaal-domein', 'ruimte'],
    description: 'beheerder van Gemeente Voorbeeldstad',
  },
  {
    email: 'medewerker@voorbeeldstad.nl',
    firstName: 'Mees',
    lastName: 'Medewerker',
    organisation: 'voorbeeldstad',
    admin: false,
    dataRoles: ['sociaal-domein'],
    description: 'medewerker van Gemeente Voorbeeldstad',
  },
  {
    email: 'analist@dego.nl',
    firstName: 'Ali',
    lastName: 'Analist',
    organisation: 'dego',
    admin: false,
    dataRoles: ['analyse'],
    description: 'analist bij DEGO, zonder verplichte tweestapsverificatie',
  },
];

const demoTuples = (account: DemoAccount, id: string): RelationTuple[] => [
  { namespace: 'organizations', object: account.organisation, relation: 'issuer', subject_id: id },
  ...(account.admin
    ? [{ namespace: 'organizations', object: account.organisation, relation: 'admin', subject_id: id }]
    : []),
  ...account.dataRoles.map((role) => ({
    namespace: 'subdivisions',
    object: `${role}_${account.organisation}`,
    relation: 'issuer',
    subject_id: id,
  })),
];

/**
 * Loads the demo catalogue when no catalogue is in force, creates the demo identities that do not exist yet and
 * gives them their organisations and data roles. Safe to run on every start.
 */
export async function loadDemo(product: Product): Promise<{ created: number; catalogue: Catalogue }> {
  let catalogue = await product.catalogue.current();
  if (catalogue.organisations.length === 0) catalogue = await product.catalogue.loadFile(DEMO_CATALOGUE_FILE);
  const { services, db } = { services: product.idp.services, db: product.db.kysely };
  let created = 0;
  for (const account of demoAccounts) {
    let id = await findIdentityIdByIdentifier(db, 'password', account.email);
    if (!id) {
      id = await createIdentityWithPassword(services, {
        ...account,
        password: DEMO_PASSWORD,
        verified: true,
        metadataAdmin: homeRecord(account.organisation),
      });
      created += 1;
    }
    await product.relations.patch({ insert: demoTuples(account, id) });
  }
  return { created, catalogue };
}

/**
 * The support and feedback addresses of the demo (`serve --demo`, `npm start`), so that the portal shows them as an
 * installation would; SUPPORT_EMAIL and FEEDBACK_EMAIL, when set, win. Never used without --demo.
 */
const DEMO_ADDRESSES = {
  SUPPORT_EMAIL: 'ondersteuning@voorbeeldstad.nl',
  FEEDBACK_EMAIL: 'feedback@voorbeeldstad.nl',
} as const;

/** The environment with the demo's addresses where it sets none of its own. */
export function withDemoAddresses(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const filled = { ...env };
  for (const [name, address] of Object.entries(DEMO_ADDRESSES)) {
    if (!filled[name]?.trim()) filled[name] = address;
  }
  return filled;
}

export function demoAccountsText(publicUrl: URL, mailboxUrl: string | undefined): string {
  const lines = [
    `Demo-accounts (wachtwoord voor allemaal: ${DEMO_PASSWORD}):`,
    ...demoAccounts.map((a) => `  ${a.email.padEnd(30)} ${a.firstName} ${a.lastName}, ${a.description}`),
    `Inloggen: ${new URL('/login', publicUrl).toString()}`,
    'Bij de eerste keer inloggen stel je een authenticator-app in (tweestapsverificatie); voor DEGO ' +
      'mag dat, maar hoeft het niet.',
  ];
  if (mailboxUrl) lines.push(`E-mails (wachtwoordherstel, uitnodigingen) lees je op ${mailboxUrl}`);
  return lines.join('\n');
}
