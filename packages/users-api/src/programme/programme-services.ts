import { errors } from '../api-error.js';
import { auditAbout } from '../audit/audit-about.js';
import { catalogueFileOf } from '../catalogue/catalogue-diff.js';
import { CatalogueError, type Catalogue, type DataService, parseCatalogue } from '../catalogue/catalogue.js';
import type { ApiContext } from '../context.js';
import { newClientSecret } from '../oidc/client-secret-store.js';
import type { ProgrammeActing } from './programme-organisations.js';
import { invalidService } from './service-refusal.js';

/** A data service in the catalogue file's shape, as 'Programmabeheer' shows and takes it. */
export type ServiceFile = ReturnType<typeof catalogueFileOf>['services'][number];

const fileOf = (service: DataService): ServiceFile =>
  catalogueFileOf({ organisations: [], services: [service] }).services[0]!;

/** The catalogue in force now, read afresh: a change is checked against every other entry as it stands. */
const fresh = (ctx: ApiContext): Promise<Catalogue> => {
  ctx.catalogue.forget();
  return ctx.catalogue.current();
};

export async function listServices(ctx: ApiContext): Promise<ServiceFile[]> {
  return (await ctx.catalogue.current()).services.map(fileOf);
}

/**
 * The service checked as the catalogue file is: its own fields and, in the catalogue as it would be, its access rule
 * (known organisations and data roles) and its client id (no other service's). Refused with the catalogue's words.
 */
function checkedService(current: Catalogue, input: ServiceFile): DataService {
  const file = catalogueFileOf(current);
  const at = file.services.findIndex((s) => s.id === input.id);
  if (at >= 0) file.services[at] = input;
  else file.services.push(input);
  try {
    return parseCatalogue(file).services.find((s) => s.id === input.id)!;
  } catch (error) {
    if (!(error instanceof CatalogueError)) throw error;
    const [, path = '', words = error.message] = /^services\[\d+\]\.?([^:]*): (.*)$/s.exec(error.message) ?? [];
    throw invalidService(path, words);
  }
}

/** A confidential client gets a new secret when it is new, or its client id or type changed. */
const needsSecret = (before: DataService | undefined, after: DataService) =>
  after.oidc?.type === 'confidential' &&
  (before?.oidc?.type !== 'confidential' || before.oidc.clientId !== after.oidc.clientId);

/**
 * Adds (`create`) or changes a data service. A confidential OpenID Connect client that needs one gets a secret
 * generated here, answered once and kept as its hash only; a client id that goes away takes its secrets along.
 */
export async function saveService(
  ctx: ApiContext,
  acting: ProgrammeActing,
  input: ServiceFile,
  mode: 'create' | 'update',
): Promise<{ service: ServiceFile; clientSecret?: string }> {
  const current = await fresh(ctx);
  const before = current.services.find((s) => s.id === input.id);
  if (mode === 'create' && before) throw errors.serviceExists();
  if (mode === 'update' && !before) throw errors.serviceNotFound();
  const service = checkedService(current, input);
  const secret = needsSecret(before, service) ? newClientSecret() : undefined;
  const details = { service: service.id, clientSecretIssued: secret !== undefined };
  await ctx.backend.atomically(async (ports) => {
    await ports.catalogue.putService(service);
    const gone = before?.oidc?.clientId;
    if (gone && gone !== service.oidc?.clientId) await ports.catalogue.removeSecrets(gone);
    if (secret) await ports.catalogue.addSecret(service.oidc!.clientId, secret.hash);
    const action = mode === 'create' ? 'programme.service.create' : 'programme.service.update';
    await ports.audit.record(auditAbout(acting.caller, acting.request, action, null, 'success', details, null));
  });
  ctx.catalogue.forget();
  return { service: fileOf(service), ...(secret ? { clientSecret: secret.secret } : {}) };
}

/**
 * A new client secret, answered once; the previous ones stay valid for `overlapHours`, so the service can switch
 * without a moment in which neither works.
 */
export async function rotateClientSecret(ctx: ApiContext, acting: ProgrammeActing, id: string, overlapHours: number) {
  const service = (await fresh(ctx)).services.find((s) => s.id === id);
  if (!service) throw errors.serviceNotFound();
  if (service.oidc?.type !== 'confidential') throw errors.noClientSecret();
  const { clientId } = service.oidc;
  const secret = newClientSecret();
  const previousValidUntil = new Date(Date.now() + overlapHours * 3_600_000).toISOString();
  await ctx.backend.atomically(async (ports) => {
    await ports.catalogue.addSecret(clientId, secret.hash, previousValidUntil);
    const details = { service: id, overlapHours };
    const entry = auditAbout(
      acting.caller,
      acting.request,
      'programme.service.rotate_secret',
      null,
      'success',
      details,
    );
    await ports.audit.record({ ...entry, organisationId: null });
  });
  return { clientSecret: secret.secret, previousValidUntil };
}

export async function removeService(ctx: ApiContext, acting: ProgrammeActing, id: string): Promise<void> {
  const service = (await fresh(ctx)).services.find((s) => s.id === id);
  if (!service) throw errors.serviceNotFound();
  await ctx.backend.atomically(async (ports) => {
    if (!(await ports.catalogue.removeService(id))) throw errors.serviceNotFound();
    if (service.oidc) await ports.catalogue.removeSecrets(service.oidc.clientId);
    const entry = auditAbout(acting.caller, acting.request, 'programme.service.remove', null, 'success', {
      service: id,
    });
    await ports.audit.record({ ...entry, organisationId: null });
  });
  ctx.catalogue.forget();
}
