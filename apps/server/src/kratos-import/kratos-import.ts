import { importIdentity } from '@portaal/idp';
import type { RelationTuple } from '@portaal/relations';
import type { Product } from '../product.js';
import { readTuples } from './keto-reader.js';
import { mapIdentity, mapTuple } from './kratos-mapping.js';
import { connectReadOnly, identityColumns, networkOf, readIdentities } from './kratos-reader.js';

/** What an import did (or, in a dry run, would do), for the report. */
export interface KratosImportReport {
  read: number;
  created: number;
  existing: number;
  /** People not imported, with why. */
  refused: { who: string; reason: string }[];
  /** People imported without part of what they had, with what. */
  notes: { who: string; note: string }[];
  tuplesRead: number;
  tuplesWritten: number;
  tuplesRefused: string[];
}

/** Thrown to undo a dry run's batch: the same checks and writes, then nothing kept. */
class DryRun extends Error {}

const BATCH = 500;

const whoOf = (identity: { id: string; traits: Record<string, unknown> }) =>
  typeof identity.traits?.email === 'string' ? identity.traits.email : identity.id;

/**
 * Moves an Ory Kratos installation into the portal's own database: every identity of Kratos' network with its
 * credentials (ids, times and addresses kept; secrets sealed), a batch of 500 per transaction, then Keto's tuples that
 * the portal knows. An identity already there (by id) is left as it is, so running it again changes nothing; one
 * whose address or identifier another account has is refused. A dry run does every batch and undoes it.
 */
export async function importKratos(
  product: Product,
  options: { kratosDatabase: string; ketoDatabase?: string; dryRun: boolean },
): Promise<KratosImportReport> {
  const report: KratosImportReport = {
    read: 0,
    created: 0,
    existing: 0,
    refused: [],
    notes: [],
    tuplesRead: 0,
    tuplesWritten: 0,
    tuplesRefused: [],
  };
  const inPortal = new Set<string>();
  const db = product.db.kysely;
  const kratos = await connectReadOnly(options.kratosDatabase);
  try {
    const source = { nid: await networkOf(kratos), columns: await identityColumns(kratos) };
    for (let after: string | null = null; ; ) {
      const batch = await readIdentities(kratos, source, after, BATCH);
      if (batch.length === 0) break;
      after = batch[batch.length - 1]!.id;
      report.read += batch.length;
      const written = new Set<string>();
      await db
        .transaction()
        .execute(async (trx) => {
          for (const source of batch) {
            const mapped = mapIdentity(source);
            if ('refused' in mapped) {
              report.refused.push({ who: whoOf(source), reason: mapped.refused });
              continue;
            }
            const outcome = await importIdentity(trx, mapped.identity);
            if (outcome === 'conflict') {
              report.refused.push({ who: whoOf(source), reason: 'het e-mailadres hoort al bij een ander account' });
              continue;
            }
            if (outcome === 'exists') report.existing += 1;
            else report.created += 1;
            written.add(source.id);
            for (const note of mapped.notes) report.notes.push({ who: whoOf(source), note });
          }
          if (options.dryRun) throw new DryRun();
        })
        .catch((error) => {
          if (!(error instanceof DryRun)) throw error;
        });
      for (const id of written) inPortal.add(id);
    }
  } finally {
    await kratos.end();
  }
  if (options.ketoDatabase) await importTuples(product, options.ketoDatabase, inPortal, options.dryRun, report);
  return report;
}

async function importTuples(
  product: Product,
  url: string,
  people: ReadonlySet<string>,
  dryRun: boolean,
  report: KratosImportReport,
) {
  const keto = await connectReadOnly(url);
  try {
    const tuples = await readTuples(keto, await networkOf(keto));
    report.tuplesRead = tuples.length;
    const catalogue = await product.catalogue.current();
    const accepted: RelationTuple[] = [];
    for (const tuple of tuples) {
      const mapped = mapTuple(tuple, catalogue, people);
      if ('refused' in mapped) report.tuplesRefused.push(mapped.refused);
      else accepted.push(mapped.tuple);
    }
    for (let start = 0; start < accepted.length; start += BATCH) {
      const insert = accepted.slice(start, start + BATCH);
      await product.db.kysely
        .transaction()
        .execute(async (trx) => {
          await product.relations.within(trx).patch({ insert });
          if (dryRun) throw new DryRun();
        })
        .catch((error) => {
          if (!(error instanceof DryRun)) throw error;
        });
    }
    report.tuplesWritten = accepted.length;
  } finally {
    await keto.end();
  }
}
