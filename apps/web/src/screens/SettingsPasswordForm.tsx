import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { SettingsFlow } from '@ory/client-fetch';
import { messagesOf } from '../components/ErrorSummary';
import { NewPasswordFields } from '../components/NewPasswordFields';
import { passwordSchema, type PasswordInput, type PasswordValues } from '../forms/settings-schema';
import { SettingsFormSection } from './SettingsFormSection';
import { nodeErrors, type SubmitSettings, useSettingsSave } from './settings-save';

/** The fields in the order of the form; 'root' holds 'Geen van de velden is aangepast.'. */
const SUMMARY_FIELDS = ['password', 'confirmPassword', 'root'] as const;

interface SettingsPasswordFormProps {
  flow: SettingsFlow | undefined;
  submit: SubmitSettings;
  /** The account's address, for the password manager. */
  username: string | undefined;
  onSaved(): Promise<unknown>;
}

/** 'Wachtwoord aanpassen': the new password twice, with show/hide toggles, and the section's own save button. */
export function SettingsPasswordForm({ flow, submit, username, onSaved }: SettingsPasswordFormProps) {
  const { outcome, setOutcome, send } = useSettingsSave(submit);
  const form = useForm<PasswordInput, unknown, PasswordValues>({
    resolver: zodResolver(passwordSchema),
    shouldFocusError: false,
    defaultValues: { password: '', confirmPassword: '' },
  });
  const errors = form.formState.errors;

  async function save(values: PasswordValues) {
    if (!flow || !values.password) return;
    setOutcome(undefined);
    const failure = 'Er is iets misgegaan bij het updaten van je nieuwe wachtwoord. Probeer het nog eens.';
    if (!(await send({ method: 'password', password: values.password }, failure))) return;
    form.reset();
    await onSaved();
    setOutcome({ kind: 'ok', text: 'Je gegevens zijn aangepast.', secrets: true });
  }

  return (
    <SettingsFormSection
      id="dvp-wachtwoord"
      title="Wachtwoord aanpassen"
      saveLabel="Wachtwoord opslaan"
      errors={messagesOf(errors, SUMMARY_FIELDS)}
      submitCount={form.formState.submitCount}
      submitting={form.formState.isSubmitting}
      ready={Boolean(flow)}
      onSubmit={form.handleSubmit(save)}
      outcome={outcome}
    >
      <NewPasswordFields
        password={form.register('password')}
        confirmPassword={form.register('confirmPassword')}
        passwordError={errors.password?.message ?? nodeErrors(flow, 'password')}
        confirmError={errors.confirmPassword?.message}
        username={username}
      />
    </SettingsFormSection>
  );
}
