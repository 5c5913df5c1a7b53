import { csvLine, factorNames, moment } from '../users/users-csv.js';
import type { AccessReview, ReviewItem } from './access-review-store.js';

const FIELDS = [
  'Review',
  'Afgerond op',
  'Beoordeeld door',
  'Naam',
  'E-mailadres',
  'Datarol',
  'Laatst ingelogd',
  'Tweede factor',
  'Besluit',
];

const DECISIONS = { keep: 'behouden', withdraw: 'ingetrokken' } as const;

/**
 * A finished review as evidence, one line per data role of a person, in the order reviewed, as the portal's other
 * downloads are written (semicolons, UTF-8 with a byte order mark, CRLF, times in the Netherlands).
 */
export function accessReviewCsv(review: AccessReview, items: readonly ReviewItem[]): string {
  const when = moment(review.completedAt);
  const lines = items.map((item) =>
    csvLine([
      review.id,
      when,
      review.reviewedByEmail,
      item.name,
      item.email,
      item.dataRoleLabel,
      item.lastSignInAt ? moment(item.lastSignInAt) : 'nog nooit',
      // Empty where the organisation may not see them (another home organisation), as in the people's download.
      item.factors === null ? '' : factorNames(item.factors).join(', ') || 'geen',
      DECISIONS[item.decision],
    ]),
  );
  return `\uFEFF${csvLine(FIELDS)}${lines.join('')}`;
}

/** toegangsreview-voorbeeldstad-2026-11-27.csv, by the day it was finished. */
export const accessReviewCsvName = (review: AccessReview) =>
  `toegangsreview-${review.organisationId}-${moment(review.completedAt).slice(0, 10)}.csv`;
