import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../config.js';
import { withProduct } from '../product.js';
import { exportKratos } from './kratos-export.js';
import { importExport } from './export-import.js';

const EXPORT_USAGE = 'Gebruik: portaal export kratos --out MAP\n';
const IMPORT_USAGE = 'Gebruik: portaal import kratos-export MAP --admin-url URL [--keto-url URL]\n';

/**
 * `portaal export kratos --out MAP`: everyone with their credentials as Ory Kratos v26 imports them, the tuples in
 * Keto's format and the configuration of deploy/ory, for the move to Ory Kratos and Keto (kratos-export.ts).
 */
export async function exportCommand(args: string[], log: FastifyBaseLogger): Promise<number> {
  const [target, ...rest] = args;
  const { values } = parseArgs({ args: rest, options: { out: { type: 'string' } } });
  if (target !== 'kratos' || !values.out) {
    process.stderr.write(EXPORT_USAGE);
    return 2;
  }
  const out = values.out;
  const done = await withProduct(loadConfig(), log, (product) => exportKratos(product, out));
  process.stdout.write(
    `${done.identities} accounts en ${done.tuples} relaties geschreven naar ${out}.\n` +
      (done.configuration.length > 0
        ? `Configuratie voor Ory Kratos en Keto: ${done.configuration.join(', ')}.\n`
        : 'De configuratie voor Ory Kratos en Keto staat in deploy/ory van de broncode van het portaal.\n') +
      'Het bestand identities.jsonl bevat wachtwoord-hashes en de geheimen van apps en back-upcodes: bewaar het ' +
      'alleen zo lang als nodig.\n',
  );
  return 0;
}

/** `portaal import kratos-export MAP --admin-url URL [--keto-url URL]`: such an export into Kratos' admin API. */
export async function importExportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { 'admin-url': { type: 'string' }, 'keto-url': { type: 'string' } },
  });
  const [dir] = positionals;
  const adminUrl = values['admin-url'];
  if (!dir || !adminUrl || positionals.length > 1) {
    process.stderr.write(IMPORT_USAGE);
    return 2;
  }
  const report = await importExport(dir, { adminUrl, ketoUrl: values['keto-url'] });
  const lines = [
    `${report.created} accounts aangemaakt, ${report.existing} bestonden al, ${report.refused.length} geweigerd.`,
    ...report.refused.map(({ who, reason }) => `  geweigerd: ${who}: ${reason}`),
    `${report.tuples} relaties geschreven, ${report.tuplesRefused.length} niet.`,
    ...report.tuplesRefused.map((line) => `  niet geschreven: ${line}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return report.refused.length > 0 ? 1 : 0;
}
