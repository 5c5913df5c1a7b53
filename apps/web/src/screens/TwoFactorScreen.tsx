import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useCurrentUser } from '../api/queries';
import { FlowForm } from '../flows/FlowForm';
import { FlowMessages } from '../flows/FlowMessages';
import { BackupCodeList } from '../flows/FlowNode';
import { secondFactorGate, secondFactorGateBackTo } from '../api/users-api';
import { useSelfServiceFlow } from '../flows/use-flow';
import type { FlowUi, FlowValues, UiNode } from '../flows/ui-types';
import { translate } from '../i18n/kratos-messages';
import { ErrorAlert } from '../components/ErrorAlert';
import { usePageTitle } from '../layout/use-page-title';
import { BackupCodeActions } from './BackupCodeActions';
import { IdleWarning } from '../sessions/IdleWarning';
import { serviceSignInPath } from '../layout/return-to';
import { LogOutOthersOffer } from '../sessions/LogOutOthersOffer';
import { ProgressSteps, RECOVERY_STEPS } from '../components/ProgressSteps';
import { RestartNotice } from '../components/RestartNotice';
import { ContinueLink } from './ContinueLink';
import { Loading } from '../components/Loading';
import { SecurityKeysSection } from '../security-keys/SecurityKeysSection';
import { ConfirmDialog } from '../overview/ConfirmDialog';
import { useSecondFactorReason } from '../organisations/second-factor-reason';
import { CODES_NODE, codesNodeOf, codesOf } from '../flows/backup-codes';

const hasNode = (ui: FlowUi, name: string) => ui.nodes.some((n: UiNode) => n.attributes.name === name);

/** Where the screen is: the app still to link, linked, or linked with backup codes on the screen. */
type Stage = 'link' | 'linked' | 'codes';
const stageOf = (ui: FlowUi): Stage => (!hasNode(ui, 'totp_unlink') ? 'link' : codesNodeOf(ui) ? 'codes' : 'linked');

/** The page title's words for each stage (WCAG 2.4.2). */
const STAGE_TITLES: Record<Stage, string> = {
  link: 'app koppelen',
  linked: 'app gekoppeld',
  codes: 'back-upcodes bewaren',
};

/** The headings (ids) of what an answer can bring. */
const HEADING = { link: 'dvp-app', linked: 'dvp-app-ok', codes: 'dvp-codes-list', codeStep: 'dvp-codes' } as const;

/**
 * The heading that takes the focus after an answer, so that the person hears what changed: new codes (their own
 * heading), the app linked or unlinked (the new step), or the codes confirmed or switched off (the backup-code step).
 */
function headingAfter(before: Stage, after: Stage): string | undefined {
  if (after === 'codes') return HEADING.codes;
  if (before === 'link' && after === 'linked') return HEADING.linked;
  if (after === 'link') return before === 'link' ? undefined : HEADING.link;
  return HEADING.codeStep;
}

const LOAD_FAILED = 'Er is iets misgegaan bij het ophalen van je instellingen. Probeer het later nog eens.';
const SAVE_FAILED = 'Er is iets misgegaan bij het opslaan. Probeer het nog eens.';

/** The buttons that take a second factor away, which cannot be undone: the person confirms first (WCAG 3.3.4). */
const LOSSES: Record<string, { title: string; confirm: string; text: string }> = {
  totp_unlink: {
    title: 'Authenticator-app ontkoppelen',
    confirm: 'Ontkoppelen',
    text:
      'Weet je zeker dat je je authenticator-app wilt ontkoppelen? Het portaal vraagt dan niet meer om de code uit ' +
      'de app. Dit kun je niet ongedaan maken: wil je de app later weer gebruiken, dan koppel je hem opnieuw.',
  },
  lookup_secret_disable: {
    title: 'Back-upcodes uitschakelen',
    confirm: 'Uitschakelen',
    text:
      'Weet je zeker dat je je back-upcodes wilt uitschakelen? De codes die je hebt bewaard, werken dan niet meer. ' +
      'Dit kun je niet ongedaan maken.',
  },
};

/** /settings/2fa-app: link an authenticator app (QR code or key), then make and keep backup codes. */
export default function TwoFactorScreen() {
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  const { flow, ui, problem, submit: send } = useSelfServiceFlow('settings');
  // A second factor linked, removed or renewed: the person is offered to end their other sessions.
  const [changed, setChanged] = useState(false);
  // The heading to focus once an answer is on screen: the button that was pressed has gone (WCAG 2.4.3).
  const [focusHeading, setFocusHeading] = useState<string>();
  const [confirming, setConfirming] = useState<{ values: FlowValues; loss: (typeof LOSSES)[string] }>();
  // Sent here by the sidebar layout (an organisation asks for a second factor): why, and the focus on the heading.
  const reason = useSecondFactorReason();
  const title = useRef<HTMLHeadingElement>(null);
  const ready = Boolean(ui);
  useEffect(() => {
    if (reason && ready) title.current?.focus();
  }, [reason, ready]);

  /** A form's submit: what takes a factor away waits for the person's confirmation. */
  async function submit(values: FlowValues) {
    const loss = Object.keys(LOSSES).find((name) => values[name] !== undefined);
    if (loss) setConfirming({ values, loss: LOSSES[loss]! });
    else await perform(values);
  }

  async function perform(values: FlowValues) {
    const before = ui;
    const sent = await send(values);
    if (sent.kind !== 'done') return;
    if (before && sent.flow) setFocusHeading(headingAfter(stageOf(before), stageOf(sent.flow.ui as unknown as FlowUi)));
    setChanged(true);
    await queryClient.invalidateQueries();
  }

  const stage = ui && stageOf(ui);
  const problemText = problem && (problem.during === 'load' ? LOAD_FAILED : SAVE_FAILED);
  const fromRecovery = params.get('herstel') === '1';
  const recoveryStep = fromRecovery && stage && (stage === 'link' ? 'stap 3 van 4' : 'stap 4 van 4');
  usePageTitle(
    'Authenticator-app instellen',
    stage && (recoveryStep ? `${STAGE_TITLES[stage]} (${recoveryStep})` : STAGE_TITLES[stage]),
  );
  // The backup-code buttons of the flow; the codes themselves are shown above the copy, download and print buttons.
  const lookupUi = useMemo(
    () => ui && { ...ui, nodes: ui.nodes.filter((node) => node.attributes.id !== CODES_NODE) },
    [ui],
  );

  useEffect(() => {
    if (!focusHeading || !flow) return;
    document.getElementById(focusHeading)?.focus();
    setFocusHeading(undefined);
  }, [focusHeading, flow]);

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
  if (!ui || !lookupUi) {
    return (
      <main className="dvp-main" id="inhoud">
        <h1 className="utrecht-heading-1">Authenticator-app instellen</h1>
        {problemText ? <ErrorAlert text={problemText} support /> : <Loading />}
        {wayOut}
      </main>
    );
  }
  const linked = stage !== 'link';
  const codesNode = codesNodeOf(ui);
  const codes = codesOf(ui);
  // New codes on the screen, which count only once confirmed.
  const unconfirmed = hasNode(ui, 'lookup_secret_confirm');
  const next = user.data?.isAdmin ? '/' : '/permissies';
  // On the way to a data service (LoginScreen.tsx): its sign-in at the portal's provider goes on from here.
  const service = serviceSignInPath(params.get('verder'));
  // A security key or passkey added here meets the policy once used to sign in (api/users-api.ts secondFactorGate);
  // that sign-in goes on to the service, or to where the person would have gone after linking an app.
  const gate = user.data && secondFactorGateBackTo(user.data, service ?? next);
  const keyGate = gate && gate !== '/settings/2fa-app' && !linked ? gate : undefined;
  return (
    <main className="dvp-main" id="inhoud">
      {/* Outside the sidebar layout, yet signed in: the idle timeout applies here too. */}
      <IdleWarning />
      {fromRecovery && <ProgressSteps steps={RECOVERY_STEPS} current={linked ? 3 : 2} />}
      <h1 className="utrecht-heading-1" tabIndex={-1} ref={title}>
        Authenticator-app instellen
      </h1>
      {reason && (
        <div className="utrecht-alert utrecht-alert--info">
          <p className="utrecht-paragraph">{reason} Stel die nu in.</p>
        </div>
      )}
      <RestartNotice />
      {/* The flow's messages once, here: not under each of the two forms ('Je gegevens zijn aangepast.' twice). */}
      <FlowMessages messages={ui.messages} />
      {problemText && <ErrorAlert text={problemText} support focus />}
      {changed && <LogOutOthersOffer />}
      {!linked ? (
        <section aria-labelledby={HEADING.link}>
          <h2 id={HEADING.link} className="utrecht-heading-2" tabIndex={-1}>
            Stap 1: koppel je authenticator-app
          </h2>
          <p className="utrecht-paragraph">
            Open een authenticator-app op je telefoon of tablet, bijvoorbeeld Microsoft Authenticator of Google
            Authenticator. Scan de QR-code. Lukt scannen niet? Voer dan de sleutel onder de QR-code met de hand in. Vul
            daarna de code van 6 cijfers in die de app laat zien.
          </p>
          <FlowForm ui={ui} groups={['totp']} onSubmit={submit} showMessages={false} />
          {fromRecovery && user.data && !user.data.aal2Required && (
            // After a recovery or invitation link the steps lead here; for this person they may end without an app.
            <p className="utrecht-paragraph">
              Voor jouw account is 2FA niet verplicht, maar wel veiliger. Je kunt het ook later instellen bij Account
              instellingen.{' '}
              <Link className="utrecht-link" to={next}>
                Later instellen en verder naar het portaal
              </Link>
            </p>
          )}
        </section>
      ) : (
        <section aria-labelledby={HEADING.linked}>
          <h2 id={HEADING.linked} className="utrecht-heading-2" tabIndex={-1}>
            Je authenticator-app is gekoppeld
          </h2>
          <p className="utrecht-paragraph">Bij het inloggen vraagt het portaal voortaan om de code uit je app.</p>
          <FlowForm ui={ui} groups={['totp']} onSubmit={submit} showMessages={false} />
        </section>
      )}
      {linked && (
        <section aria-labelledby={HEADING.codeStep}>
          <h2 id={HEADING.codeStep} className="utrecht-heading-2" tabIndex={-1}>
            Stap 2: bewaar je back-upcodes
          </h2>
          <p className="utrecht-paragraph">
            Met een back-upcode log je in als je je telefoon niet bij de hand hebt. Elke code werkt één keer. Bewaar ze
            op een veilige plek, niet op je telefoon.
          </p>
          {codesNode && (
            // The codes first, then what to do with them (reading order, WCAG 1.3.2).
            <div className="dvp-backup-code-panel">
              <h3 id={HEADING.codes} className="utrecht-heading-3" tabIndex={-1}>
                {codesNode.attributes.text ? translate(codesNode.attributes.text) : 'Je back-upcodes'}
              </h3>
              <BackupCodeList node={codesNode} />
              {codes.length > 0 && <BackupCodeActions codes={codes} />}
            </div>
          )}
          {unconfirmed && (
            <p className="utrecht-paragraph">Bewaar ze en kies daarna ‘Back-upcodes bevestigen’: pas dan werken ze.</p>
          )}
          <FlowForm ui={lookupUi} groups={['lookup_secret']} onSubmit={submit} showMessages={false} />
          <ContinueLink service={service} next={next} unconfirmedCodes={unconfirmed} />
        </section>
      )}
      {confirming && (
        <ConfirmDialog
          title={confirming.loss.title}
          confirmLabel={confirming.loss.confirm}
          danger
          busy={false}
          onClose={() => setConfirming(undefined)}
          onConfirm={() => {
            setConfirming(undefined);
            void perform(confirming.values);
          }}
        >
          <p className="utrecht-paragraph">{confirming.loss.text}</p>
        </ConfirmDialog>
      )}
      <SecurityKeysSection
        ui={ui}
        submit={send}
        hasBackupCodes={Boolean(user.data?.identity.credentials.includes('lookup_secret'))}
        onChanged={async () => {
          setChanged(true);
          await queryClient.invalidateQueries();
        }}
      />
      {keyGate && (
        <p className="utrecht-paragraph dvp-next-step">
          <Link className="utrecht-button-link utrecht-button-link--primary-action" to={keyGate}>
            Ga verder met je passkey of beveiligingssleutel
          </Link>
        </p>
      )}
      {wayOut}
    </main>
  );
}
