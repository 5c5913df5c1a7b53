import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { reasonOf, UsersApiError } from '../api/users-api';
import { ErrorSummary, messagesOf } from '../components/ErrorSummary';
import { FormDialog } from '../components/FormDialog';
import { TextField } from '../components/TextField';
import { DialogError, type DialogFailure, failureOf, useFocusOnFailure } from '../overview/DialogError';
import { grantProgrammeRole, type ProgrammeAdministrator } from './administrators-api';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EMAIL_RULE = 'Het opgegeven e-mailadres wordt niet herkent als valide e-mailadres.';
const schema = z.object({ email: z.string().trim().toLowerCase().regex(EMAIL, EMAIL_RULE) });

/** The refusals about the address: no such account, a holder already, or not an address. */
const ABOUT_ADDRESS = ['identity_not_found', 'programme_admin_exists', 'invalid_request'];

interface GrantProgrammeRoleDialogProps {
  onClose(): void;
  onDone(granted: ProgrammeAdministrator): void;
}

/**
 * 'Programmabeheerder toevoegen': the address of someone's account. A refusal about it (no such account, already a
 * programme administrator) is shown at the field in the server's words; any other failure in the dialog.
 */
export function GrantProgrammeRoleDialog({ onClose, onDone }: GrantProgrammeRoleDialogProps) {
  const [failure, setFailure] = useState<DialogFailure>();
  const errorRef = useFocusOnFailure(failure);
  const [refusals, setRefusals] = useState(0);
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    shouldFocusError: false,
    defaultValues: { email: '' },
  });

  async function save({ email }: z.output<typeof schema>) {
    setFailure(undefined);
    try {
      onDone(await grantProgrammeRole(email));
    } catch (error) {
      const id = error instanceof UsersApiError ? error.body?.error?.id : undefined;
      if (!id || !ABOUT_ADDRESS.includes(id))
        return setFailure(failureOf(error, 'Toevoegen is niet gelukt. Probeer het later nog eens.'));
      form.setError('email', { type: 'server', message: reasonOf(error) ?? EMAIL_RULE });
      setRefusals((n) => n + 1);
    }
  }

  return (
    <FormDialog
      title="Programmabeheerder toevoegen"
      intro={
        <p className="utrecht-paragraph dvp-programme-dialog-intro">
          Een programmabeheerder beheert de organisaties, datarollen en datavoorzieningen van het programma, en logt
          altijd in met een tweede factor. De persoon heeft al een account nodig.
        </p>
      }
      summary={
        <ErrorSummary
          messages={messagesOf(form.formState.errors, ['email'])}
          focusOn={`${form.formState.submitCount}-${refusals}`}
        />
      }
      failure={failure && <DialogError ref={errorRef} failure={failure} />}
      submitLabel="Toevoegen"
      submitting={form.formState.isSubmitting}
      onSubmit={form.handleSubmit(save)}
      onClose={onClose}
    >
      <TextField
        label="E-mailadres"
        type="email"
        autoComplete="off"
        error={form.formState.errors.email?.message}
        {...form.register('email')}
      />
    </FormDialog>
  );
}
