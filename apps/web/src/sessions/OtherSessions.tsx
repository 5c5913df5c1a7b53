import { ErrorAlert } from '../components/ErrorAlert';
import { useToast } from '../components/Toasts';
import { deviceName, sessionDetails } from './device-name';
import { useEndSessions, useOtherSessions } from './use-sessions';
import { Loading } from '../components/Loading';

const LOAD_FAILED = 'Het ophalen van je andere sessies is niet gelukt. Probeer het later nog eens.';
export const END_FAILED = 'Uitloggen op het andere apparaat is niet gelukt. Probeer het nog eens.';

/** On /settings: where else the person is signed in, with a way to end each of those sessions or all at once. */
export function OtherSessions() {
  const sessions = useOtherSessions();
  const end = useEndSessions();
  const toast = useToast();
  const others = sessions.data ?? [];

  function endSession(target: string, name?: string) {
    end.mutate(target, {
      onSuccess: () =>
        toast({
          title: name ? `Je bent uitgelogd op ${name}.` : 'Je bent op alle andere apparaten uitgelogd.',
          variant: 'success',
        }),
      onError: () => toast({ title: END_FAILED, variant: 'error' }),
    });
  }

  return (
    <section aria-labelledby="dvp-sessies" aria-busy={sessions.isFetching || end.isPending}>
      <h2 id="dvp-sessies" className="utrecht-heading-2">
        Ingelogd op andere apparaten
      </h2>
      {sessions.isPending && <Loading />}
      {sessions.isError && <ErrorAlert text={LOAD_FAILED} />}
      {sessions.isSuccess && others.length === 0 && (
        <p className="utrecht-paragraph">Je bent nergens anders ingelogd.</p>
      )}
      {others.length > 0 && (
        <>
          <p className="utrecht-paragraph">Herken je een apparaat niet? Log daar dan uit en verander je wachtwoord.</p>
          <ul className="dvp-sessions">
            {others.map((session) => {
              const device = session.devices?.[0];
              const name = deviceName(device?.user_agent);
              const details = sessionDetails(session);
              return (
                <li key={session.id} className="dvp-sessions__item">
                  <div>
                    <p className="utrecht-paragraph">
                      <strong>{name}</strong>
                    </p>
                    <p className="utrecht-paragraph">{details.join(' · ')}</p>
                  </div>
                  <button
                    type="button"
                    className="utrecht-button utrecht-button--secondary-action"
                    aria-label={`Uitloggen op ${name} (${details.join(', ')})`}
                    disabled={end.isPending}
                    onClick={() => endSession(session.id, name)}
                  >
                    Uitloggen
                  </button>
                </li>
              );
            })}
          </ul>
          {others.length > 1 && (
            <button
              type="button"
              className="utrecht-button utrecht-button--secondary-action"
              disabled={end.isPending}
              onClick={() => endSession('all')}
            >
              Op alle andere apparaten uitloggen
            </button>
          )}
        </>
      )}
    </section>
  );
}
