import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { SettingsFlow } from '@ory/client-fetch';
import { frontend, idpErrorOf } from '../api/ory';
import { useCurrentUser } from '../api/queries';
import { FlowForm } from '../flows/FlowForm';
import { FlowMessages } from '../flows/FlowMessages';
import { secondFactorGate } from '../api/users-api';
import { actedOnFlowError } from '../flows/flow-errors';
import type { FlowUi, FlowValues, UiNode } from '../flows/ui-types';
import { ErrorAlert } from '../components/ErrorAlert';
import { usePageTitle } from '../layout/use-page-title';
import { BackupCodeActions } from './BackupCodeActions';
import { IdleWarning } from '../sessions/IdleWarning';
import { LogOutOthersOffer } from '../sessions/LogOutOthersOffer';
import { ProgressSteps, RECOVERY_STEPS } from '../components/ProgressSteps';
import { RestartNotice, useSameScreenNavigation, withNotice } from '../components/RestartNotice';
import { Loading } from '../components/Loading';

const codesOf = (ui: FlowUi): string[] => {
  const node = ui.nodes.find((n) => n.attributes.id === 'lookup_secret_codes');
  const secrets = node?.attributes.text?.context?.secrets ?? [];
  return secrets.filter((s) => s.id === 1050009).map((s) => s.text);
};
const hasNode = (ui: FlowUi, name: string) => ui.nodes.some((n: UiNode) => n.attributes.name === name);

const LOAD_FAILED = 'Er is iets misgegaan bij het ophalen van je instellingen. Probeer het later nog eens.';
const SAVE_FAILED = 'Er is iets misgegaan bij het opslaan. Probeer het nog eens.';

/** /settings/2fa-app: link an authenticator app (QR code or key), then make and keep backup codes. */
export default function TwoFactorScreen() {
  usePageTitle('Authenticator-app instellen');
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  const [flow, setFlow] = useState<SettingsFlow>();
  const [problem, setProblem] = useState<string>();
  // A second factor linked, removed or renewed: the person is offered to end their other sessions.
  const [changed, setChanged] = useState(false);
  const flowId = params.get('flow');
  const sameScreen = useSameScreenNavigation();
  const restarting = useRef(false);
  const keep = (id: string) => ({ flow: id, ...(params.get('herstel') ? { herstel: '1' } : {}) });

  const actions = {
    navigate: (to: string, notice?: string) => navigate(to, withNotice(notice)),
    restart: (notice?: string) => {
      restarting.current = flowId !== null;
      setFlow(undefined);
      setParams({}, withNotice(notice));
    },
    followFlow: (id: string) => setParams(keep(id), sameScreen()),
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the flow is fetched once per flow id
  const load = useCallback(async () => {
    try {
      const loaded = flowId
        ? await frontend.getSettingsFlow({ id: flowId })
        : await frontend.createBrowserSettingsFlow({});
      setFlow(loaded);
      if (!flowId) setParams(keep(loaded.id), sameScreen());
    } catch (error) {
      if (!(await actedOnFlowError(error, 'settings', actions))) setProblem(LOAD_FAILED);
    }
  }, [flowId]);

  // Load once per flow id; a flow just created (before its id reaches the address) is not loaded again.
  useEffect(() => {
    if (flow && (flowId === null || flow.id === flowId)) return;
    // A restart clears the flow before the address loses its id: wait for that, rather than load the refused flow again.
    if (restarting.current) {
      if (flowId !== null) return;
      restarting.current = false;
    }
    void load();
  }, [load, flow, flowId]);

  async function submit(values: FlowValues) {
    if (!flow) return;
    setProblem(undefined);
    try {
      const updated = await frontend.updateSettingsFlow({ flow: flow.id, updateSettingsFlowBody: values as never });
      setFlow(updated);
      setChanged(true);
      await queryClient.invalidateQueries();
    } catch (error) {
      const { status, body } = await idpErrorOf(error);
      if (status === 400 && body.ui) return setFlow(body as unknown as SettingsFlow);
      if (!(await actedOnFlowError(error, 'settings', actions))) setProblem(SAVE_FAILED);
    }
  }

  // The way out: back to the settings for a person who came from there, and signing out for everyone (also a person
  // who must link an app before anything else, for whom the rest of the portal is closed until then).
  const wayOut = (
    <nav aria-label="Verlaten" className="dvp-links dvp-way-out">
      {user.data && !secondFactorGate(user.data) && (
        <Link className="utrecht-link" to="/settings">
          Terug naar account instellingen
        </Link>
      )}
      <Link className="utrecht-link" to="/uitloggen">
        Uitloggen
      </Link>
    </nav>
  );
  if (!flow) {
    return (
      <main className="dvp-main" id="inhoud">
        <h1 className="utrecht-heading-1">Authenticator-app instellen</h1>
        {problem ? <ErrorAlert text={problem} support /> : <Loading />}
        {wayOut}
      </main>
    );
  }
  const ui = flow.ui as unknown as FlowUi;
  const linked = hasNode(ui, 'totp_unlink');
  const codes = codesOf(ui);
  const next = user.data?.isAdmin ? '/' : '/permissies';
  const fromRecovery = params.get('herstel') === '1';
  return (
    <main className="dvp-main" id="inhoud">
      {/* Outside the sidebar layout, yet signed in: the idle timeout applies here too. */}
      <IdleWarning />
      {fromRecovery && <ProgressSteps steps={RECOVERY_STEPS} current={linked ? 3 : 2} />}
      <h1 className="utrecht-heading-1">Authenticator-app instellen</h1>
      <RestartNotice />
      {/* The flow's messages once, here: not under each of the two forms ('Je gegevens zijn aangepast.' twice). */}
      <FlowMessages messages={ui.messages} />
      {problem && <ErrorAlert text={problem} support />}
      {changed && <LogOutOthersOffer />}
      {!linked ? (
        <section aria-labelledby="dvp-app">
          <h2 id="dvp-app" className="utrecht-heading-2">
            Stap 1: koppel je authenticator-app
          </h2>
          <p className="utrecht-paragraph">
            Open een authenticator-app op je telefoon of tablet, bijvoorbeeld Microsoft Authenticator of Google
            Authenticator. Scan de QR-code. Lukt scannen niet? Voer dan de sleutel onder de QR-code met de hand in. Vul
            daarna de code van 6 cijfers in die de app laat zien.
          </p>
          <FlowForm ui={ui} groups={['totp']} onSubmit={submit} showMessages={false} />
        </section>
      ) : (
        <section aria-labelledby="dvp-app-ok">
          <h2 id="dvp-app-ok" className="utrecht-heading-2">
            Je authenticator-app is gekoppeld
          </h2>
          <p className="utrecht-paragraph">Bij het inloggen vraagt het portaal voortaan om de code uit je app.</p>
          <FlowForm ui={ui} groups={['totp']} onSubmit={submit} showMessages={false} />
        </section>
      )}
      {linked && (
        <section aria-labelledby="dvp-codes">
          <h2 id="dvp-codes" className="utrecht-heading-2">
            Stap 2: bewaar je back-upcodes
          </h2>
          <p className="utrecht-paragraph">
            Met een back-upcode log je in als je je telefoon niet bij de hand hebt. Elke code werkt één keer. Bewaar ze
            op een veilige plek, niet op je telefoon.
          </p>
          {codes.length > 0 && <BackupCodeActions codes={codes} />}
          <FlowForm ui={ui} groups={['lookup_secret']} onSubmit={submit} showMessages={false} />
          <p className="utrecht-paragraph">
            <Link className="utrecht-link" to={next}>
              Verder naar het portaal
            </Link>
          </p>
        </section>
      )}
      {wayOut}
    </main>
  );
}
