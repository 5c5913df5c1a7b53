import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../config.js';
import { withProduct } from '../product.js';
import { importExportCommand } from '../kratos-export/export-commands.js';
import { importKratos, type KratosImportReport } from './kratos-import.js';

const USAGE =
  'Gebruik: portaal import kratos --kratos-database postgres://… [--keto-database postgres://…] [--dry-run]\n' +
  '         portaal import kratos-export MAP --admin-url URL [--keto-url URL]\n';

function reportText(report: KratosImportReport, dryRun: boolean): string {
  const lines = [
    `Uit Ory Kratos: ${report.read} accounts gelezen; ${report.created} ${dryRun ? 'zouden worden ' : ''}aangemaakt, ` +
      `${report.existing} al in het portaal, ${report.refused.length} niet over te nemen.`,
    ...report.refused.map(({ who, reason }) => `  niet overgenomen: ${who}: ${reason}`),
    ...report.notes.map(({ who, note }) => `  let op: ${who}: ${note}`),
  ];
  if (report.tuplesRead > 0 || report.tuplesRefused.length > 0)
    lines.push(
      `Uit Ory Keto: ${report.tuplesRead} relaties gelezen, ${report.tuplesWritten} overgenomen, ` +
        `${report.tuplesRefused.length} niet.`,
      ...report.tuplesRefused.map((line) => `  niet overgenomen: ${line}`),
    );
  lines.push(
    dryRun
      ? 'Proefdraai: er is niets geschreven.'
      : 'Sessies gaan niet mee: iedereen logt de volgende keer opnieuw in, met het eigen wachtwoord en de eigen app.',
  );
  return `${lines.join('\n')}\n`;
}

/**
 * `portaal import kratos --kratos-database URL [--keto-database URL] [--dry-run]`: moves an Ory Kratos and Keto
 * installation into the portal's own database (kratos-import.ts), or with `--dry-run` says what it would do and
 * every account or relation it cannot move, with why. With the Ory backend the portal keeps no people of its own.
 */
export async function importCommand(args: string[], log: FastifyBaseLogger): Promise<number> {
  const [source, ...rest] = args;
  if (source === 'kratos-export') return importExportCommand(rest);
  const { values } = parseArgs({
    args: rest,
    options: {
      'kratos-database': { type: 'string' },
      'keto-database': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
    },
  });
  const kratosDatabase = values['kratos-database'];
  if (source !== 'kratos' || !kratosDatabase) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = loadConfig();
  if (config.identityBackend === 'ory') {
    process.stderr.write('Met IDENTITY_BACKEND=ory staan de accounts al in Ory Kratos: er is niets te importeren.\n');
    return 2;
  }
  const dryRun = values['dry-run'];
  const report = await withProduct(config, log, async (product) => {
    const done = await importKratos(product, { kratosDatabase, ketoDatabase: values['keto-database'], dryRun });
    if (!dryRun)
      await product.audit.record({
        action: 'kratos.import',
        result: 'success',
        details: { created: done.created, refused: done.refused.length, tuples: done.tuplesWritten },
      });
    return done;
  });
  process.stdout.write(reportText(report, dryRun));
  return 0;
}
