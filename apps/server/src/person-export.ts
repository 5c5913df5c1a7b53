import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { findIdentityIdByAddress, kratosErrors, personalDataOf } from '@portaal/idp';
import { loadConfig } from './config.js';
import { withProduct } from './product.js';

/**
 * `portaal user export --email ADRES`: everything held about a person (AVG article 15) as one JSON document: the
 * identity, credentials by type, sessions, mails sent, organisations and data roles, pending invitations, the audit
 * entries in which they acted or were acted on, what access reviews recorded about them and the imported rows naming
 * their address.
 */
export async function exportPerson(args: string[], log: FastifyBaseLogger): Promise<number> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' } } });
  if (!values.email) {
    process.stderr.write('Geef het e-mailadres op met --email.\n');
    return 2;
  }
  const email = values.email.trim().toLowerCase();
  const document = await withProduct(loadConfig(), log, async (product) => {
    const id = await findIdentityIdByAddress(product.db.kysely, email);
    const held = id ? await personalDataOf(product.db.kysely, id) : undefined;
    if (!id || !held) throw kratosErrors.notFound(`er is geen account met ${email}.`);
    const [relations, invitations, audit, accessReviews, imports] = await Promise.all([
      product.relations.list({ subject_id: id }),
      product.apiContext.invitations.ofIdentity(id),
      product.audit.about(id),
      product.apiContext.reviews.about(id),
      product.apiContext.imports.rowsAbout(email),
    ]);
    return {
      exported_at: new Date().toISOString(),
      ...held,
      relations,
      invitations,
      audit,
      access_reviews: accessReviews,
      imports,
    };
  });
  process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  return 0;
}
