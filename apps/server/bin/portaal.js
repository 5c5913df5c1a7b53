#!/usr/bin/env node
import { runCli } from '../dist/portaal.mjs';

// Everything the portal writes (the database and its journal, keys, secrets, backups) is for its own user only,
// whatever umask the shell or service manager gave it (docs/security.md#7-password-storage).
process.umask(0o077);

process.exitCode = await runCli(process.argv.slice(2));
