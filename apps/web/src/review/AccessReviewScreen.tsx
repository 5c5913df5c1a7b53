import { useEffect, useRef, useState } from 'react';
import { Navigate } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCurrentUser } from '../api/queries';
import { secondFactorGateBackTo } from '../api/users-api';
import {
  type AccessReview,
  accessReviewToDo,
  completeAccessReview,
  finishedReviews,
  type ReviewDecision,
} from './review-api';
import { ErrorAlert } from '../components/ErrorAlert';
import { ErrorSummary } from '../components/ErrorSummary';
import { Loading } from '../components/Loading';
import { Shell } from '../layout/Shell';
import { usePageTitle } from '../layout/use-page-title';
import { ConfirmDialog } from '../overview/ConfirmDialog';
import { failureOf } from '../overview/DialogError';
import { longDateTime } from '../i18n/dates';
import { FinishedReviews } from './FinishedReviews';
import { choiceId, ReviewPersonCard } from './ReviewPersonCard';
import { useKeptDecisions } from './use-kept-decisions';
import './review.css';

const counted = (n: number) => `${n} ${n === 1 ? 'datarol' : 'datarollen'}`;

/** What finishing will do: 'Je behoudt 2 datarollen en trekt 1 datarol in. Het intrekken gaat direct in.' */
function confirmationText(kept: number, withdrawn: number): string {
  if (withdrawn === 0) return `Je behoudt ${kept === 1 ? 'de enige datarol' : `alle ${counted(kept)}`}.`;
  const withdrawing =
    kept === 0
      ? `Je trekt ${withdrawn === 1 ? 'de enige datarol' : `alle ${counted(withdrawn)}`} in.`
      : `Je behoudt ${counted(kept)} en trekt ${counted(withdrawn)} in.`;
  return `${withdrawing} Het intrekken gaat direct in.`;
}

const outcomeText = (review: AccessReview) =>
  `De review is afgerond: ${counted(review.kept)} behouden, ${counted(review.withdrawn)} ingetrokken.`;

/**
 * 'Toegangsreview' at `/toegangsreview`: who holds which data role of the organisation, with their last sign-in and
 * second factor; the administrator keeps or withdraws each role and finishes the review, which withdraws at once and
 * is kept as evidence (`GET /api/access-review`, `POST /api/access-reviews`, the finished ones downloadable as CSV).
 * The choices made so far survive a reload of the page (`use-kept-decisions.ts`).
 */
export default function AccessReviewScreen() {
  usePageTitle('Toegangsreview');
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const isAdmin = Boolean(me.data?.isAdmin);
  const toDo = useQuery({
    queryKey: ['access-review'],
    queryFn: ({ signal }) => accessReviewToDo(signal),
    enabled: isAdmin,
  });
  const history = useQuery({
    queryKey: ['access-reviews'],
    queryFn: ({ signal }) => finishedReviews(signal),
    enabled: isAdmin,
  });
  const organisationId = toDo.data?.organisation.id ?? '';
  const { decisionOf, decide, keepUndecided, forget } = useKeptDecisions(organisationId);
  const [attempt, setAttempt] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [finished, setFinished] = useState<AccessReview>();
  const done = useRef<HTMLDivElement>(null);
  const finish = useMutation({
    mutationFn: completeAccessReview,
    onSuccess: async (review) => {
      forget();
      setConfirming(false);
      setFinished(review);
      await queryClient.invalidateQueries({ queryKey: ['access-review'] });
      await queryClient.invalidateQueries({ queryKey: ['access-reviews'] });
      await queryClient.invalidateQueries({ queryKey: ['audit'] });
    },
  });
  useEffect(() => {
    if (finished) done.current?.focus();
  }, [finished]);

  if (me.isPending) return null;
  if (me.isError || !me.data) return <Navigate to="/login" replace />;
  const gate = secondFactorGateBackTo(me.data, '/toegangsreview');
  if (gate) return <Navigate to={gate} replace />;
  if (!me.data.isAdmin) return <Navigate to="/permissies" replace />;

  const people = toDo.data?.people ?? [];
  const pairs = people.flatMap((person) => person.dataRoles.map((role) => ({ person, role })));
  const open = pairs.filter(({ person, role }) => !decisionOf(person.userId, role.roleId));
  const decisions = pairs.map(({ person, role }) => ({
    userId: person.userId,
    roleId: role.roleId,
    decision: decisionOf(person.userId, role.roleId) ?? ('keep' as ReviewDecision),
  }));
  const withdrawn = decisions.filter((d) => d.decision === 'withdraw').length;
  const tryFinish = () => {
    setAttempt(attempt + 1);
    setFinished(undefined);
    if (open.length === 0) {
      finish.reset();
      setConfirming(true);
    }
  };
  const firstOpen = open[0];
  const summary =
    attempt > 0 && firstOpen ? [`Kies bij elke datarol Behouden of Intrekken: nog ${counted(open.length)} open.`] : [];
  const organisationLabel = toDo.data?.organisation.label ?? me.data.activeOrg?.label ?? 'je organisatie';

  return (
    <Shell>
      <main className="dvp-main" id="inhoud">
        <h1 className="utrecht-heading-1">Toegangsreview</h1>
        {finished && (
          <div ref={done} tabIndex={-1} className="utrecht-alert utrecht-alert--ok" role="status">
            <p className="utrecht-paragraph">{outcomeText(finished)}</p>
          </div>
        )}
        <p className="utrecht-paragraph">
          Controleer wie in {organisationLabel} welke datarol heeft. Kies bij elke datarol Behouden of Intrekken en rond
          de review af. Wat je intrekt, gaat direct in: de persoon kan de datavoorzieningen van die datarol dan niet
          meer gebruiken.
        </p>
        {toDo.data && (
          <p className="utrecht-paragraph">
            {toDo.data.lastReview
              ? `De vorige review is afgerond op ${longDateTime(toDo.data.lastReview.completedAt)} door ` +
                `${toDo.data.lastReview.reviewedByEmail}.`
              : 'Er is nog geen review afgerond.'}
          </p>
        )}
        {toDo.isError && (
          <ErrorAlert support>
            <p className="utrecht-paragraph">Er is iets misgegaan.</p>
            <p className="utrecht-paragraph">Kan de toegangsreview niet ophalen, probeer het later nog eens.</p>
          </ErrorAlert>
        )}
        {toDo.isPending && !toDo.isError && <Loading text="Toegangsreview laden…" />}
        {toDo.data && people.length === 0 && (
          <p className="utrecht-paragraph">Niemand in je organisatie heeft een datarol: er is niets te beoordelen.</p>
        )}
        {people.length > 0 && (
          <section className="dvp-review-section" aria-labelledby="review-people">
            <h2 id="review-people" className="utrecht-heading-2">
              Datarollen beoordelen
            </h2>
            {firstOpen && summary.length > 0 && (
              <div className="dvp-review-summary">
                <ErrorSummary messages={summary} focusOn={attempt} titleId="review-summary-title" />
                <p className="utrecht-paragraph">
                  <a className="utrecht-link" href={`#${choiceId(firstOpen.person.userId, firstOpen.role.roleId)}`}>
                    Naar de eerste open datarol
                  </a>
                </p>
              </div>
            )}
            <div className="dvp-review-people">
              {people.map((person) => (
                <ReviewPersonCard
                  key={person.userId}
                  person={person}
                  decisionOf={(roleId) => decisionOf(person.userId, roleId)}
                  onDecide={(roleId, decision) => decide(person.userId, roleId, decision)}
                />
              ))}
            </div>
            <p className="dvp-visually-hidden" role="status">
              {open.length > 0 ? `Nog ${counted(open.length)} open` : 'Alle datarollen zijn beoordeeld'}
            </p>
            <div className="dvp-toolbar__buttons dvp-review-actions">
              <button
                type="button"
                className="utrecht-button utrecht-button--secondary-action"
                onClick={() => keepUndecided(open.map(({ person, role }) => [person.userId, role.roleId]))}
              >
                Overige behouden
              </button>
              <button type="button" className="utrecht-button utrecht-button--primary-action" onClick={tryFinish}>
                Review afronden
              </button>
            </div>
          </section>
        )}
        {history.data && history.data.length > 0 && (
          <FinishedReviews
            reviews={history.data}
            organisationId={organisationId}
            onDownloaded={() => queryClient.invalidateQueries({ queryKey: ['audit'] })}
          />
        )}
        {confirming && (
          <ConfirmDialog
            title="Review afronden"
            confirmLabel="Afronden"
            danger={withdrawn > 0}
            busy={finish.isPending}
            error={
              finish.isError
                ? failureOf(finish.error, 'Afronden van de review is niet gelukt. Probeer het later nog eens.')
                : undefined
            }
            onConfirm={() => finish.mutate(decisions)}
            onClose={() => {
              setConfirming(false);
              // A refusal because the roles changed meanwhile: show them as they are now.
              if (finish.isError) void queryClient.invalidateQueries({ queryKey: ['access-review'] });
            }}
          >
            <p className="utrecht-paragraph">{confirmationText(decisions.length - withdrawn, withdrawn)}</p>
          </ConfirmDialog>
        )}
      </main>
    </Shell>
  );
}
