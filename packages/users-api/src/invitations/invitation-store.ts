import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { OrganisationInvitationsTable, UsersApiDatabase } from '../db/schema.js';

/** What accepting writes: tuples on the inviting organisation and its data roles, the subject added then. */
export interface InvitedRelation {
  namespace: string;
  object: string;
  relation: string;
}

/** A pending invitation to join an organisation: nothing is in the tuples until the person accepts. */
export interface Invitation {
  id: string;
  organisationId: string;
  identityId: string;
  email: string;
  relations: InvitedRelation[];
  invitedById: string | null;
  invitedByEmail: string | null;
  createdAt: string;
  expiresAt: string;
}

export interface InvitationStore {
  /** Stores an invitation, replacing a pending one of the same person and organisation. */
  replace(input: Omit<Invitation, 'id' | 'createdAt'>): Promise<Invitation>;
  get(id: string): Promise<Invitation | undefined>;
  ofIdentity(identityId: string): Promise<Invitation[]>;
  ofOrganisation(organisationId: string): Promise<Invitation[]>;
  /** How many invitations are pending (not expired) in each organisation that has any. */
  pendingCounts(): Promise<Map<string, number>>;
  /**
   * Makes an invitation valid until `expiresAt`, from `invitedBy`; false when it was gone already (answered,
   * withdrawn or expired at the same time), and then nothing is written.
   */
  renew(id: string, expiresAt: string, invitedBy: { id: string; email: string }): Promise<boolean>;
  /** Removes one invitation; false when it was gone already (accepted, declined or withdrawn at the same time). */
  remove(id: string): Promise<boolean>;
  removeOfIdentity(identityId: string): Promise<void>;
  /** Removes the invitations past their expiry and answers them, so that each expiry is audited once. */
  removeExpired(): Promise<Invitation[]>;
}

const toInvitation = (row: OrganisationInvitationsTable): Invitation => ({
  id: row.id,
  organisationId: row.organisation_id,
  identityId: row.identity_id,
  email: row.email,
  relations: JSON.parse(row.relations) as InvitedRelation[],
  invitedById: row.invited_by_id,
  invitedByEmail: row.invited_by_email,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

export function createInvitationStore<DB>(db: Kysely<DB>, now: () => Date = () => new Date()): InvitationStore {
  const typed = db as unknown as Kysely<UsersApiDatabase>;
  const table = () => typed.selectFrom('organisation_invitations').selectAll();
  return {
    async replace(input) {
      const invitation: Invitation = { ...input, id: crypto.randomUUID(), createdAt: now().toISOString() };
      await typed.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('organisation_invitations')
          .where('organisation_id', '=', input.organisationId)
          .where('identity_id', '=', input.identityId)
          .execute();
        await trx
          .insertInto('organisation_invitations')
          .values({
            id: invitation.id,
            organisation_id: invitation.organisationId,
            identity_id: invitation.identityId,
            email: invitation.email,
            relations: JSON.stringify(invitation.relations),
            invited_by_id: invitation.invitedById,
            invited_by_email: invitation.invitedByEmail,
            created_at: invitation.createdAt,
            expires_at: invitation.expiresAt,
          })
          .execute();
      });
      return invitation;
    },
    async get(id) {
      const row = await table().where('id', '=', id).executeTakeFirst();
      return row ? toInvitation(row) : undefined;
    },
    async ofIdentity(identityId) {
      return (await table().where('identity_id', '=', identityId).orderBy('created_at').execute()).map(toInvitation);
    },
    async ofOrganisation(organisationId) {
      const rows = await table().where('organisation_id', '=', organisationId).orderBy('created_at').execute();
      return rows.map(toInvitation);
    },
    async pendingCounts() {
      const rows = await typed
        .selectFrom('organisation_invitations')
        .select(['organisation_id', (eb) => eb.fn.countAll<number | string>().as('pending')])
        .where('expires_at', '>', now().toISOString())
        .groupBy('organisation_id')
        .execute();
      return new Map(rows.map((row) => [row.organisation_id, Number(row.pending)]));
    },
    async renew(id, expiresAt, invitedBy) {
      const result = await typed
        .updateTable('organisation_invitations')
        .set({ expires_at: expiresAt, invited_by_id: invitedBy.id, invited_by_email: invitedBy.email })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async remove(id) {
      const result = await typed.deleteFrom('organisation_invitations').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async removeOfIdentity(identityId) {
      await typed.deleteFrom('organisation_invitations').where('identity_id', '=', identityId).execute();
    },
    async removeExpired() {
      const cutoff = now().toISOString();
      const expired = (await table().where('expires_at', '<=', cutoff).execute()).map(toInvitation);
      const gone: Invitation[] = [];
      for (const invitation of expired) if (await this.remove(invitation.id)) gone.push(invitation);
      return gone;
    },
  };
}
