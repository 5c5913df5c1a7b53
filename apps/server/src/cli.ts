import { parseArgs } from 'node:util';
import { createIdentityWithPassword, HttpError, openDatabase } from '@portaal/idp';
import { migrateAll } from './migrate-all.js';
import { ConfigError, loadConfig, type ServerConfig } from './config.js';
import { createServer } from './server.js';
import { withOfflineProvider } from './offline-provider.js';
import { demoAccountsText, loadDemoAccounts } from './demo-accounts.js';

const usage = `Gebruik: portaal <opdracht>

Opdrachten:
  serve [--demo]      start de portaal-server (met --demo: laad eerst de demo-accounts)
  migrate             werk het databaseschema bij en stop
  user create --email ADRES --first-name NAAM --last-name NAAM [--password WACHTWOORD]
                      maak een account aan (zonder wachtwoord: stel het in via 'Wachtwoord vergeten')
  demo                laad de demo-accounts
  help                toon deze hulp
`;

/** Runs one CLI command and returns the process exit code. Problems are reported in one line, never a stack trace. */
export async function runCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serve(rest);
      case 'migrate':
        return await migrate();
      case 'user':
        return await user(rest);
      case 'demo':
        return await demo();
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
      process.stderr.write(`Fout: ${error.reason ?? error.message}\n`);
      return 1;
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuratiefout: ${error.message}\n`);
      return 78;
    }
    process.stderr.write(`Fout: ${describe(error)}\n`);
    return 1;
  }
}

function describe(error: unknown): string {
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
    process.stdout.write(applied.length ? `Migraties toegepast: ${applied.join(', ')}\n` : 'Database is al bijgewerkt.\n');
    return 0;
  } finally {
    await db.close();
  }
}

async function serve(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { demo: { type: 'boolean', default: false } } });
  const config: ServerConfig = loadConfig();
  const server = await createServer(config);
  if (values.demo === true) await loadDemoAccounts(server.idp);
  await server.listen();
  printStartBanner(config, values.demo === true);

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
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
  if (demo) lines.push('', demoAccountsText(config.idp.publicUrl, mailbox));
  lines.push('Stoppen: Ctrl+C', '');
  process.stdout.write(lines.join('\n') + '\n');
}

async function demo(): Promise<number> {
  const config = loadConfig();
  const { created } = await withOfflineProvider(config, loadDemoAccounts);
  process.stdout.write(`${created} demo-account(s) aangemaakt.\n\n${demoAccountsText(config.idp.publicUrl, undefined)}\n`);
  return 0;
}

async function user(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'create') {
    process.stderr.write(`Onbekende opdracht 'user ${sub ?? ''}'. Bedoel je 'user create'?\n`);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      password: { type: 'string' },
    },
  });
  if (!values.email) {
    process.stderr.write('Geef een e-mailadres op met --email.\n');
    return 2;
  }
  const config = loadConfig();
  const id = await withOfflineProvider(config, (idp) =>
    createIdentityWithPassword(idp.services, {
      email: values.email!,
      firstName: values['first-name'],
      lastName: values['last-name'],
      password: values.password,
      verified: true,
    }),
  );
  process.stdout.write(`Account aangemaakt: ${values.email} (${id})\n`);
  return 0;
}
