import { useCatalogueRefusals } from './use-catalogue-refusals';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { ErrorSummary, messagesOf } from '../components/ErrorSummary';
import { FormDialog } from '../components/FormDialog';
import { CodeAndName } from './CodeAndName';
import { DialogError } from '../overview/DialogError';
import { codeSchema, nameSchema } from './catalogue-fields';
import { addDataRole, type DataRole, type OrganisationSummary, renameDataRole } from './programme-api';

const CODE_TAKEN = 'Deze organisatie heeft al een datarol met deze code.';
const CODE_HINT = 'Kleine letters, cijfers en koppeltekens, bijvoorbeeld sociaal-domein. De code verandert niet meer.';

const schemaFor = (renaming: boolean) => z.object({ id: renaming ? z.string() : codeSchema, label: nameSchema });
type Values = z.output<ReturnType<typeof schemaFor>>;

interface DataRoleDialogProps {
  organisation: OrganisationSummary;
  /** The data role to rename; without it, a new one is added. */
  role?: DataRole;
  onClose(): void;
  /** Saved: the data role's name as it now is. */
  onDone(label: string): Promise<void>;
}

/**
 * 'Datarol toevoegen' and 'Datarol hernoemen', for one organisation: the code (fixed once added, so shown read-only
 * when renaming) and the name, with the same rules as an organisation's. A refusal about a field is shown at that
 * field and in the error summary, which takes the focus; any other failure in the dialog, which stays open.
 */
export function DataRoleDialog({ organisation, role, onClose, onDone }: DataRoleDialogProps) {
  const renaming = role !== undefined;
  const form = useForm<z.input<ReturnType<typeof schemaFor>>, unknown, Values>({
    resolver: zodResolver(schemaFor(renaming)),
    // The error summary takes the focus instead (GOV.UK pattern).
    shouldFocusError: false,
    defaultValues: { id: role?.id ?? '', label: role?.label ?? '' },
  });
  const { failure, errorRef, refusals, refuse, clear } = useCatalogueRefusals(form.setError, {
    id: 'data_role_exists',
    message: CODE_TAKEN,
  });

  async function save(values: Values) {
    clear();
    try {
      if (!role) await addDataRole(organisation.id, values);
      // The same name: nothing to send.
      else if (values.label === role.label) return onClose();
      else await renameDataRole(organisation.id, role.id, values.label);
    } catch (error) {
      const action = renaming ? 'Hernoemen van de datarol' : 'Toevoegen van de datarol';
      return refuse(error, `${action} is niet gelukt. Probeer het later nog eens.`);
    }
    await onDone(values.label);
  }

  const errors = form.formState.errors;
  return (
    <FormDialog
      title={renaming ? 'Datarol hernoemen' : 'Datarol toevoegen'}
      intro={
        <p className="utrecht-paragraph dvp-programme-dialog-intro">
          {renaming
            ? `Een datarol van ${organisation.label}. Wie hem heeft, houdt hem; alleen de naam verandert.`
            : `Een nieuwe datarol van ${organisation.label}. De beheerder van de organisatie geeft hem daarna aan ` +
              'de mensen die hem nodig hebben.'}
        </p>
      }
      summary={
        <ErrorSummary
          messages={messagesOf(errors, ['id', 'label'])}
          focusOn={`${form.formState.submitCount}-${refusals}`}
        />
      }
      failure={failure && <DialogError ref={errorRef} failure={failure} />}
      submitLabel={renaming ? 'Opslaan' : 'Toevoegen'}
      submitting={form.formState.isSubmitting}
      onSubmit={form.handleSubmit(save)}
      onClose={onClose}
    >
      <CodeAndName
        fixedCode={renaming ? role.id : undefined}
        codeHint={CODE_HINT}
        register={form.register}
        errors={errors}
      />
    </FormDialog>
  );
}
