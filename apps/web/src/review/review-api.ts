import { csvFile, type FactorKind, usersApi } from '../api/users-api';

// 'Toegangsreview' calls of the Users API; apart from api/users-api.ts, so that only this screen's code loads them.

/** Someone who holds data roles of the organisation, as 'Toegangsreview' lists them (`GET /access-review`). */
export interface ReviewPerson {
  userId: string;
  name: { first: string; last: string };
  email: string;
  lastSignInAt: string | null;
  /** Null where the organisation may not see them: the person's home organisation is another. */
  factors: FactorKind[] | null;
  dataRoles: { roleId: string; label: string }[];
}

/** A finished access review, kept as evidence. */
export interface AccessReview {
  id: string;
  reviewedByEmail: string;
  completedAt: string;
  kept: number;
  withdrawn: number;
}

export interface AccessReviewToDo {
  organisation: { id: string; label: string };
  people: ReviewPerson[];
  lastReview: AccessReview | null;
}

export type ReviewDecision = 'keep' | 'withdraw';

/** Who holds which data role now, and the last finished review. */
export const accessReviewToDo = (signal?: AbortSignal) => usersApi<AccessReviewToDo>('/access-review', { signal });

/** The organisation's finished reviews, newest first. */
export const finishedReviews = (signal?: AbortSignal) => usersApi<AccessReview[]>('/access-reviews', { signal });

/** Finishes a review: one decision per data role held; the withdrawals take effect at once. */
export const completeAccessReview = (decisions: { userId: string; roleId: string; decision: ReviewDecision }[]) =>
  usersApi<AccessReview>('/access-reviews', { method: 'POST', body: { decisions } });

/** A finished review as the CSV file the Users API makes (`GET /access-reviews/:id.csv`); the download is audited. */
export const accessReviewCsvFile = (id: string) => csvFile(`/api/access-reviews/${encodeURIComponent(id)}.csv`);
