import type { SettingsFlow } from '@ory/client-fetch';
import { TextField } from '../components/TextField';
import { profileSchema, type ProfileValues } from '../forms/settings-schema';
import { SettingsFormSection } from './SettingsFormSection';
import type { SubmitSettings } from './settings-save';
import { useSettingsForm } from './use-settings-form';

/** The fields in the order of the form; 'root' holds 'Geen van de velden is aangepast.'. */
const SUMMARY_FIELDS = ['firstName', 'lastName', 'email', 'root'] as const;

interface Traits {
  email: string;
  name: { first: string; last: string };
}

interface SettingsProfileFormProps {
  flow: SettingsFlow | undefined;
  submit: SubmitSettings;
  /** The person's name and address as they are now; absent while loading. */
  traits: Traits | undefined;
  /** After a save: the screen refreshes what it knows of the person. */
  onSaved(): Promise<unknown>;
}

/**
 * 'Account instelling wijzigen': name and address, each with its current value in its description (not as a
 * placeholder, which reads as a value already filled in), and the section's own 'Bewerkingen opslaan'.
 */
export function SettingsProfileForm({ flow, submit, traits, onSaved }: SettingsProfileFormProps) {
  const { form, errors, save, section, refusal } = useSettingsForm({
    schema: profileSchema,
    defaultValues: { firstName: '', lastName: '', email: '' },
    summaryFields: SUMMARY_FIELDS,
    submit,
    onSaved,
  });
  const now = (value: string | undefined) => (value ? `Nu: ${value}` : undefined);

  async function saveValid(values: ProfileValues) {
    if (!flow || !traits) return;
    const changed = {
      email: values.email ?? traits.email,
      name: { first: values.firstName ?? traits.name.first, last: values.lastName ?? traits.name.last },
    };
    const failure = 'Er is iets misgegaan bij het updaten van je gegevens. Probeer het nog eens.';
    await save({ method: 'profile', traits: changed }, failure, Boolean(values.email));
  }

  return (
    <SettingsFormSection
      id="dvp-profiel"
      title="Account instelling wijzigen"
      intro={
        <p className="utrecht-paragraph">Vul alleen in wat je wilt wijzigen. Lege velden blijven zoals ze zijn.</p>
      }
      saveLabel="Bewerkingen opslaan"
      {...section}
      ready={Boolean(flow)}
      onSubmit={form.handleSubmit(saveValid)}
    >
      <TextField
        label="Naam"
        autoComplete="given-name"
        description={now(traits?.name.first)}
        error={errors.firstName?.message ?? refusal('firstName', flow, 'traits.name.first')}
        {...form.register('firstName')}
      />
      <TextField
        label="Achternaam"
        autoComplete="family-name"
        description={now(traits?.name.last)}
        error={errors.lastName?.message ?? refusal('lastName', flow, 'traits.name.last')}
        {...form.register('lastName')}
      />
      <TextField
        label="E-mailadres"
        type="email"
        autoComplete="email"
        description={now(traits?.email)}
        error={errors.email?.message ?? refusal('email', flow, 'traits.email')}
        {...form.register('email')}
      />
    </SettingsFormSection>
  );
}
