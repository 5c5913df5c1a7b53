import { sql, type Kysely, type Transaction } from 'kysely';
import type { UsersApiDatabase } from '../db/schema.js';
import { createClientSecretWrites, type ClientSecretPort } from '../oidc/client-secret-store.js';
import { deleteService, insertOrganisation, insertService, lockCatalogue } from './catalogue-repository.js';
import { dataRoleObject, type DataRole, type DataService, type Organisation } from './catalogue.js';

/**
 * Changes to one entry of the catalogue, as programme administrators make them in 'Programmabeheer'
 * (programme/programme-organisations.ts). Each takes the catalogue's lock, so a whole-file load
 * (`replaceCatalogue`) and a change never interleave; inside `atomically` they commit with their audit entry.
 */
export interface CataloguePort extends ClientSecretPort {
  /** Adds an organisation after the others; false when its id is taken, and then nothing is written. */
  addOrganisation(org: Organisation): Promise<boolean>;
  /** Changes an organisation's name or second-factor rule; false when there is no such organisation. */
  changeOrganisation(
    id: string,
    changes: { label?: string; requiresAal2?: boolean; active?: boolean },
  ): Promise<boolean>;
  /** Adds a data role after the organisation's others; what stood in the way, if anything (then nothing is written). */
  addDataRole(orgId: string, role: DataRole): Promise<'added' | 'no_organisation' | 'taken'>;
  /** Renames a data role; false when the organisation has no such role. */
  renameDataRole(orgId: string, roleId: string, label: string): Promise<boolean>;
  /**
   * Takes a data role out of the catalogue and out of every service's access rule; false when there is no such role.
   * Who holds it is the relations' side (programme/programme-data-roles.ts).
   */
  retireDataRole(orgId: string, roleId: string): Promise<boolean>;
  /** Adds a data service after the others, or replaces the one with its id in its place; answers which. */
  putService(service: DataService): Promise<'added' | 'changed'>;
  /** Removes a data service; false when there is none with this id. */
  removeService(id: string): Promise<boolean>;
}

type Db = Kysely<UsersApiDatabase>;

/** On a transaction, within it; otherwise in one of its own. */
const inTransaction = <T>(db: Db, work: (trx: Transaction<UsersApiDatabase>) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db as Transaction<UsersApiDatabase>) : db.transaction().execute(work);

export function createCatalogueWrites<DB>(db: Kysely<DB>): CataloguePort {
  const typed = db as unknown as Db;
  return {
    ...createClientSecretWrites(db),
    putService: (service) =>
      inTransaction(typed, async (trx) => {
        await lockCatalogue(trx);
        const position = await deleteService(trx, service.id);
        if (position !== undefined) {
          await insertService(trx, service, position);
          return 'changed';
        }
        const { last } = await trx
          .selectFrom('catalogue_services')
          .select(sql<number | null>`max(position)`.as('last'))
          .executeTakeFirstOrThrow();
        await insertService(trx, service, (last === null ? -1 : Number(last)) + 1);
        return 'added';
      }),
    removeService: (id) =>
      inTransaction(typed, async (trx) => {
        await lockCatalogue(trx);
        return (await deleteService(trx, id)) !== undefined;
      }),
    addOrganisation: (org) =>
      inTransaction(typed, async (trx) => {
        await lockCatalogue(trx);
        const taken = await trx
          .selectFrom('catalogue_organisations')
          .select('id')
          .where('id', '=', org.id)
          .executeTakeFirst();
        if (taken) return false;
        const { last } = await trx
          .selectFrom('catalogue_organisations')
          .select(sql<number | null>`max(position)`.as('last'))
          .executeTakeFirstOrThrow();
        const position = (last === null ? -1 : Number(last)) + 1;
        await insertOrganisation(trx, org, position);
        return true;
      }),
    changeOrganisation: (id, changes) =>
      inTransaction(typed, async (trx) => {
        await lockCatalogue(trx);
        if (Object.values(changes).every((value) => value === undefined)) {
          return Boolean(
            await trx.selectFrom('catalogue_organisations').select('id').where('id', '=', id).executeTakeFirst(),
          );
        }
        const result = await trx
          .updateTable('catalogue_organisations')
          .set({
            ...(changes.label === undefined ? {} : { label: changes.label }),
            ...(changes.requiresAal2 === undefined ? {} : { requires_aal2: changes.requiresAal2 ? 1 : 0 }),
            ...(changes.active === undefined ? {} : { active: changes.active ? 1 : 0 }),
          })
          .where('id', '=', id)
          .executeTakeFirst();
        return Number(result.numUpdatedRows) > 0;
      }),
    addDataRole: (orgId, role) =>
      inTransaction(typed, async (trx) => {
        await lockCatalogue(trx);
        const org = await trx
          .selectFrom('catalogue_organisations')
          .select('id')
          .where('id', '=', orgId)
          .executeTakeFirst();
        if (!org) return 'no_organisation';
        const roles = await trx
          .selectFrom('catalogue_data_roles')
          .select(['role_id', 'position'])
          .where('organisation_id', '=', orgId)
          .execute();
        if (roles.some((r) => r.role_id === role.id)) return 'taken';
        const position = Math.max(-1, ...roles.map((r) => Number(r.position))) + 1;
        await trx
          .insertInto('catalogue_data_roles')
          .values({ organisation_id: orgId, role_id: role.id, label: role.label, position })
          .execute();
        return 'added';
      }),
    renameDataRole: (orgId, roleId, label) =>
      inTransaction(typed, async (trx) => {
        await lockCatalogue(trx);
        const result = await trx
          .updateTable('catalogue_data_roles')
          .set({ label })
          .where('organisation_id', '=', orgId)
          .where('role_id', '=', roleId)
          .executeTakeFirst();
        return Number(result.numUpdatedRows) > 0;
      }),
    retireDataRole: (orgId, roleId) =>
      inTransaction(typed, async (trx) => {
        await lockCatalogue(trx);
        const result = await trx
          .deleteFrom('catalogue_data_roles')
          .where('organisation_id', '=', orgId)
          .where('role_id', '=', roleId)
          .executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        await trx
          .deleteFrom('catalogue_service_access')
          .where('kind', '=', 'data_role')
          .where('object', '=', dataRoleObject(roleId, orgId))
          .execute();
        return true;
      }),
  };
}
