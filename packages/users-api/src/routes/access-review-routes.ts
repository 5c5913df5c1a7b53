import type { FastifyInstance } from 'fastify';
import { errors } from '../api-error.js';
import { auditAbout } from '../audit/audit-about.js';
import type { ApiContext } from '../context.js';
import { adminIn, administrator } from '../http/guards.js';
import { checked } from '../http/request-schema.js';
import { reviewDecisionsBody, reviewParams } from '../http/validation.js';
import { accessReviewCsv, accessReviewCsvName } from '../reviews/access-review-csv.js';
import { completeReview, reviewToDo } from '../reviews/access-review.js';

const FINISH = { body: reviewDecisionsBody };
const ONE = { params: reviewParams };

/** About 90 bytes a decision: room for the 40,000 that http/validation.ts allows. */
const DECISIONS_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * 'Toegangsreview': who holds which data role of the organisation, for its administrators to keep or withdraw each
 * (`GET /api/access-review`, `POST /api/access-reviews`), and the finished reviews kept as evidence, listed and
 * downloadable as CSV (the download is itself audited).
 */
export function registerAccessReviewRoutes(app: FastifyInstance, ctx: ApiContext): void {
  app.get('/access-review', { preValidation: administrator(ctx, 'access_review.read') }, async (request) => {
    const org = adminIn(request).activeOrg;
    const [people, reviews] = await Promise.all([reviewToDo(ctx, org), ctx.reviews.list(org.id)]);
    return { organisation: { id: org.id, label: org.label }, people, lastReview: reviews[0] ?? null };
  });

  app.post(
    '/access-reviews',
    { schema: FINISH, bodyLimit: DECISIONS_BODY_LIMIT, preValidation: administrator(ctx, 'access_review.complete') },
    async (request, reply) => {
      const { decisions } = checked(request, FINISH).body;
      const review = await completeReview(ctx, { caller: adminIn(request), request }, decisions);
      return reply.code(201).send(review);
    },
  );

  app.get('/access-reviews', { preValidation: administrator(ctx, 'access_review.read') }, async (request) =>
    ctx.reviews.list(adminIn(request).activeOrg.id),
  );

  app.get(
    '/access-reviews/:id.csv',
    { schema: ONE, preValidation: administrator(ctx, 'access_review.export') },
    async (request, reply) => {
      const caller = adminIn(request);
      const found = await ctx.reviews.get(caller.activeOrg.id, checked(request, ONE).params.id);
      if (!found) throw errors.reviewNotFound();
      const details = { review: found.review.id };
      await ctx.audit.record(auditAbout(caller, request, 'access_review.export', null, 'success', details));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${accessReviewCsvName(found.review)}"`)
        .send(accessReviewCsv(found.review, found.items));
    },
  );
}
