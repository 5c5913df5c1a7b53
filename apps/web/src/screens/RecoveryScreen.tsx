import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { BackToLogin } from '../components/BackToLogin';
import { usersApi } from '../api/users-api';
import { ProgressSteps, RECOVERY_STEPS } from '../components/ProgressSteps';
import { TextField } from '../components/TextField';
import { ErrorAlert } from '../components/ErrorAlert';
import { usePageTitle } from '../layout/use-page-title';
import { RestartNotice } from '../components/RestartNotice';
import { FlowMessages } from '../flows/FlowMessages';
import { useSelfServiceFlow } from '../flows/use-flow';

// 'E-mail is niet valide.' for an address that is not one; an empty field is asked for by name instead.
const schema = z.object({
  email: z.string().trim().toLowerCase().min(1, 'Vul je e-mailadres in.').email('E-mail is niet valide.'),
});
type Values = z.output<typeof schema>;

/** /recovery: the portal's own form; the mail's link then leads through password, 2FA and 'Klaar!'. */
export default function RecoveryScreen() {
  const [state, setState] = useState<'form' | 'sent' | 'failed'>('form');
  usePageTitle('Herstel je wachtwoord', state === 'sent' ? 'kijk in je e-mail' : 'stap 1 van 4');
  // The answer replaces the form and its button: the focus goes to the answer, read out at once (WCAG 2.4.3).
  const answer = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state === 'sent') answer.current?.focus();
  }, [state]);
  const form = useForm<z.input<typeof schema>, unknown, Values>({
    resolver: zodResolver(schema),
    defaultValues: { email: '' },
  });
  // A mailed link that is expired or used brings the person back here with a new recovery flow that says so. The
  // form itself is the portal's own (the Users API mails the link): no flow is made here.
  const link = useSelfServiceFlow('recovery', { create: false }).ui;

  async function send(values: Values) {
    try {
      await usersApi(`/users/password-recovery?email=${encodeURIComponent(values.email)}`);
      setState('sent');
    } catch {
      setState('failed');
    }
  }

  return (
    <main className="dvp-main" id="inhoud">
      <ProgressSteps steps={RECOVERY_STEPS} current={0} />
      <h1 className="utrecht-heading-1">Herstel je wachtwoord</h1>
      <RestartNotice />
      {state === 'sent' ? (
        <div role="status" ref={answer} tabIndex={-1}>
          <p className="utrecht-paragraph">
            Als het opgegeven e-mailadres een geldig account is, wordt er een e-mail verzonden met instructies om het
            wachtwoord opnieuw in te stellen.
          </p>
          <p className="utrecht-paragraph">
            E-mail niet ontvangen? Neem contact op met de administrator van jouw gemeente.
          </p>
        </div>
      ) : (
        <form
          className="dvp-form"
          noValidate
          onSubmit={form.handleSubmit(send)}
          aria-busy={form.formState.isSubmitting}
        >
          {state === 'form' && <FlowMessages messages={link?.messages} />}
          {state === 'failed' && (
            <ErrorAlert
              // Each failed attempt anew, so that it takes the focus again.
              key={form.formState.submitCount}
              text="Er is iets misgegaan bij het herstellen van je wachtwoord. Probeer het later nog eens."
              support
              focus
            />
          )}
          <TextField
            label="E-mailadres"
            type="email"
            autoComplete="email"
            error={form.formState.errors.email?.message}
            {...form.register('email')}
          />
          <div>
            <button
              type="submit"
              className="utrecht-button utrecht-button--primary-action"
              disabled={form.formState.isSubmitting}
            >
              Versturen
            </button>
          </div>
        </form>
      )}
      <BackToLogin />
    </main>
  );
}
