import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { changeProgrammeRole, programmeAdministrators } from '@portaal/users-api';
import { loadConfig } from './config.js';
import { withProduct } from './product.js';

const USAGE = 'Gebruik: portaal programme-admin add --email ADRES | remove --email ADRES | list\n';

/**
 * `portaal programme-admin add|remove --email ADRES` grants or withdraws the programme administrator's role
 * ('Programmabeheer'), the tuple `programme:portaal#admin@<user>`, with its audit entry; `list` shows who holds it.
 * On the operator's word, so the first programme administrator of an installation can be made without one.
 */
export async function programmeAdmin(args: string[], log: FastifyBaseLogger): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'list') {
    const lines = await withProduct(loadConfig(), log, async ({ backend }) =>
      (await programmeAdministrators(backend)).map((person) => `${person.email} (${person.id})`),
    );
    process.stdout.write(lines.length > 0 ? `${lines.join('\n')}\n` : 'Er zijn nog geen programmabeheerders.\n');
    return 0;
  }
  if (sub !== 'add' && sub !== 'remove') {
    process.stderr.write(USAGE);
    return 2;
  }
  const { values } = parseArgs({ args: rest, options: { email: { type: 'string' } } });
  if (!values.email) {
    process.stderr.write('Geef een e-mailadres op met --email.\n');
    return 2;
  }
  const email = values.email.trim().toLowerCase();
  const message = await withProduct(loadConfig(), log, async ({ backend }) => {
    const person = await backend.identities.findByEmail(email);
    if (!person) return undefined;
    const audit = { organisationId: null, result: 'success' as const, details: { by: 'portaal programme-admin' } };
    await changeProgrammeRole(backend, { change: sub, person, audit, strict: false });
    return sub === 'add'
      ? `${person.traits.email} is programmabeheerder. Inloggen vraagt altijd een tweede factor.`
      : `${person.traits.email} is geen programmabeheerder meer.`;
  });
  if (!message) {
    process.stderr.write(`Er is geen account met ${email}. Maak het eerst aan met 'portaal user create'.\n`);
    return 1;
  }
  process.stdout.write(`${message}\n`);
  return 0;
}
