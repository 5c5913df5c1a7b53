import { useState } from 'react';
import { BackToLogin } from '../components/BackToLogin';
import { usePortalConfig } from '../api/portal-config';
import { FlowForm } from '../flows/FlowForm';
import { useSelfServiceFlow } from '../flows/use-flow';
import { usePageTitle } from '../layout/use-page-title';
import { RestartNotice } from '../components/RestartNotice';
import { FlowProblem } from '../components/FlowProblem';
import { Loading } from '../components/Loading';

/** /registration: not shown in the spec; built like the other flow screens. Off unless REGISTRATION_ENABLED. */
export default function RegistrationScreen() {
  usePageTitle('Account maken');
  const config = usePortalConfig();
  const enabled = config.data?.registrationEnabled === true;
  return (
    <main className="dvp-main" id="inhoud">
      <h1 className="utrecht-heading-1">Account maken</h1>
      <RestartNotice />
      {config.isPending && <Loading />}
      {/* A configuration that cannot be read counts as the default: registration off (docs/architecture.md). */}
      {!config.isPending && !enabled && (
        <p className="utrecht-paragraph">
          Accounts worden gemaakt door de beheerder van je gemeente. Vraag hem of haar om een uitnodiging.
        </p>
      )}
      {enabled && <RegistrationForm />}
      <BackToLogin />
    </main>
  );
}

function RegistrationForm() {
  const { ui, submit, problem } = useSelfServiceFlow('registration');
  const [created, setCreated] = useState(false);
  if (created) {
    return (
      <div className="utrecht-alert utrecht-alert--ok" role="status">
        <p className="utrecht-paragraph">
          Je account is gemaakt. We hebben je een e-mail gestuurd om je e-mailadres te bevestigen. Daarna kun je
          inloggen.
        </p>
      </div>
    );
  }
  if (!ui) return problem ? <FlowProblem problem={problem.cause} /> : <Loading />;
  return (
    <>
      <FlowProblem problem={problem?.cause} />
      <FlowForm
        ui={ui}
        onSubmit={async (values) => {
          const sent = await submit(values);
          if (sent.kind === 'done' && typeof sent.answer === 'object' && sent.answer && 'identity' in sent.answer)
            setCreated(true);
        }}
      />
    </>
  );
}
