import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { catalogueFileOf } from '@portaal/users-api';
import { catalogueLoadPlan, loadCatalogueFile } from './catalogue-load.js';
import { loadConfig } from './config.js';
import { withProduct } from './product.js';

const USAGE = 'Gebruik: portaal catalogue load BESTAND [--dry-run] | portaal catalogue export BESTAND\n';

const planText = (plan: Awaited<ReturnType<typeof catalogueLoadPlan>>) => {
  if (plan.lines.length === 0) return 'De catalogus is gelijk aan wat al geldt: er verandert niets.\n';
  const lines = ['Wat deze catalogus verandert:', ...plan.lines.map((line) => `  ${line}`)];
  for (const loss of plan.losses.filter((l) => l.holders.length > 0)) {
    lines.push(`${loss.holders.length} persoon/personen verliezen de datarol ${loss.object} (${loss.label}):`);
    lines.push(...loss.holders.map((email) => `  ${email}`));
  }
  return `${lines.join('\n')}\n`;
};

/**
 * `portaal catalogue load BESTAND [--dry-run]` applies a catalogue file as a whole, or with `--dry-run` only says
 * what it would change and who would lose a data role; `portaal catalogue export BESTAND` writes the catalogue in
 * force as such a file (`-` for the standard output), so that loading it again changes nothing.
 */
export async function catalogue(args: string[], log: FastifyBaseLogger): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { 'dry-run': { type: 'boolean', default: false } },
  });
  const file = positionals[0];
  if ((sub !== 'load' && sub !== 'export') || !file || positionals.length > 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (sub === 'export') {
    const text = await withProduct(loadConfig(), log, async (product) =>
      JSON.stringify(catalogueFileOf(await product.catalogue.current()), null, 2),
    );
    if (file === '-') process.stdout.write(`${text}\n`);
    else {
      await writeFile(file, `${text}\n`);
      process.stdout.write(`Catalogus geschreven naar ${file}.\n`);
    }
    return 0;
  }
  if (values['dry-run']) {
    const plan = await withProduct(loadConfig(), log, (product) => catalogueLoadPlan(product, file));
    process.stdout.write(`${planText(plan)}Er is niets geladen (--dry-run).\n`);
    return 0;
  }
  const { catalogue: loaded, plan } = await withProduct(loadConfig(), log, (product) =>
    loadCatalogueFile(product, file),
  );
  process.stdout.write(
    `${planText(plan)}Catalogus geladen: ${loaded.organisations.length} organisatie(s), ` +
      `${loaded.services.length} datavoorziening(en).\n`,
  );
  return 0;
}
