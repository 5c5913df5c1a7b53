import type { Kysely } from 'kysely';
import type { UsersApiDatabase } from '../db/schema.js';
import type { Catalogue } from './catalogue.js';

type Db = Kysely<UsersApiDatabase>;

/** Replaces the whole catalogue in one transaction: readers see the old one or the new one, never a mix. */
export async function replaceCatalogue(db: Db, catalogue: Catalogue): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('catalogue_service_access').execute();
    await trx.deleteFrom('catalogue_services').execute();
    await trx.deleteFrom('catalogue_data_roles').execute();
    await trx.deleteFrom('catalogue_organisations').execute();
    for (const [position, org] of catalogue.organisations.entries()) {
      await trx
        .insertInto('catalogue_organisations')
        .values({ id: org.id, label: org.label, requires_aal2: org.requiresAal2 ? 1 : 0, position })
        .execute();
      for (const [rolePosition, role] of org.dataRoles.entries()) {
        await trx
          .insertInto('catalogue_data_roles')
          .values({ organisation_id: org.id, role_id: role.id, label: role.label, position: rolePosition })
          .execute();
      }
    }
    for (const [position, service] of catalogue.services.entries()) {
      await trx
        .insertInto('catalogue_services')
        .values({ id: service.id, name: service.name, description: service.description, url: service.url, position })
        .execute();
      const access = [
        ...service.organisations.map((object) => ({ service_id: service.id, kind: 'organisation', object })),
        ...service.dataRoles.map((object) => ({ service_id: service.id, kind: 'data_role', object })),
      ];
      if (access.length > 0) await trx.insertInto('catalogue_service_access').values(access).execute();
    }
  });
}

export async function readCatalogue(db: Db): Promise<Catalogue> {
  const [orgs, roles, services, access] = await Promise.all([
    db.selectFrom('catalogue_organisations').selectAll().orderBy('position').execute(),
    db.selectFrom('catalogue_data_roles').selectAll().orderBy('position').execute(),
    db.selectFrom('catalogue_services').selectAll().orderBy('position').execute(),
    db.selectFrom('catalogue_service_access').selectAll().execute(),
  ]);
  return {
    organisations: orgs.map((org) => ({
      id: org.id,
      label: org.label,
      requiresAal2: org.requires_aal2 === 1,
      dataRoles: roles.filter((r) => r.organisation_id === org.id).map((r) => ({ id: r.role_id, label: r.label })),
    })),
    services: services.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      url: s.url,
      organisations: access.filter((a) => a.service_id === s.id && a.kind === 'organisation').map((a) => a.object),
      dataRoles: access.filter((a) => a.service_id === s.id && a.kind === 'data_role').map((a) => a.object),
    })),
  };
}
