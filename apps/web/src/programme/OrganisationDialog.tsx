import { useCatalogueRefusals } from './use-catalogue-refusals';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { CheckboxField } from '../components/CheckboxField';
import { ErrorSummary, messagesOf } from '../components/ErrorSummary';
import { FormDialog } from '../components/FormDialog';
import { CodeAndName } from './CodeAndName';
import { DialogError } from '../overview/DialogError';
import { codeSchema, nameSchema } from './catalogue-fields';
import { addOrganisation, changeOrganisation, type OrganisationSummary } from './programme-api';

const CODE_TAKEN = 'Er bestaat al een organisatie met deze code.';
const CODE_HINT =
  'Kleine letters, cijfers en koppeltekens, bijvoorbeeld gemeente-nieuwstad. De code verandert niet meer.';

const schemaFor = (editing: boolean) =>
  z.object({
    id: editing ? z.string() : codeSchema,
    label: nameSchema,
    requiresAal2: z.boolean(),
  });
type Values = z.output<ReturnType<typeof schemaFor>>;

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
  const { failure, errorRef, refusals, refuse, clear } = useCatalogueRefusals(form.setError, {
    id: 'organisation_exists',
    message: CODE_TAKEN,
  });

  async function save(values: Values) {
    clear();
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
      const action = editing ? 'Wijzigen van de organisatie' : 'Toevoegen van de organisatie';
      return refuse(error, `${action} is niet gelukt. Probeer het later nog eens.`);
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
      <CodeAndName
        fixedCode={editing ? organisation.id : undefined}
        codeHint={CODE_HINT}
        register={form.register}
        errors={errors}
      />
      <CheckboxField
        id="organisatie-tweede-factor"
        label="Tweede factor verplicht"
        description="Leden van de organisatie loggen dan altijd in met een tweede factor."
        {...form.register('requiresAal2')}
      />
    </FormDialog>
  );
}
