import type { SettingsFlow } from '@ory/client-fetch';
import { NewPasswordFields } from '../components/NewPasswordFields';
import { passwordSchema, type PasswordValues } from '../forms/settings-schema';
import { SettingsFormSection } from './SettingsFormSection';
import type { SubmitSettings } from './settings-save';
import { useSettingsForm } from './use-settings-form';

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
  const { form, errors, save, section, refusal } = useSettingsForm({
    schema: passwordSchema,
    defaultValues: { password: '', confirmPassword: '' },
    summaryFields: SUMMARY_FIELDS,
    submit,
    onSaved,
  });

  async function saveValid(values: PasswordValues) {
    if (!flow || !values.password) return;
    const failure = 'Er is iets misgegaan bij het updaten van je nieuwe wachtwoord. Probeer het nog eens.';
    await save({ method: 'password', password: values.password }, failure, true);
  }

  return (
    <SettingsFormSection
      id="dvp-wachtwoord"
      title="Wachtwoord aanpassen"
      saveLabel="Wachtwoord opslaan"
      {...section}
      ready={Boolean(flow)}
      onSubmit={form.handleSubmit(saveValid)}
    >
      <NewPasswordFields
        password={form.register('password')}
        confirmPassword={form.register('confirmPassword')}
        passwordError={errors.password?.message ?? refusal('password', flow, 'password')}
        confirmError={errors.confirmPassword?.message}
        username={username}
      />
    </SettingsFormSection>
  );
}
