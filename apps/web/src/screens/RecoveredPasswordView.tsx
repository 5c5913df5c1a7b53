import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { frontend, idpErrorOf } from '../api/ory';
import { currentUserQuery, useCurrentUser } from '../api/queries';
import { IdleWarning } from '../sessions/IdleWarning';
import { ProgressSteps, RECOVERY_STEPS } from '../components/ProgressSteps';
import { ErrorSummary, messagesOf } from '../components/ErrorSummary';
import { NewPasswordFields } from '../components/NewPasswordFields';
import { FlowMessages } from '../flows/FlowMessages';
import { useSelfServiceFlow } from '../flows/use-flow';
import type { FlowUi } from '../flows/ui-types';
import { minutesUntil, translate, type UiText } from '../i18n/kratos-messages';
import { ErrorAlert } from '../components/ErrorAlert';
import { usePageTitle } from '../layout/use-page-title';
import { withNotice } from '../components/RestartNotice';

const schema = z
  .object({
    password: z.string().min(8, 'Het nieuwe wachtwoord bevat geen 8 tekens.'),
    confirmPassword: z.string().min(1, '"Wachtwoord bevestigen" is een verplicht veld.'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'Wachtwoorden komen niet overeen.',
  });
type Values = z.output<typeof schema>;

/** Kratos' 'You successfully recovered your account…', which the settings flow of every link carries. */
const RECOVERED = 1060001;

/**
 * An invitation's link is a recovery link (docs/architecture.md): for a person without any way to sign in yet, the
 * provider's 'Je account is hersteld' becomes a welcome, keeping how long the link's session lasts.
 */
function welcomeOf(message: UiText): string {
  const minutes = minutesUntil(message.context, 'privileged_session_expires_at');
  return `Welkom! Kies ${minutes ? `binnen ${minutes} minuten ` : ''}een wachtwoord voor je account.`;
}

const LOAD_FAILED = 'Er is iets misgegaan bij het ophalen van het formulier. Probeer het later nog eens.';
const SAVE_FAILED = 'Er is iets misgegaan bij het updaten van je nieuwe wachtwoord. Probeer het nog eens.';

/**
 * Step 2 after a recovery or invitation link: the settings flow the link opened, for choosing a password; then on to
 * the authenticator app (step 3) or, for an account that has one, to its sign-in.
 */
export function RecoveredPasswordView() {
  usePageTitle('Wachtwoord instellen', 'stap 2 van 4');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  // The provider's refusal, with the password it refused: once the person types another, it no longer applies.
  const [failure, setFailure] = useState<{ text: string; password: string }>();
  // Each refusal of the password by the provider: the field then takes the focus, with the reason as its description.
  const [refusals, setRefusals] = useState(0);
  // The error summary takes the focus, not the first field (GOV.UK pattern).
  const form = useForm<z.input<typeof schema>, unknown, Values>({
    resolver: zodResolver(schema),
    shouldFocusError: false,
    defaultValues: { password: '', confirmPassword: '' },
  });
  // The link's flow only: an expired link or another account's (a reason given) starts the recovery over; an unknown
  // form without a session has nothing to recover, so to sign in.
  const { flow, ui, problem, submit } = useSelfServiceFlow('settings', {
    create: false,
    restart: (notice) => {
      if (notice) return void navigate('/recovery', withNotice(notice));
      frontend
        .toSession()
        .then(() => navigate('/recovery', { replace: true }))
        .catch(async (error: unknown) =>
          navigate((await idpErrorOf(error)).status === 401 ? '/login' : '/recovery', { replace: true }),
        );
    },
  });

  // The refused field rather than the page, whose button was disabled while saving (WCAG 2.4.3).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new refusal moves the focus
  useEffect(() => {
    if (refusals > 0) form.setFocus('password');
  }, [refusals]);

  async function save(values: Values) {
    setFailure(undefined);
    const sent = await submit({ method: 'password', password: values.password });
    if (sent.kind === 'refused') {
      const message = (sent.flow.ui as unknown as FlowUi).nodes.find((n) => n.attributes.name === 'password')
        ?.messages[0];
      setFailure({ text: message ? translate(message, 'password') : SAVE_FAILED, password: values.password });
      setRefusals((count) => count + 1);
      return;
    }
    if (sent.kind !== 'done') return;
    // Refetches the screen's own whoami, which then answers here: one request, not two.
    await queryClient.invalidateQueries();
    const user = await queryClient.fetchQuery(currentUserQuery).catch(() => undefined);
    if (user?.identity.credentials.includes('totp'))
      return navigate(user.authenticator_assurance_level === 'aal2' ? '/permissies' : '/login?aal=aal2', {
        replace: true,
      });
    navigate('/settings/2fa-app?herstel=1', { replace: true });
  }

  const problemText = problem && (problem.during === 'load' ? LOAD_FAILED : SAVE_FAILED);
  const invited = user.data?.identity.credentials.length === 0;
  const recovered = ui?.messages?.find((message) => message.id === RECOVERED);
  const welcome = invited && recovered ? welcomeOf(recovered) : undefined;
  const typed = form.watch('password');
  return (
    <main className="dvp-main" id="inhoud">
      <IdleWarning />
      <ProgressSteps steps={RECOVERY_STEPS} current={1} />
      <h1 className="utrecht-heading-1">Wachtwoord instellen</h1>
      {welcome && (
        <div className="utrecht-alert utrecht-alert--info" role="status">
          <p className="utrecht-paragraph">{welcome}</p>
        </div>
      )}
      {/* Once it is known whether the link is an invitation, so that the welcome does not replace another text. */}
      {ui && !user.isPending && (
        <FlowMessages messages={welcome ? ui.messages?.filter((message) => message !== recovered) : ui.messages} />
      )}
      {problemText && <ErrorAlert text={problemText} support focus />}
      <form className="dvp-form" noValidate onSubmit={form.handleSubmit(save)} aria-busy={form.formState.isSubmitting}>
        <ErrorSummary
          messages={messagesOf(form.formState.errors, ['password', 'confirmPassword'])}
          focusOn={form.formState.submitCount}
        />
        <NewPasswordFields
          password={form.register('password')}
          confirmPassword={form.register('confirmPassword')}
          passwordError={
            form.formState.errors.password?.message ?? (failure?.password === typed ? failure.text : undefined)
          }
          confirmError={form.formState.errors.confirmPassword?.message}
          username={(flow?.identity.traits as { email?: string } | undefined)?.email}
        />
        <div>
          <button
            type="submit"
            className="utrecht-button utrecht-button--primary-action"
            disabled={!flow || form.formState.isSubmitting}
          >
            Wachtwoord opslaan
          </button>
        </div>
      </form>
    </main>
  );
}
