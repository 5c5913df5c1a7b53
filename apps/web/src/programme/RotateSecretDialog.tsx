import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ErrorSummary, messagesOf } from '../components/ErrorSummary';
import { FormDialog } from '../components/FormDialog';
import { TextField } from '../components/TextField';
import { DialogError, type DialogFailure, failureOf, useFocusOnFailure } from '../overview/DialogError';
import { type ProgrammeService, type RotatedSecret, rotateClientSecret } from './services-api';

const HOURS_RULE = 'Vul een geheel aantal uren in van 0 tot en met 720.';

const schema = z.object({
  overlapHours: z
    .string()
    .trim()
    .regex(/^\d+$/, HOURS_RULE)
    .transform(Number)
    .refine((hours) => hours <= 720, HOURS_RULE),
});
type Values = z.output<typeof schema>;

interface RotateSecretDialogProps {
  service: ProgrammeService;
  onClose(): void;
  /** Made: the new secret, to be shown once, and until when the previous one works. */
  onRotated(rotated: RotatedSecret): void;
}

/**
 * 'Nieuw geheim' of a confidential client: asks how many hours the current secret keeps working, so that the service
 * can switch without a moment in which neither works, and has the portal make a new one. A wrong number is shown at
 * the field and in the error summary; a refusal of the server in the dialog, which stays open.
 */
export function RotateSecretDialog({ service, onClose, onRotated }: RotateSecretDialogProps) {
  const form = useForm<z.input<typeof schema>, unknown, Values>({
    resolver: zodResolver(schema),
    // The error summary takes the focus instead (GOV.UK pattern).
    shouldFocusError: false,
    defaultValues: { overlapHours: '24' },
  });
  const [failure, setFailure] = useState<DialogFailure>();
  const errorRef = useFocusOnFailure(failure);

  async function rotate(values: Values) {
    setFailure(undefined);
    try {
      onRotated(await rotateClientSecret(service.id, values.overlapHours));
    } catch (error) {
      setFailure(failureOf(error, 'Maken van een nieuw clientgeheim is niet gelukt. Probeer het later nog eens.'));
    }
  }

  const errors = form.formState.errors;
  return (
    <FormDialog
      title="Nieuw clientgeheim"
      intro={
        <p className="utrecht-paragraph dvp-programme-dialog-intro">
          Het portaal maakt een nieuw clientgeheim voor {service.name}. Je ziet het maar één keer. Het huidige geheim
          blijft nog het aantal uren werken dat je hieronder invult, zodat de datavoorziening zonder onderbreking kan
          overstappen. Bij 0 werkt het huidige geheim meteen niet meer.
        </p>
      }
      summary={<ErrorSummary messages={messagesOf(errors, ['overlapHours'])} focusOn={form.formState.submitCount} />}
      failure={failure && <DialogError ref={errorRef} failure={failure} />}
      submitLabel="Nieuw geheim maken"
      submitting={form.formState.isSubmitting}
      onSubmit={form.handleSubmit(rotate)}
      onClose={onClose}
    >
      <TextField
        label="Het huidige geheim blijft nog geldig (uren)"
        inputMode="numeric"
        autoComplete="off"
        error={errors.overlapHours?.message}
        {...form.register('overlapHours')}
      />
    </FormDialog>
  );
}
