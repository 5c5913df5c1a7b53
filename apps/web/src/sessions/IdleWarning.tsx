import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { frontend, idpErrorOf } from '../api/ory';
import { usePortalConfig } from '../api/portal-config';
import { rememberIdleSignOut } from './idle-sign-out';
import { lastServerContact, onServerContact } from './server-contact';

// The server notes a session's use at most once a minute, so its idle clock may have started up to a minute earlier.
const SERVER_NOTE_INTERVAL_MS = 60_000;
const WARNING_MS = 2 * 60_000;

const minutes = (ms: number) => Math.max(1, Math.round(ms / 60_000));
const inMinutes = (count: number) => (count === 1 ? '1 minuut' : `${count} minuten`);

/**
 * WCAG 2.2.1 (timing adjustable): before the session ends for lack of use, the person is warned and can stay signed
 * in with one button; without an answer, the portal signs out itself and the sign-in screen says why.
 */
export function IdleWarning() {
  const idleMs = (usePortalConfig().data?.sessionIdleSeconds ?? 0) * 1000;
  const navigate = useNavigate();
  const [warning, setWarning] = useState(false);
  const [problem, setProblem] = useState(false);
  const margin = Math.min(SERVER_NOTE_INTERVAL_MS, idleMs / 10);
  const warnFor = Math.min(WARNING_MS, idleMs / 4);

  const signOut = (idle: boolean) => {
    if (idle) rememberIdleSignOut(minutes(idleMs));
    navigate('/uitloggen', { replace: true });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the timers restart only when the timeout changes
  useEffect(() => {
    if (!idleMs) return;
    let timers: number[] = [];
    const plan = () => {
      timers.forEach(clearTimeout);
      setWarning(false);
      setProblem(false);
      const end = lastServerContact() + idleMs - margin;
      timers = [
        window.setTimeout(() => setWarning(true), Math.max(0, end - warnFor - Date.now())),
        window.setTimeout(() => signOut(true), Math.max(0, end - Date.now())),
      ];
    };
    plan();
    const stop = onServerContact(plan);
    return () => {
      stop();
      timers.forEach(clearTimeout);
    };
  }, [idleMs, margin, warnFor]);

  // Any answer from the server counts as use, so the warning closes through `plan` once whoami has answered.
  const stay = () => {
    setProblem(false);
    frontend.toSession().catch(async (error: unknown) => {
      // Already ended on the server (a clock running ahead, a sleeping laptop): say so on the sign-in screen.
      if ((await idpErrorOf(error)).status === 401) return signOut(true);
      setProblem(true);
    });
  };

  if (!warning) return null;
  return (
    <ModalOverlay className="dvp-modal-overlay" isOpen isDismissable={false} onOpenChange={(open) => !open && stay()}>
      <Modal className="dvp-modal">
        <Dialog role="alertdialog">
          <Heading slot="title" className="utrecht-heading-2">
            Je wordt bijna uitgelogd
          </Heading>
          <p className="utrecht-paragraph">
            Je hebt een tijd niets gedaan in het portaal. Om je account te beschermen word je over{' '}
            {inMinutes(minutes(warnFor))} automatisch uitgelogd.
          </p>
          {problem && (
            <div className="utrecht-alert utrecht-alert--error" role="alert">
              <p className="utrecht-paragraph">Ingelogd blijven is niet gelukt. Probeer het nog eens.</p>
            </div>
          )}
          <div className="dvp-modal__actions">
            <button
              type="button"
              className="utrecht-button utrecht-button--secondary-action"
              onClick={() => signOut(false)}
            >
              Uitloggen
            </button>
            {/* biome-ignore lint/a11y/noAutofocus: the warning dialog offers staying signed in as its first choice */}
            <button type="button" className="utrecht-button utrecht-button--primary-action" onClick={stay} autoFocus>
              Ingelogd blijven
            </button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
