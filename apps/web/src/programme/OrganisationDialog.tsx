import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { reasonOf, UsersApiError } from '../api/users-api';
import { ErrorSummary, messagesOf } from '../components/ErrorSummary';
import { FormDialog } from '../components/FormDialog';
import { TextField } from '../components/TextField';
import { DialogError, type DialogFailure, failureOf, useFocusOnFailure } from '../overview/DialogError';
import { addOrganisation, changeOrganisation, type OrganisationSummary, refusedField } from './programme-api';

// The server's own words (packages/users-api/src/api-error.ts): the form checks first only to save a round trip.
const CODE_RULE = 'Gebruik voor de code alleen kleine letters, cijfers en koppeltekens, hoogstens 64 tekens.';
const NAME_RULE = 'Vul een naam in van hoogstens 200 tekens, zonder onzichtbare tekens.';
const CODE_TAKEN = 'Er bestaat al een organisatie met deze code.';
const CODE_HINT =
  'Kleine letters, cijfers en koppeltekens, bijvoorbeeld gemeente-nieuwstad. De code verandert niet meer.';

const schemaFor = (editing: boolean) =>
  z.object({
    id: editing
      ? z.string()
      : z
          .string()
          .trim()
          .max(64, CODE_RULE)
          .regex(/^[a-z0-9][a-z0-9-]*$/, CODE_RULE),
    label: z.string().trim().min(1, NAME_RULE).max(200, NAME_RULE),
    requiresAal2: z.boolean(),
  });
type Values = z.output<ReturnType<typeof schemaFor>>;
type Field = 'id' | 'label';

/** The refusals of the Users API that are about one field, by their error id or English reason. */
const FIELDS: Record<string, Field> = {
  organisation_exists: 'id',
  'The organisation id is not valid.': 'id',
  'The organisation name is not valid.': 'label',
};

interface OrganisationDialogProps {
  /** The organisation to change; without it, a new one is added. */
  organisation?: OrganisationSummary;
  onClose(): void;
  /** Saved: the organisation as the server now describes it. */
  onDone(saved: OrganisationSummary): void;
}

/**
 * 'Organisatie toevoegen' and 'Organisatie wijzigen': the code (fixed once added, so shown read-only when changing),
 * the name and whether a second factor is required. A refusal about a field is shown at that field and in the error
 * summary, which takes the focus; any other failure in the dialog, which stays open. Only what changed is sent.
 */
export function OrganisationDialog({ organisation, onClose, onDone }: OrganisationDialogProps) {
  const editing = organisation !== undefined;
  const [failure, setFailure] = useState<DialogFailure>();
  const errorRef = useFocusOnFailure(failure);
  // Each refusal of a field moves the focus to the summary again, as a failed submit does.
  const [refusals, setRefusals] = useState(0);
  const form = useForm<z.input<ReturnType<typeof schemaFor>>, unknown, Values>({
    resolver: zodResolver(schemaFor(editing)),
    // The error summary takes the focus instead (GOV.UK pattern).
    shouldFocusError: false,
    defaultValues: {
      id: organisation?.id ?? '',
      label: organisation?.label ?? '',
      requiresAal2: organisation?.requiresAal2 ?? true,
    },
  });

  async function save(values: Values) {
    setFailure(undefined);
    try {
      if (!organisation) return onDone(await addOrganisation(values));
      const changes = {
        ...(values.label !== organisation.label ? { label: values.label } : {}),
        ...(values.requiresAal2 !== organisation.requiresAal2 ? { requiresAal2: values.requiresAal2 } : {}),
      };
      // Nothing changed: nothing to send.
      if (Object.keys(changes).length === 0) return onClose();
      onDone(await changeOrganisation(organisation.id, changes));
    } catch (error) {
      const field = refusedField(error, FIELDS);
      if (field) {
        const taken = error instanceof UsersApiError && error.status === 409;
        // A 400 says in Dutch what is wrong (the same words as the checks above).
        const message = taken ? CODE_TAKEN : (reasonOf(error) ?? (field === 'id' ? CODE_RULE : NAME_RULE));
        form.setError(field, { type: 'server', message });
        setRefusals((n) => n + 1);
        return;
      }
      setFailure(
        failureOf(
          error,
          editing
            ? 'Wijzigen van de organisatie is niet gelukt. Probeer het later nog eens.'
            : 'Toevoegen van de organisatie is niet gelukt. Probeer het later nog eens.',
        ),
      );
    }
  }

  const errors = form.formState.errors;
  const submitting = form.formState.isSubmitting;
  const submit = form.handleSubmit(save);
  const title = editing ? 'Organisatie wijzigen' : 'Organisatie toevoegen';
  return (
    <FormDialog
      title={title}
      summary={
        <ErrorSummary
          messages={messagesOf(errors, ['id', 'label'])}
          focusOn={`${form.formState.submitCount}-${refusals}`}
        />
      }
      failure={failure && <DialogError ref={errorRef} failure={failure} />}
      submitLabel={editing ? 'Opslaan' : 'Toevoegen'}
      submitting={submitting}
      onSubmit={submit}
      onClose={onClose}
    >
      {editing ? (
        // Read-only, not disabled: it is read out and can be selected, but it does not change.
        <TextField label="Code" description="De code verandert niet meer." readOnly value={organisation.id} />
      ) : (
        <TextField
          label="Code"
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="none"
          description={CODE_HINT}
          error={errors.id?.message}
          {...form.register('id')}
        />
      )}
      <TextField label="Naam" autoComplete="off" error={errors.label?.message} {...form.register('label')} />
      <div className="utrecht-form-field utrecht-form-field--checkbox">
        <input
          id="organisatie-tweede-factor"
          type="checkbox"
          className="utrecht-checkbox utrecht-checkbox--html-input"
          aria-describedby="organisatie-tweede-factor-uitleg"
          {...form.register('requiresAal2')}
        />
        <label className="utrecht-form-label utrecht-form-label--checkbox" htmlFor="organisatie-tweede-factor">
          Tweede factor verplicht
        </label>
        <p
          id="organisatie-tweede-factor-uitleg"
          className="utrecht-form-field-description dvp-field-message dvp-programme-checkbox__description"
        >
          Leden van de organisatie loggen dan altijd in met een tweede factor.
        </p>
      </div>
    </FormDialog>
  );
}
