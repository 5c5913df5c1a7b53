import { type Catalogue, type DataService, dataRoleObject } from './catalogue.js';

/** A catalogue as its file is written (`catalogue.ts` parses it back to the same). */
export function catalogueFileOf(catalogue: Catalogue) {
  return {
    organisations: catalogue.organisations.map((org) => ({
      id: org.id,
      label: org.label,
      requiresAal2: org.requiresAal2,
      active: org.active,
      dataRoles: org.dataRoles.map((role) => ({ id: role.id, label: role.label })),
    })),
    services: catalogue.services.map((service) => ({
      id: service.id,
      name: service.name,
      description: service.description,
      url: service.url,
      access: { organisations: service.organisations, dataRoles: service.dataRoles },
      forwardAuth: service.forwardAuth,
      ...(service.oidc ? { oidc: service.oidc } : {}),
    })),
  };
}

/** What loading `next` over `current` changes, a Dutch line each, and the data roles it removes (their objects). */
export interface CatalogueDiff {
  lines: string[];
  removedDataRoles: { object: string; label: string }[];
}

const rolesOf = (catalogue: Catalogue) =>
  new Map(
    catalogue.organisations.flatMap((org) =>
      org.dataRoles.map((role) => [dataRoleObject(role.id, org.id), role.label] as const),
    ),
  );

const sameService = (a: DataService, b: DataService) => JSON.stringify(a) === JSON.stringify(b);

export function catalogueDiff(current: Catalogue, next: Catalogue): CatalogueDiff {
  const lines: string[] = [];
  const now = new Map(current.organisations.map((org) => [org.id, org]));
  const then = new Map(next.organisations.map((org) => [org.id, org]));
  for (const org of next.organisations) {
    const before = now.get(org.id);
    if (!before) lines.push(`+ organisatie ${org.id} (${org.label})`);
    else {
      if (before.label !== org.label)
        lines.push(`~ organisatie ${org.id}: naam '${before.label}' wordt '${org.label}'`);
      if (before.active !== org.active)
        lines.push(`~ organisatie ${org.id}: wordt ${org.active ? 'weer actief' : 'gedeactiveerd'}`);
      if (before.requiresAal2 !== org.requiresAal2)
        lines.push(
          `~ organisatie ${org.id}: tweede factor ${org.requiresAal2 ? 'wordt verplicht' : 'niet meer verplicht'}`,
        );
    }
  }
  for (const org of current.organisations)
    if (!then.has(org.id)) lines.push(`- organisatie ${org.id} (${org.label}); leden houden hun lidmaatschap`);
  const rolesNow = rolesOf(current);
  const rolesThen = rolesOf(next);
  for (const [object, label] of rolesThen) {
    const before = rolesNow.get(object);
    if (before === undefined) lines.push(`+ datarol ${object} (${label})`);
    else if (before !== label) lines.push(`~ datarol ${object}: naam '${before}' wordt '${label}'`);
  }
  const removedDataRoles = [...rolesNow]
    .filter(([object]) => !rolesThen.has(object))
    .map(([object, label]) => ({ object, label }));
  for (const { object, label } of removedDataRoles) lines.push(`- datarol ${object} (${label})`);
  const servicesNow = new Map(current.services.map((s) => [s.id, s]));
  const servicesThen = new Map(next.services.map((s) => [s.id, s]));
  for (const service of next.services) {
    const before = servicesNow.get(service.id);
    if (!before) lines.push(`+ datavoorziening ${service.id} (${service.name})`);
    else if (!sameService(before, service)) lines.push(`~ datavoorziening ${service.id} (${service.name}) gewijzigd`);
  }
  for (const service of current.services)
    if (!servicesThen.has(service.id)) lines.push(`- datavoorziening ${service.id} (${service.name})`);
  return { lines, removedDataRoles };
}
