import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { BackToLogin } from '../components/BackToLogin';
import { usersApi } from '../api/users-api';
import { ProgressSteps, RECOVERY_STEPS } from '../components/ProgressSteps';
import { TextField } from '../components/TextField';
import { usePageTitle } from '../layout/use-page-title';
import { RestartNotice } from '../components/RestartNotice';

const schema = z.object({ email: z.string().trim().toLowerCase().email('E-mail is niet valide.') });
type Values = z.output<typeof schema>;

/** /recovery: the portal's own form; the mail's link then leads through password, 2FA and 'Klaar!'. */
export default function RecoveryScreen() {
  usePageTitle('Herstel je wachtwoord');
  const [state, setState] = useState<'form' | 'sent' | 'failed'>('form');
  const form = useForm<z.input<typeof schema>, unknown, Values>({ resolver: zodResolver(schema), defaultValues: { email: '' } });

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
        <div role="status">
          <p className="utrecht-paragraph">
            Als het opgegeven e-mailadres een geldig account is, wordt er een e-mail verzonden met instructies om het wachtwoord opnieuw in te stellen.
          </p>
          <p className="utrecht-paragraph">E-mail niet ontvangen? Neem contact op met de administrator van jouw gemeente.</p>
        </div>
      ) : (
        <form className="dvp-form" noValidate onSubmit={form.handleSubmit(send)} aria-busy={form.formState.isSubmitting}>
          {state === 'failed' && (
            <div className="utrecht-alert utrecht-alert--error" role="alert">
              <p className="utrecht-paragraph">Er is iets misgegaan bij het herstellen van je wachtwoord. Probeer het later nog eens.</p>
            </div>
          )}
          <TextField label="E-mailadres" type="email" autoComplete="email" error={form.formState.errors.email?.message} {...form.register('email')} />
          <div>
            <button type="submit" className="utrecht-button utrecht-button--primary-action" disabled={form.formState.isSubmitting}>
              Versturen
            </button>
          </div>
        </form>
      )}
      <BackToLogin />
    </main>
  );
}
