import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import type { UsersApiDatabase } from '../db/schema.js';
import { oidcClientSettings, type Catalogue, type DataService, type Organisation } from './catalogue.js';

type Db = Kysely<UsersApiDatabase>;

// Any fixed number, the same in every process: the key of the advisory lock that serialises catalogue loads.
const CATALOGUE_LOCK_KEY = 461_275_301;

/**
 * Replaces the whole catalogue in one transaction: readers see the old one or the new one, never a mix. Processes
 * that start together on one database load the same file at the same moment: the loads take turns, and a catalogue
 * equal to the stored one is not written again. Answers whether anything was written.
 */
export async function replaceCatalogue(db: Db, catalogue: Catalogue): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await lockCatalogue(trx);
    if (JSON.stringify(await readCatalogue(trx)) === JSON.stringify(catalogue)) return false;
    await trx.deleteFrom('catalogue_service_access').execute();
    await trx.deleteFrom('catalogue_oidc_clients').execute();
    await trx.deleteFrom('catalogue_services').execute();
    await trx.deleteFrom('catalogue_data_roles').execute();
    await trx.deleteFrom('catalogue_organisations').execute();
    for (const [position, org] of catalogue.organisations.entries()) await insertOrganisation(trx, org, position);
    for (const [position, service] of catalogue.services.entries()) await insertService(trx, service, position);
    return true;
  });
}

/** One data service with its access rule and OpenID Connect client, at `position` in the list. */
export async function insertService(trx: Transaction<UsersApiDatabase>, service: DataService, position: number) {
  await trx
    .insertInto('catalogue_services')
    .values({
      id: service.id,
      name: service.name,
      description: service.description,
      url: service.url,
      position,
      forward_auth: service.forwardAuth ? 1 : 0,
    })
    .execute();
  const access = [
    ...service.organisations.map((object) => ({ service_id: service.id, kind: 'organisation', object })),
    ...service.dataRoles.map((object) => ({ service_id: service.id, kind: 'data_role', object })),
  ];
  if (access.length > 0) await trx.insertInto('catalogue_service_access').values(access).execute();
  if (service.oidc) {
    await trx
      .insertInto('catalogue_oidc_clients')
      .values({
        service_id: service.id,
        client_id: service.oidc.clientId,
        client_type: service.oidc.type,
        redirect_uris: JSON.stringify(service.oidc.redirectUris),
        post_logout_redirect_uris: JSON.stringify(service.oidc.postLogoutRedirectUris),
        backchannel_logout_uri: service.oidc.backchannelLogoutUri ?? null,
        initiate_login_uri: service.oidc.initiateLoginUri ?? null,
      })
      .execute();
  }
}

/** Removes one data service with its access rule and client; answers its position, or undefined when absent. */
export async function deleteService(trx: Transaction<UsersApiDatabase>, id: string): Promise<number | undefined> {
  const found = await trx.selectFrom('catalogue_services').select('position').where('id', '=', id).executeTakeFirst();
  if (!found) return undefined;
  await trx.deleteFrom('catalogue_service_access').where('service_id', '=', id).execute();
  await trx.deleteFrom('catalogue_oidc_clients').where('service_id', '=', id).execute();
  await trx.deleteFrom('catalogue_services').where('id', '=', id).execute();
  return Number(found.position);
}

/** One organisation with its data roles, at `position` in the list. */
export async function insertOrganisation(trx: Transaction<UsersApiDatabase>, org: Organisation, position: number) {
  await trx
    .insertInto('catalogue_organisations')
    .values({
      id: org.id,
      label: org.label,
      requires_aal2: org.requiresAal2 ? 1 : 0,
      position,
      active: org.active ? 1 : 0,
    })
    .execute();
  for (const [rolePosition, role] of org.dataRoles.entries()) {
    await trx
      .insertInto('catalogue_data_roles')
      .values({ organisation_id: org.id, role_id: role.id, label: role.label, position: rolePosition })
      .execute();
  }
}

// PostgreSQL: an advisory lock held until the transaction ends. SQLite: a write that changes nothing takes the one
// write lock (waiting for another writer) before the comparison reads, so no read snapshot goes stale.
export async function lockCatalogue(trx: Transaction<UsersApiDatabase>): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select pg_advisory_xact_lock(${CATALOGUE_LOCK_KEY})`.execute(trx);
  } else {
    await trx.deleteFrom('catalogue_service_access').where(sql<boolean>`1 = 0`).execute();
  }
}

export async function readCatalogue(db: Db): Promise<Catalogue> {
  const [orgs, roles, services, access, clients] = await Promise.all([
    db.selectFrom('catalogue_organisations').selectAll().orderBy('position').execute(),
    db.selectFrom('catalogue_data_roles').selectAll().orderBy('position').execute(),
    db.selectFrom('catalogue_services').selectAll().orderBy('position').execute(),
    db.selectFrom('catalogue_service_access').selectAll().execute(),
    db.selectFrom('catalogue_oidc_clients').selectAll().execute(),
  ]);
  const clientOf = (serviceId: string) => {
    const row = clients.find((c) => c.service_id === serviceId);
    if (!row) return {};
    const oidc = oidcClientSettings({
      clientId: row.client_id,
      type: row.client_type === 'public' ? 'public' : 'confidential',
      redirectUris: JSON.parse(row.redirect_uris) as string[],
      postLogoutRedirectUris: JSON.parse(row.post_logout_redirect_uris) as string[],
      ...(row.backchannel_logout_uri ? { backchannelLogoutUri: row.backchannel_logout_uri } : {}),
      ...(row.initiate_login_uri ? { initiateLoginUri: row.initiate_login_uri } : {}),
    });
    return { oidc };
  };
  return {
    organisations: orgs.map((org) => ({
      id: org.id,
      label: org.label,
      requiresAal2: org.requires_aal2 === 1,
      active: Number(org.active) === 1,
      dataRoles: roles.filter((r) => r.organisation_id === org.id).map((r) => ({ id: r.role_id, label: r.label })),
    })),
    services: services.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      url: s.url,
      organisations: access.filter((a) => a.service_id === s.id && a.kind === 'organisation').map((a) => a.object),
      dataRoles: access.filter((a) => a.service_id === s.id && a.kind === 'data_role').map((a) => a.object),
      forwardAuth: Number(s.forward_auth) === 1,
      ...clientOf(s.id),
    })),
  };
}
