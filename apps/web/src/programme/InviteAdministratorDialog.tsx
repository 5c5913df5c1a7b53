import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { reasonOf } from '../api/users-api';
import { ErrorSummary, messagesOf } from '../components/ErrorSummary';
import { FormDialog } from '../components/FormDialog';
import { TextField } from '../components/TextField';
import { DialogError, type DialogFailure, failureOf, useFocusOnFailure } from '../overview/DialogError';
import {
  type AdministratorOutcome,
  inviteAdministrator,
  type NewAdministrator,
  type OrganisationSummary,
  refusedField,
} from './programme-api';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// The new-user form's words, as the server says them (packages/users-api/src/api-error.ts).
const NAME_RULE = 'Vul de naam in van de gebruiker (1 tot 50 tekens).';
const EMAIL_RULE = 'Het opgegeven e-mailadres wordt niet herkent als valide e-mailadres.';

/** What the invited person gets, said above the fields. */
const whatFollows = (organisation: string) =>
  'De persoon krijgt een e-mail om een wachtwoord en een tweede factor in te stellen en is daarna beheerder van ' +
  `${organisation}.`;

const schema = z.object({
  first: z.string().trim().min(1, NAME_RULE).max(50, NAME_RULE),
  last: z.string().trim().min(1, NAME_RULE).max(50, NAME_RULE),
  email: z.string().trim().toLowerCase().regex(EMAIL, EMAIL_RULE),
});
type Field = keyof z.output<typeof schema>;

/** The refusals of the Users API that are about the address, by their error id or English reason. */
const FIELDS: Record<string, Field> = {
  email_in_use: 'email',
  'The e-mail address is not valid.': 'email',
};

interface InviteAdministratorDialogProps {
  organisation: OrganisationSummary;
  onClose(): void;
  /** Invited: what was done, for whom. */
  onDone(outcome: AdministratorOutcome, person: NewAdministrator): void;
}

/**
 * 'Beheerder uitnodigen': the first name, surname and address of an administrator of the organisation. The server
 * decides what that means (a new account with its mail, an invitation for an account elsewhere, or a member made
 * administrator); a refusal of the address is shown at the field, any other failure in the dialog, which stays open.
 */
export function InviteAdministratorDialog({ organisation, onClose, onDone }: InviteAdministratorDialogProps) {
  const [failure, setFailure] = useState<DialogFailure>();
  const errorRef = useFocusOnFailure(failure);
  const [refusals, setRefusals] = useState(0);
  const form = useForm<z.input<typeof schema>, unknown, NewAdministrator>({
    resolver: zodResolver(schema),
    shouldFocusError: false,
    defaultValues: { first: '', last: '', email: '' },
  });

  async function invite(person: NewAdministrator) {
    setFailure(undefined);
    try {
      onDone(await inviteAdministrator(organisation.id, person), person);
    } catch (error) {
      const field = refusedField(error, FIELDS);
      if (field) {
        form.setError(field, { type: 'server', message: reasonOf(error) ?? EMAIL_RULE });
        setRefusals((n) => n + 1);
        return;
      }
      setFailure(failureOf(error, 'Uitnodigen is niet gelukt. Probeer het later nog eens.'));
    }
  }

  const errors = form.formState.errors;
  const submitting = form.formState.isSubmitting;
  const submit = form.handleSubmit(invite);
  return (
    <FormDialog
      title={'Beheerder uitnodigen'}
      intro={<p className="utrecht-paragraph dvp-programme-dialog-intro">{whatFollows(organisation.label)}</p>}
      summary={
        <ErrorSummary
          messages={messagesOf(errors, ['first', 'last', 'email'])}
          focusOn={`${form.formState.submitCount}-${refusals}`}
        />
      }
      failure={failure && <DialogError ref={errorRef} failure={failure} />}
      submitLabel={'Uitnodigen'}
      submitting={submitting}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField label="Voornaam" autoComplete="off" error={errors.first?.message} {...form.register('first')} />
      <TextField label="Achternaam" autoComplete="off" error={errors.last?.message} {...form.register('last')} />
      <TextField
        label="E-mailadres"
        type="email"
        autoComplete="off"
        error={errors.email?.message}
        {...form.register('email')}
      />
    </FormDialog>
  );
}
