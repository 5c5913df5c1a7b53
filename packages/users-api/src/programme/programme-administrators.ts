import { errors } from '../api-error.js';
import type { AuditEntry } from '../audit/audit-log.js';
import type { Backend, UserIdentity } from '../ports.js';
import { PROGRAMME, programmeAdminTuple } from './programme-role.js';

/** A programme administrator as 'Programmabeheer' lists them. */
export interface ProgrammeAdministrator {
  id: string;
  email: string;
  name: { first: string; last: string };
}

const holdersOf = async (ports: Pick<Backend, 'relations'>) =>
  (await ports.relations.list({ ...PROGRAMME })).flatMap((t) => (t.subject_id ? [t.subject_id] : []));

/** Everyone who holds the role, by name. */
export async function programmeAdministrators(backend: Backend): Promise<ProgrammeAdministrator[]> {
  const people = await backend.identities.get(await holdersOf(backend));
  const collator = new Intl.Collator('nl', { sensitivity: 'base' });
  return people
    .map((person) => ({ id: person.id, email: person.traits.email, name: person.traits.name }))
    .sort((a, b) => collator.compare(`${a.name.first} ${a.name.last}`, `${b.name.first} ${b.name.last}`));
}

interface RoleChange {
  change: 'add' | 'remove';
  person: UserIdentity;
  /** The audit entry of the change, without what it is about (filled in here). */
  audit: Omit<AuditEntry, 'action' | 'objectId' | 'objectEmail'>;
  /**
   * Refuse a change of nothing (adding someone who holds the role, removing someone who does not) and removing the
   * last holder: what a programme administrator asks in the screen. The operator's CLI may do either.
   */
  strict: boolean;
}

/**
 * Grants or withdraws the programme administrator's role: the tuple and its audit entry in one unit of work, the
 * refusals decided in it before anything is written.
 */
export async function changeProgrammeRole(backend: Backend, { change, person, audit, strict }: RoleChange) {
  await backend.atomically(async (ports) => {
    const holders = await holdersOf(ports);
    const holds = holders.includes(person.id);
    if (strict && change === 'add' && holds) throw errors.programmeAdminExists();
    if (strict && change === 'remove' && !holds) throw errors.programmeAdminNotFound();
    if (strict && change === 'remove' && holders.length <= 1) throw errors.lastProgrammeAdmin();
    const tuple = programmeAdminTuple(person.id);
    await ports.relations.patch(change === 'add' ? { insert: [tuple] } : { delete: [tuple] });
    await ports.audit.record({
      ...audit,
      action: `programme.admin.${change}`,
      objectId: person.id,
      objectEmail: person.traits.email,
    });
  });
}
