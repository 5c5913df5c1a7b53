import type { FastifyInstance } from 'fastify';
import { v7 as timeOrderedId } from 'uuid';
import { errors } from '../api-error.js';
import { auditAbout } from '../audit/audit-about.js';
import type { Organisation } from '../catalogue/catalogue.js';
import type { ApiContext } from '../context.js';
import { adminIn, administrator } from '../http/guards.js';
import { checked } from '../http/request-schema.js';
import { importFileBody, importParams } from '../http/validation.js';
import { readImportFile } from '../imports/import-file.js';
import { planImport } from '../imports/import-plan.js';
import { importReportCsv, roleLabels } from '../imports/import-report.js';
import type { ImportJob, StoredRow } from '../imports/import-store.js';
import type { ImportWorker } from '../imports/import-worker.js';

const FILE = { body: importFileBody };
const ONE = { params: importParams };

/** The file's text in JSON: 3 MB of CSV, escaped. */
const FILE_BODY_LIMIT = 8 * 1024 * 1024;

const rowJson = (org: Organisation, row: StoredRow) => ({
  line: row.line,
  email: row.email,
  first: row.first,
  last: row.last,
  dataRoles: roleLabels(org, row),
  admin: row.admin,
  plan: row.plan,
  outcome: row.outcome,
  reason: row.reason ?? null,
});

const jobJson = ({ id, fileName, state, createdAt, startedAt, finishedAt }: ImportJob) => ({
  id,
  fileName,
  state,
  createdAt,
  startedAt,
  finishedAt,
});

/**
 * Importing people from a CSV file (docs/architecture.md#importing-people): the file is read and every row planned
 * with the new-user form's rules (`POST /api/imports`, a preview that writes nothing but the import itself), started
 * (`POST /api/imports/:id/start`) and carried out in the background by the worker, followed
 * (`GET /api/imports/:id`, `/rows`) and reported (`/report.csv`). Each step is audited.
 */
export function registerImportRoutes(app: FastifyInstance, ctx: ApiContext, worker: ImportWorker): void {
  const ownImport = async (organisationId: string, id: string) => {
    const job = await ctx.imports.get(organisationId, id);
    if (!job) throw errors.importNotFound();
    return job;
  };

  app.post(
    '/imports',
    { schema: FILE, bodyLimit: FILE_BODY_LIMIT, preValidation: administrator(ctx, 'import.preview') },
    async (request, reply) => {
      const caller = adminIn(request);
      const org = caller.activeOrg;
      const { fileName, csv } = checked(request, FILE).body;
      const rows = await planImport(ctx, org, readImportFile(csv));
      const job: ImportJob = {
        id: timeOrderedId(),
        organisationId: org.id,
        createdById: caller.session.identity.id,
        createdByEmail: caller.session.identity.traits.email,
        clientAddress: request.ip,
        fileName,
        createdAt: new Date().toISOString(),
        state: 'preview',
        startedAt: null,
        finishedAt: null,
      };
      await ctx.imports.create(job, rows);
      const progress = await ctx.imports.progress(job.id);
      // Which addresses have accounts elsewhere shows in the preview: it is audited with its counts.
      await ctx.audit.record(
        auditAbout(caller, request, 'import.preview', null, 'success', { import: job.id, ...progress.plans }),
      );
      const stored = rows.map((row) => ({ ...row, outcome: null, mailed: false }));
      return reply.code(201).send({ ...jobJson(job), progress, rows: stored.map((row) => rowJson(org, row)) });
    },
  );

  app.post(
    '/imports/:id/start',
    { schema: ONE, preValidation: administrator(ctx, 'import.start') },
    async (request, reply) => {
      const caller = adminIn(request);
      const job = await ownImport(caller.activeOrg.id, checked(request, ONE).params.id);
      if (!(await ctx.imports.start(caller.activeOrg.id, job.id, new Date().toISOString())))
        throw errors.importStarted();
      await ctx.audit.record(auditAbout(caller, request, 'import.start', null, 'success', { import: job.id }));
      worker.kick();
      return reply
        .code(202)
        .send({ ...jobJson({ ...job, state: 'running' }), progress: await ctx.imports.progress(job.id) });
    },
  );

  app.get('/imports/:id', { schema: ONE, preValidation: administrator(ctx, 'import.read') }, async (request) => {
    const job = await ownImport(adminIn(request).activeOrg.id, checked(request, ONE).params.id);
    return { ...jobJson(job), progress: await ctx.imports.progress(job.id) };
  });

  app.get('/imports/:id/rows', { schema: ONE, preValidation: administrator(ctx, 'import.read') }, async (request) => {
    const org = adminIn(request).activeOrg;
    const job = await ownImport(org.id, checked(request, ONE).params.id);
    return (await ctx.imports.rows(job.id)).map((row) => rowJson(org, row));
  });

  app.get(
    '/imports/:id/report.csv',
    { schema: ONE, preValidation: administrator(ctx, 'import.read') },
    async (request, reply) => {
      const org = adminIn(request).activeOrg;
      const job = await ownImport(org.id, checked(request, ONE).params.id);
      const name = `import-${org.id}-${job.createdAt.slice(0, 10)}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(importReportCsv(org, await ctx.imports.rows(job.id)));
    },
  );
}
