import type { Kysely } from 'kysely';
import type { UsersApiDatabase } from '../db/schema.js';
import type { FactorKind } from '../users/second-factor.js';

export type ReviewDecision = 'keep' | 'withdraw';

/** A finished access review of one organisation. */
export interface AccessReview {
  id: string;
  organisationId: string;
  reviewedById: string;
  reviewedByEmail: string;
  completedAt: string;
  kept: number;
  withdrawn: number;
}

/** One data role one person held when the review was made, and what was decided. */
export interface ReviewItem {
  identityId: string;
  email: string;
  name: string;
  dataRoleId: string;
  dataRoleLabel: string;
  lastSignInAt: string | null;
  /** Null where the organisation may not see them: the person's home is elsewhere. */
  factors: FactorKind[] | null;
  decision: ReviewDecision;
}

/** Where a finished review is written: with the withdrawals it decided, in `atomically` (ports.ts). */
export interface ReviewPort {
  record(review: AccessReview, items: ReviewItem[]): Promise<void>;
}

export interface AccessReviewStore extends ReviewPort {
  /** The organisation's finished reviews, newest first. */
  list(organisationId: string): Promise<AccessReview[]>;
  /** One review of the organisation with its items in the order reviewed; undefined for another's or none. */
  get(organisationId: string, id: string): Promise<{ review: AccessReview; items: ReviewItem[] } | undefined>;
  /** What the reviews recorded about one person, oldest first (AVG article 15). */
  about(identityId: string): Promise<(ReviewItem & { reviewId: string; completedAt: string })[]>;
}

/** Rows per insert: ten columns each, well under SQLite's and PostgreSQL's limits on parameters. */
const ITEMS_PER_INSERT = 500;

const reviewOf = (row: UsersApiDatabase['access_reviews']): AccessReview => ({
  id: row.id,
  organisationId: row.organisation_id,
  reviewedById: row.reviewed_by_id,
  reviewedByEmail: row.reviewed_by_email,
  completedAt: row.completed_at,
  kept: Number(row.kept),
  withdrawn: Number(row.withdrawn),
});

const itemOf = (row: UsersApiDatabase['access_review_items']): ReviewItem => ({
  identityId: row.identity_id,
  email: row.email,
  name: row.name,
  dataRoleId: row.data_role_id,
  dataRoleLabel: row.data_role_label,
  lastSignInAt: row.last_sign_in_at,
  factors: row.factors === null ? null : row.factors ? (row.factors.split(',') as FactorKind[]) : [],
  decision: row.decision as ReviewDecision,
});

/** Finished access reviews on the Users API's database (0012_access_reviews); never pruned, unlike the audit log. */
export function createAccessReviewStore<DB>(db: Kysely<DB>): AccessReviewStore {
  const typed = db as unknown as Kysely<UsersApiDatabase>;
  return {
    async record(review, items) {
      await typed
        .insertInto('access_reviews')
        .values({
          id: review.id,
          organisation_id: review.organisationId,
          reviewed_by_id: review.reviewedById,
          reviewed_by_email: review.reviewedByEmail,
          completed_at: review.completedAt,
          kept: review.kept,
          withdrawn: review.withdrawn,
        })
        .execute();
      for (let from = 0; from < items.length; from += ITEMS_PER_INSERT) {
        const rows = items.slice(from, from + ITEMS_PER_INSERT).map((item, i) => ({
          review_id: review.id,
          position: from + i,
          identity_id: item.identityId,
          email: item.email,
          name: item.name,
          data_role_id: item.dataRoleId,
          data_role_label: item.dataRoleLabel,
          last_sign_in_at: item.lastSignInAt,
          factors: item.factors?.join(',') ?? null,
          decision: item.decision,
        }));
        await typed.insertInto('access_review_items').values(rows).execute();
      }
    },
    async list(organisationId) {
      const rows = await typed
        .selectFrom('access_reviews')
        .selectAll()
        .where('organisation_id', '=', organisationId)
        .orderBy('completed_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(reviewOf);
    },
    async about(identityId) {
      const rows = await typed
        .selectFrom('access_review_items')
        .innerJoin('access_reviews', 'access_reviews.id', 'access_review_items.review_id')
        .selectAll('access_review_items')
        .select('access_reviews.completed_at')
        .where('access_review_items.identity_id', '=', identityId)
        .orderBy('access_reviews.completed_at')
        .execute();
      return rows.map((row) => ({ ...itemOf(row), reviewId: row.review_id, completedAt: row.completed_at }));
    },
    async get(organisationId, id) {
      const row = await typed
        .selectFrom('access_reviews')
        .selectAll()
        .where('organisation_id', '=', organisationId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      const items = await typed
        .selectFrom('access_review_items')
        .selectAll()
        .where('review_id', '=', id)
        .orderBy('position')
        .execute();
      return { review: reviewOf(row), items: items.map(itemOf) };
    },
  };
}
