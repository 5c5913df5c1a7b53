import { useState } from 'react';
import { ErrorAlert } from '../components/ErrorAlert';
import { END_FAILED } from './OtherSessions';
import { useEndSessions, useOtherSessions } from './use-sessions';

/**
 * After a change of password, address or second factor: when the person is still signed in elsewhere, the offer to
 * end those sessions (ASVS 7.4.3). Shows nothing when there is no other session.
 */
export function LogOutOthersOffer() {
  const sessions = useOtherSessions();
  const end = useEndSessions();
  const [ended, setEnded] = useState(false);
  const count = sessions.data?.length ?? 0;

  if (ended) {
    return (
      <div className="utrecht-alert utrecht-alert--ok" role="status">
        <p className="utrecht-paragraph">Je bent op alle andere apparaten uitgelogd.</p>
      </div>
    );
  }
  if (count === 0) return null;
  return (
    <>
      <div className="utrecht-alert utrecht-alert--info" role="status">
        <p className="utrecht-paragraph">
          Je bent nog ingelogd op {count === 1 ? 'een ander apparaat' : `${count} andere apparaten`}. Gebruik je dat
          niet meer, of was jij dat niet? Log daar dan uit.
        </p>
        <div>
          <button
            type="button"
            className="utrecht-button utrecht-button--secondary-action"
            disabled={end.isPending}
            onClick={() => end.mutate('all', { onSuccess: () => setEnded(true) })}
          >
            Op alle andere apparaten uitloggen
          </button>
        </div>
      </div>
      {end.isError && <ErrorAlert text={END_FAILED} />}
    </>
  );
}
