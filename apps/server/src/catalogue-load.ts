import { catalogueDiff, type CatalogueDiff } from '@portaal/users-api';
import type { Product } from './product.js';

/** A data role the file removes, with the addresses of whoever holds it now. */
interface Loss {
  object: string;
  label: string;
  holders: string[];
}

/** What loading the file would change, and who would lose a data role by it. */
export async function catalogueLoadPlan(product: Product, file: string): Promise<CatalogueDiff & { losses: Loss[] }> {
  const [current, next] = await Promise.all([product.catalogue.current(), product.catalogue.readFile(file)]);
  const diff = catalogueDiff(current, next);
  const losses = await Promise.all(
    diff.removedDataRoles.map(async ({ object, label }) => {
      const tuples = await product.backend.relations.list({ namespace: 'subdivisions', object });
      const people = await product.backend.identities.get([...new Set(tuples.flatMap((t) => t.subject_id ?? []))]);
      return { object, label, holders: people.map((person) => person.traits.email).sort() };
    }),
  );
  return { ...diff, losses };
}

/**
 * Loads a catalogue file as a whole: the catalogue is replaced in one transaction, then the data roles it no longer
 * has are taken from whoever held them, as retiring one in 'Programmabeheer' does; one audit entry records the load.
 */
export async function loadCatalogueFile(product: Product, file: string) {
  const plan = await catalogueLoadPlan(product, file);
  const catalogue = await product.catalogue.loadFile(file);
  if (plan.removedDataRoles.length > 0) {
    await product.backend.relations.patch({
      delete: plan.removedDataRoles.map(({ object }) => ({ namespace: 'subdivisions', object })),
    });
  }
  if (plan.lines.length > 0) {
    await product.audit.record({
      action: 'catalogue.load',
      result: 'success',
      details: { changes: plan.lines.length, dataRolesRemoved: plan.removedDataRoles.length },
    });
  }
  return { catalogue, plan };
}
