import { invitationMail, organisationInvitationMail } from '@portaal/nl';
import type { ApiContext } from '../context.js';
import type { OutgoingMail } from '../ports.js';

const validHours = (ctx: ApiContext) => Math.round(ctx.options.invitationMs / 3_600_000);

/** The mail with a link to choose a password: a new account, from the new-user form or an import. */
export const newAccountMail = (
  ctx: ApiContext,
  to: { email: string; firstName?: string },
  url: string,
  organisationLabel: string,
): OutgoingMail => ({
  to: to.email,
  ...invitationMail({ url, validHours: validHours(ctx), organisationLabel, firstName: to.firstName }),
  templateType: 'invitation',
});

/** The mail of an invitation to join an organisation: an account of another one, from the form or an import. */
export const joinInvitationMail = (
  ctx: ApiContext,
  to: { email: string; firstName?: string },
  organisationLabel: string,
): OutgoingMail => ({
  to: to.email,
  ...organisationInvitationMail({
    url: new URL('/settings#organisaties', ctx.options.publicUrl).toString(),
    validHours: validHours(ctx),
    organisationLabel,
    firstName: to.firstName,
  }),
  templateType: 'organisation_invitation',
});

type Relation = { namespace: string; object: string; relation: string };

/** A relation as the audit log names it: `subdivisions:ruimte_voorbeeldstad#issuer`. */
export const relationName = (relation: Relation) => `${relation.namespace}:${relation.object}#${relation.relation}`;

/** Relations as the audit log names them. */
export const relationNames = (relations: readonly Relation[]) => relations.map(relationName);
