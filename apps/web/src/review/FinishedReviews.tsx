import type { AccessReview } from './review-api';
import { accessReviewCsvFile } from './review-api';
import { CsvDownloadButton } from '../components/CsvDownloadButton';
import { csvName } from '../components/csv-name';
import { longDateTime } from '../i18n/dates';

const counted = (n: number, one: string, more: string) => `${n} ${n === 1 ? one : more}`;

/** The finished reviews, newest first, each downloadable as evidence (CSV; the download is audited). */
export function FinishedReviews({
  reviews,
  organisationId,
  onDownloaded,
}: {
  reviews: AccessReview[];
  organisationId: string;
  onDownloaded(): unknown;
}) {
  return (
    <section className="dvp-review-section" aria-labelledby="review-history">
      <h2 id="review-history" className="utrecht-heading-2">
        Afgeronde reviews
      </h2>
      <ul className="dvp-review-history">
        {reviews.map((review) => (
          <li key={review.id} className="dvp-review-history__item">
            <p className="utrecht-paragraph">
              <strong>{longDateTime(review.completedAt)}</strong> door {review.reviewedByEmail}:{' '}
              {counted(review.kept, 'datarol', 'datarollen')} behouden,{' '}
              {counted(review.withdrawn, 'datarol', 'datarollen')} ingetrokken.
            </p>
            <CsvDownloadButton
              label={`Review van ${longDateTime(review.completedAt)} downloaden (CSV)`}
              name={() => csvName('toegangsreview', organisationId, new Date(review.completedAt))}
              file={() => accessReviewCsvFile(review.id)}
              onDone={onDownloaded}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
