import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { currentUserQuery } from '../api/queries';
import { BackToLogin } from '../components/BackToLogin';
import { ProgressSteps, VERIFICATION_STEPS } from '../components/ProgressSteps';
import { FlowForm } from '../flows/FlowForm';
import { useSelfServiceFlow } from '../flows/use-flow';
import { usePageTitle } from '../layout/use-page-title';
import { RestartNotice } from '../components/RestartNotice';
import { FlowProblem } from '../components/FlowProblem';
import { Loading } from '../components/Loading';
import type { FlowUi } from '../flows/ui-types';

/** The flow without the provider's own way on ('Verder' to its return address). */
const withoutContinue = (ui: FlowUi): FlowUi => ({
  ...ui,
  nodes: ui.nodes.filter((node) => !(node.type === 'a' && node.attributes.id === 'continue')),
});

/**
 * /verification: the provider's verification flow, with the steps towards the authenticator app. Once verified there
 * is one way on: to the authenticator app, unless the person is signed in with one linked already (an address
 * changed in the settings); then the provider's 'Verder' to where the flow was started for.
 */
export default function VerificationScreen() {
  const { flow, ui, submit, problem } = useSelfServiceFlow('verification');
  const verified = flow?.state === 'passed_challenge';
  const user = useQuery({ ...currentUserQuery, enabled: verified });
  const appLinked = user.data?.identity.credentials.includes('totp') ?? false;
  const shown = ui && verified && !appLinked ? withoutContinue(ui) : ui;
  usePageTitle(
    'Verifieer je account',
    verified ? 'account geverifieerd' : flow?.state === 'sent_email' && 'code uit de e-mail invullen',
  );
  return (
    <main className="dvp-main" id="inhoud">
      <ProgressSteps steps={VERIFICATION_STEPS} current={verified ? 1 : 0} />
      <h1 className="utrecht-heading-1">Verifieer je account</h1>
      <RestartNotice />
      <FlowProblem problem={problem?.cause} />
      {!ui && !problem && <Loading />}
      {shown && <FlowForm ui={shown} onSubmit={async (values) => void (await submit(values))} />}
      {verified && !user.isPending && !appLinked && (
        <p className="utrecht-paragraph">
          <Link className="utrecht-link" to="/settings/2fa-app">
            Verder: authenticator-app instellen
          </Link>
        </p>
      )}
      <BackToLogin />
    </main>
  );
}
