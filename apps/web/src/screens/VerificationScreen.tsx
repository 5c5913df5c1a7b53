import { Link } from 'react-router';
import { BackToLogin } from '../components/BackToLogin';
import { ProgressSteps, VERIFICATION_STEPS } from '../components/ProgressSteps';
import { FlowForm } from '../flows/FlowForm';
import { useSelfServiceFlow } from '../flows/use-flow';
import { usePageTitle } from '../layout/use-page-title';
import { RestartNotice } from '../components/RestartNotice';
import { FlowProblem } from '../components/FlowProblem';
import { Loading } from '../components/Loading';

/** /verification: the provider's verification flow, with the steps towards the authenticator app. */
export default function VerificationScreen() {
  const { flow, ui, submit, problem } = useSelfServiceFlow('verification');
  const verified = flow?.state === 'passed_challenge';
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
      {ui && <FlowForm ui={ui} onSubmit={async (values) => void (await submit(values))} />}
      {verified && (
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
