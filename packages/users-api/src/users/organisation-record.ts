import type { OrganisationRecord } from '../ports.js';

/** The organisation record in an identity's `metadata_admin`; anything malformed reads as empty. */
export function readOrganisationRecord(metadataAdmin: unknown): OrganisationRecord {
  if (!metadataAdmin || typeof metadataAdmin !== 'object') return {};
  const raw = metadataAdmin as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);
  const joined =
    raw.joined_organisations && typeof raw.joined_organisations === 'object'
      ? Object.fromEntries(
          Object.entries(raw.joined_organisations as Record<string, unknown>).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string',
          ),
        )
      : undefined;
  return { home: text(raw.home_organisation), active: text(raw.active_organisation), joined };
}

/** `metadata_admin` with the record written into it; other keys stay as they were. */
export function withOrganisationRecord(metadataAdmin: unknown, record: OrganisationRecord): Record<string, unknown> {
  const kept =
    metadataAdmin && typeof metadataAdmin === 'object' ? { ...(metadataAdmin as Record<string, unknown>) } : {};
  delete kept.home_organisation;
  delete kept.active_organisation;
  delete kept.joined_organisations;
  return {
    ...kept,
    ...(record.home ? { home_organisation: record.home } : {}),
    ...(record.active ? { active_organisation: record.active } : {}),
    ...(record.joined && Object.keys(record.joined).length > 0 ? { joined_organisations: record.joined } : {}),
  };
}
