import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import {
  BackupError,
  CredentialKeyError,
  createIdentityWithPassword,
  createRecoveryLink,
  findIdentity,
  findIdentityIdByIdentifier,
  HttpError,
  kratosErrors,
  openDatabase,
  sqliteFileOf,
  weakerThanOwasp,
} from '@portaal/idp';
import { CatalogueError } from '@portaal/users-api';
import { backup, restore } from './backup-commands.js';
import { exportPerson } from './person-export.js';
import { catalogue } from './catalogue-commands.js';
import { mail } from './mail-commands.js';
import { programmeAdmin } from './programme-commands.js';
import { importCommand } from './kratos-import/import-commands.js';
import { exportCommand } from './kratos-export/export-commands.js';
import { dutchReasonOf } from './cli-errors.js';
import { ConfigError, loadConfig, type ServerConfig } from './config.js';
import { createServer } from './server.js';
import { keepDataDirPrivate } from './data-dir.js';
import { newJwks, rotateSigningKeys } from './oidc-settings.js';
import { migrateAll } from './migrate-all.js';
import { homeRecord, loadConfiguredCatalogue, withProduct } from './product.js';
import { demoAccountsText, loadDemo, withDemoAddresses } from './demo-accounts.js';

const usage = `Gebruik: portaal <opdracht>

Opdrachten:
  serve [--demo]      start de portaal-server (met --demo: laad eerst de demo-catalogus en demo-accounts)
  migrate             werk het databaseschema bij en stop
  user create --email ADRES --first-name NAAM --last-name NAAM [--password WACHTWOORD] [--org ID [--admin]]
                      maak een account aan, met --org als lid van die organisatie en met --admin als beheerder
                      (zonder wachtwoord: de opdracht toont een link om het wachtwoord in te stellen)
  user export --email ADRES
                      schrijf alles wat over deze persoon is vastgelegd als JSON naar de standaarduitvoer (AVG art. 15)
  catalogue load BESTAND [--dry-run]
                      laad de catalogus (organisaties, datarollen, datavoorzieningen) uit een JSON-bestand; met
                      --dry-run alleen tonen wat er verandert en wie een datarol zou verliezen
  catalogue export BESTAND
                      schrijf de catalogus die nu geldt als JSON-bestand (- voor de standaarduitvoer)
  programme-admin add --email ADRES | remove --email ADRES | list
                      wijs een programmabeheerder aan (beheert organisaties en datavoorzieningen in het portaal),
                      zet er een af, of toon wie het zijn
  import kratos --kratos-database postgres://… [--keto-database postgres://…] [--dry-run]
                      neem een Ory Kratos-installatie over: accounts met wachtwoord, app, back-upcodes en
                      beveiligingssleutels, en de relaties uit Ory Keto; met --dry-run alleen tonen wat er gebeurt
  export kratos --out MAP
                      schrijf alle accounts met hun inloggegevens zoals Ory Kratos ze importeert, de relaties voor
                      Ory Keto en hun configuratie, voor de overstap naar Ory Kratos en Keto
  import kratos-export MAP --admin-url URL [--keto-url URL]
                      zet zo'n export in de admin-API van Ory Kratos (of een ander portaal) en Ory Keto
  audit export        schrijf het auditlog als JSON-regels naar de standaarduitvoer
  oidc rotate-keys    maak een nieuwe ondertekeningssleutel voor de OpenID Connect-provider in DATA_DIR; de vorige
                      blijft gepubliceerd (herstart daarna de server)
  oidc new-jwks       schrijf een nieuwe sleutelset als JSON naar de standaarduitvoer, voor OIDC_JWKS (geef elke
                      replica van een installatie dezelfde)
  mail list [--status abandoned|failed|queued|sent]
                      toon de e-mails in die toestand (standaard: opgegeven na te veel pogingen)
  mail retry          zet de opgegeven e-mails opnieuw in de wachtrij
  backup BESTAND      maak een back-up van de SQLite-database, ook terwijl de server draait
  restore BESTAND     zet een back-up terug in een lege datamap (voordat de server start)
  demo                laad de demo-catalogus en de demo-accounts
  help                toon deze hulp
`;

const cliLog = () => Fastify({ logger: { level: 'warn' } }).log;

/**
 * The `portaal` command: runs `argv`'s command and ends the process with its exit code. A one-off command ends when
 * its work is done, even if a pool or timer it opened is slow to let go, so that a script or a test running it never
 * waits on it; `serve` has closed everything it opened when it returns, and ends by itself.
 */
export async function main(argv: string[]): Promise<void> {
  // Everything the portal writes (the database and its journal, keys, secrets, backups) is for its own user only,
  // whatever umask the shell or service manager gave it (docs/security.md#7-password-storage).
  process.umask(0o077);
  const code = await runCli(argv);
  if (argv[0] === 'serve') process.exitCode = code;
  else process.exit(code);
}

/** Runs one CLI command and returns the process exit code. Problems are reported in one line, never a stack trace. */
async function runCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serve(rest);
      case 'migrate':
        return await migrate();
      case 'user':
        return await user(rest);
      case 'catalogue':
        return await catalogue(rest, cliLog());
      case 'audit':
        return await audit(rest);
      case 'oidc':
        return await oidc(rest);
      case 'demo':
        return await demo();
      case 'mail':
        return await mail(rest, cliLog());
      case 'programme-admin':
        return await programmeAdmin(rest, cliLog());
      case 'import':
        return await importCommand(rest, cliLog());
      case 'export':
        return await exportCommand(rest, cliLog());
      case 'backup':
        return await backup(rest);
      case 'restore':
        return await restore(rest);
      case undefined:
      case 'help':
      case '--help':
        process.stdout.write(usage);
        return 0;
      default:
        process.stderr.write(`Onbekende opdracht '${command}'.\n\n${usage}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof HttpError) {
      process.stderr.write(`Fout: ${dutchReasonOf(error)}\n`);
      return 1;
    }
    if (error instanceof ConfigError || error instanceof CredentialKeyError) {
      process.stderr.write(`Configuratiefout: ${error.message}\n`);
      return 78;
    }
    if (error instanceof BackupError) {
      process.stderr.write(`Fout: ${error.message}\n`);
      return 1;
    }
    if (error instanceof CatalogueError) {
      process.stderr.write(`Catalogus niet geladen: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`Fout: ${describe(error)}\n`);
    return 1;
  }
}

function describe(error: unknown): string {
  // parseArgs explains in English; the line names the option and says in Dutch what to do.
  if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
    const option = /'(-[^' ]+)/.exec(error.message)?.[1];
    return `de opties kloppen niet${option ? ` (bij ${option})` : ''}. Zie 'portaal help'.`;
  }
  const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : '';
  if (code === 'ENOSPC' || code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR')) {
    return (
      `er kan niet naar de schijf worden geschreven (${code}): de schijf van DATA_DIR of de database is vol of ` +
      'defect. Maak ruimte vrij en start opnieuw.'
    );
  }
  if (error && typeof error === 'object' && 'code' in error && error.code === 'EADDRINUSE') {
    return `de poort is al in gebruik (${String((error as { message?: string }).message ?? '')}).`;
  }
  return error instanceof Error ? error.message : String(error);
}

async function migrate(): Promise<number> {
  const config = loadConfig();
  const db = openDatabase(config.databaseUrl);
  try {
    const applied = await migrateAll(db);
    process.stdout.write(
      applied.length ? `Migraties toegepast: ${applied.join(', ')}\n` : 'Database is al bijgewerkt.\n',
    );
    return 0;
  } finally {
    await db.close();
  }
}

async function serve(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { demo: { type: 'boolean', default: false } } });
  // The demo shows a support and a feedback address, as an installation would (unless the environment sets its own).
  const config: ServerConfig = loadConfig(values.demo === true ? withDemoAddresses(process.env) : process.env);
  keepDataDirPrivate(config.dataDir, sqliteFileOf(config.databaseUrl));
  const server = await createServer(config);
  try {
    await loadConfiguredCatalogue(server.product, config.catalogueFile, server.publicApp.log);
    if (values.demo === true) await loadDemo(server.product);
    await server.listen();
  } catch (error) {
    // A start that fails (a port in use, a catalogue refused) closes what it opened, so the process ends with the
    // error's exit code instead of living on with one listener and its timers: a supervisor then starts it again.
    await server.close().catch(() => undefined);
    throw error;
  }
  printStartBanner(config, values.demo === true);

  // SIGTERM (a supervisor or orchestrator) drains first; SIGINT (Ctrl-C at a terminal) closes at once.
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const deadline = setTimeout(() => {
    server.publicApp.log.error({ timeoutMs: config.shutdown.timeoutMs }, 'shutdown took too long; exiting');
    process.exit(1);
  }, config.shutdown.timeoutMs);
  deadline.unref();
  await (signal === 'SIGTERM' ? server.shutdown() : server.close());
  clearTimeout(deadline);
  return 0;
}

function printStartBanner(config: ServerConfig, demo: boolean): void {
  const lines = [
    '',
    `Datavoorzieningen Portaal draait op ${config.idp.publicUrl.origin}`,
    `Beheer-API (alleen lokaal): ${config.idp.adminUrl.origin}`,
    `Database: ${config.databaseUrl.startsWith('postgres') ? 'PostgreSQL' : config.databaseUrl}`,
  ];
  const mailbox = config.idp.mail.smtpUrl ? undefined : `${config.idp.adminUrl.origin}/mail`;
  if (mailbox) lines.push(`E-mails lezen: ${mailbox}`);
  if (config.supportEmail) lines.push(`Adres voor ondersteuning (SUPPORT_EMAIL): ${config.supportEmail}`);
  if (config.feedbackEmail) lines.push(`Adres voor feedback (FEEDBACK_EMAIL): ${config.feedbackEmail}`);
  const cost = config.idp.password.argon2;
  if (cost && weakerThanOwasp(cost)) {
    lines.push(
      `Let op: wachtwoorden worden gehasht met argon2id m=${cost.memoryKib}KB t=${cost.iterations}, ` +
        'lichter dan OWASP aanraadt (HASHERS_ARGON2_MEMORY, HASHERS_ARGON2_ITERATIONS). Alleen geschikt voor tests.',
    );
  }
  if (demo) lines.push('', demoAccountsText(config.idp.publicUrl, mailbox));
  lines.push('Stoppen: Ctrl+C', '');
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function demo(): Promise<number> {
  const config = loadConfig();
  const { created } = await withProduct(config, cliLog(), loadDemo);
  process.stdout.write(
    `${created} demo-account(s) aangemaakt.\n\n${demoAccountsText(config.idp.publicUrl, undefined)}\n`,
  );
  return 0;
}

async function oidc(args: string[]): Promise<number> {
  if (args[0] === 'new-jwks') {
    process.stdout.write(`${await newJwks()}\n`);
    return 0;
  }
  if (args[0] !== 'rotate-keys') {
    process.stderr.write('Gebruik: portaal oidc rotate-keys | portaal oidc new-jwks\n');
    return 2;
  }
  const config = loadConfig();
  if (config.oidc.jwks) {
    process.stderr.write('OIDC_JWKS is gezet: roteer de sleutels daar (zet de nieuwe sleutel vooraan).\n');
    return 2;
  }
  const kid = await rotateSigningKeys(config.dataDir);
  process.stdout.write(`Nieuwe sleutel ${kid} aangemaakt; herstart de server om ermee te ondertekenen.\n`);
  return 0;
}

async function audit(args: string[]): Promise<number> {
  if (args[0] !== 'export') {
    process.stderr.write('Gebruik: portaal audit export\n');
    return 2;
  }
  const config = loadConfig();
  await withProduct(config, cliLog(), async (product) => {
    for await (const entry of product.audit.all()) process.stdout.write(`${JSON.stringify(entry)}\n`);
  });
  return 0;
}

async function user(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'export') return exportPerson(rest, cliLog());
  if (sub !== 'create') {
    process.stderr.write(`Onbekende opdracht 'user ${sub ?? ''}'. Bedoel je 'user create' of 'user export'?\n`);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      password: { type: 'string' },
      org: { type: 'string' },
      admin: { type: 'boolean', default: false },
    },
  });
  if (!values.email) {
    process.stderr.write('Geef een e-mailadres op met --email.\n');
    return 2;
  }
  if (values.admin && !values.org) {
    process.stderr.write('--admin hoort bij een organisatie: geef die op met --org.\n');
    return 2;
  }
  const config = loadConfig();
  const message = await withProduct(config, cliLog(), async (product) => {
    const orgId = values.org;
    if (orgId && !(await product.catalogue.current()).organisations.some((o) => o.id === orgId)) {
      throw kratosErrors.badRequest(
        `organisatie '${orgId}' staat niet in de catalogus (laad die eerst met 'portaal catalogue load').`,
      );
    }
    const { services } = product.idp;
    const existing = await findIdentityIdByIdentifier(product.db.kysely, 'password', values.email!.toLowerCase());
    if (existing && !orgId) throw kratosErrors.conflict(`er bestaat al een account met ${values.email}.`);
    const id =
      existing ??
      (await createIdentityWithPassword(services, {
        email: values.email!,
        firstName: values['first-name'],
        lastName: values['last-name'],
        password: values.password,
        verified: true,
        // The organisation whose first administrator this makes is the account's home (docs/organisations.md).
        metadataAdmin: orgId ? homeRecord(orgId) : undefined,
      }));
    if (orgId) {
      await product.relations.patch({
        insert: [
          { namespace: 'organizations', object: orgId, relation: 'issuer', subject_id: id },
          ...(values.admin ? [{ namespace: 'organizations', object: orgId, relation: 'admin', subject_id: id }] : []),
        ],
      });
    }
    const role = orgId ? ` als ${values.admin ? 'beheerder' : 'lid'} van ${orgId}` : '';
    const lines = [
      `${existing ? 'Bestaand account bijgewerkt' : 'Account aangemaakt'}: ${values.email} (${id})${role}`,
    ];
    if (!existing && values.password === undefined) {
      const identity = (await findIdentity(product.db.kysely, id))!;
      const link = await createRecoveryLink(services, identity, config.idp.lifespans.invitationMs);
      const hours = Math.round(config.idp.lifespans.invitationMs / 3_600_000);
      lines.push(`Wachtwoord instellen (${hours} uur geldig): ${link.recovery_link}`);
    }
    return lines.join('\n');
  });
  process.stdout.write(`${message}\n`);
  return 0;
}
