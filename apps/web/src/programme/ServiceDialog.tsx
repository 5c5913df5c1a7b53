import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { UsersApiError } from '../api/users-api';
import { CheckboxField } from '../components/CheckboxField';
import { ErrorSummary, messagesOf } from '../components/ErrorSummary';
import { FormDialog } from '../components/FormDialog';
import { TextAreaField } from '../components/TextAreaField';
import { TextField } from '../components/TextField';
import { DialogError, type DialogFailure, failureOf, useFocusOnFailure } from '../overview/DialogError';
import { AccessChoices } from './AccessChoices';
import { CodeAndName } from './CodeAndName';
import { OidcClientFields } from './OidcClientFields';
import type { OrganisationSummary } from './programme-api';
import {
  formValuesOf,
  refusedServiceField,
  SERVICE_FIELDS,
  type ServiceFormInput,
  type ServiceFormValues,
  serviceFormSchema,
  serviceOf,
} from './service-form';
import { addService, changeService, type ProgrammeService, type SavedService } from './services-api';
import './service-form.css';

const CODE_TAKEN = 'Er bestaat al een datavoorziening met deze code.';
const CODE_HINT = 'Kleine letters, cijfers en koppeltekens, bijvoorbeeld wijkmonitor. De code verandert niet meer.';

interface ServiceDialogProps {
  /** The service to change; without it, a new one is added. */
  service?: ProgrammeService;
  /** The organisations and their data roles that may be given access. */
  organisations: OrganisationSummary[];
  onClose(): void;
  /** Saved: the service as the server now describes it, with a new client secret when one was made. */
  onDone(saved: SavedService): void;
}

/**
 * 'Datavoorziening toevoegen' and 'Datavoorziening wijzigen': code, name, description, address, who may use it,
 * forward-auth on or off, and an OpenID Connect client. A refusal about a field is shown at that field and in the
 * error summary, which takes the focus; any other failure in the dialog, which stays open.
 */
export function ServiceDialog({ service, organisations, onClose, onDone }: ServiceDialogProps) {
  const editing = service !== undefined;
  const form = useForm<ServiceFormInput, unknown, ServiceFormValues>({
    resolver: zodResolver(serviceFormSchema(editing)),
    shouldFocusError: false,
    defaultValues: formValuesOf(service),
  });
  const [failure, setFailure] = useState<DialogFailure>();
  const errorRef = useFocusOnFailure(failure);
  const [refusals, setRefusals] = useState(0);

  function refuse(error: unknown) {
    const answer = error instanceof UsersApiError ? error.body?.error : undefined;
    const field =
      answer?.id === 'service_exists'
        ? 'id'
        : answer?.id === 'invalid_request' && answer.reason
          ? refusedServiceField(answer.reason)
          : undefined;
    if (!field) {
      const action = editing ? 'Wijzigen van de datavoorziening' : 'Toevoegen van de datavoorziening';
      return setFailure(failureOf(error, `${action} is niet gelukt. Probeer het later nog eens.`));
    }
    // The server says it in the form's own words; a taken code is a 409 whose message is about the request.
    const message = answer?.id === 'service_exists' ? CODE_TAKEN : (answer?.message ?? '');
    form.setError(field, { type: 'server', message });
    setRefusals((n) => n + 1);
  }

  async function save(values: ServiceFormValues) {
    setFailure(undefined);
    try {
      const next = serviceOf(values);
      onDone(await (editing ? changeService(next) : addService(next)));
    } catch (error) {
      refuse(error);
    }
  }

  const errors = form.formState.errors as Record<(typeof SERVICE_FIELDS)[number], { message?: string } | undefined>;
  const oidc = form.watch('oidc');
  return (
    <FormDialog
      title={editing ? 'Datavoorziening wijzigen' : 'Datavoorziening toevoegen'}
      summary={
        <ErrorSummary
          messages={messagesOf(errors, SERVICE_FIELDS)}
          focusOn={`${form.formState.submitCount}-${refusals}`}
        />
      }
      failure={failure && <DialogError ref={errorRef} failure={failure} />}
      submitLabel={editing ? 'Opslaan' : 'Toevoegen'}
      submitting={form.formState.isSubmitting}
      onSubmit={form.handleSubmit(save)}
      onClose={onClose}
    >
      <CodeAndName
        fixedCode={service?.id}
        codeHint={CODE_HINT}
        register={form.register}
        errors={form.formState.errors}
      />
      <TextAreaField
        label="Omschrijving (optioneel)"
        rows={3}
        description="Wat mensen met de datavoorziening doen; ze zien dit bij Datavoorzieningen."
        error={errors.description?.message}
        {...form.register('description')}
      />
      <TextField
        label="Adres"
        autoComplete="off"
        spellCheck={false}
        inputMode="url"
        description="Waar mensen de datavoorziening openen, bijvoorbeeld https://wijkmonitor.gemeente.nl/."
        error={errors.url?.message}
        {...form.register('url')}
      />
      <AccessChoices organisations={organisations} register={form.register} error={errors.organisations?.message} />
      <CheckboxField
        label="Forward-auth"
        description={
          'De reverse proxy van de datavoorziening (nginx, Traefik) vraagt het portaal bij elk verzoek of iemand ' +
          'toegang heeft.'
        }
        {...form.register('forwardAuth')}
      />
      <CheckboxField
        label="Inloggen met OpenID Connect"
        description="De datavoorziening laat mensen inloggen via het portaal, als OpenID Connect-client."
        {...form.register('oidc')}
      />
      {oidc && <OidcClientFields register={form.register} errors={form.formState.errors} editing={editing} />}
    </FormDialog>
  );
}
