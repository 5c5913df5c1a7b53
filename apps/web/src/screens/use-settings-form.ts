import { useState } from 'react';
import { type DefaultValues, type FieldValues, type Path, type PathValue, useForm } from 'react-hook-form';
import type { SettingsFlow } from '@ory/client-fetch';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { messagesOf } from '../components/ErrorSummary';
import type { FlowValues } from '../flows/ui-types';
import { nodeErrors, type SubmitSettings, useSettingsSave } from './settings-save';

interface SettingsFormOptions<Input extends FieldValues, Values extends FieldValues> {
  schema: z.ZodType<Values, Input>;
  defaultValues: DefaultValues<Input>;
  /** The fields in the order of the form, for the error summary. */
  summaryFields: readonly string[];
  submit: SubmitSettings;
  /** After a save: the screen refreshes what it knows of the person. */
  onSaved(): Promise<unknown>;
}

/**
 * A settings section's form: its fields checked by `schema`, the error summary's messages, and `save`, which sends one
 * step and, once it passed, empties the fields, lets the screen refresh and says so. What goes wrong is kept as the
 * section's outcome (settings-save.tsx). The spread `section` is what `SettingsFormSection` shows of it.
 */
export function useSettingsForm<Input extends FieldValues, Values extends FieldValues>(
  options: SettingsFormOptions<Input, Values>,
) {
  const { outcome, setOutcome, send } = useSettingsSave(options.submit);
  const form = useForm<Input, unknown, Values>({
    resolver: zodResolver(options.schema),
    // The error summary takes the focus instead (GOV.UK pattern).
    shouldFocusError: false,
    defaultValues: options.defaultValues,
  });
  const { errors, submitCount, isSubmitting } = form.formState;
  // The fields as last sent: the provider judged those values, not the ones typed since.
  const [sent, setSent] = useState<Input>();

  /** `secrets`: the password or the address changed, so the person is offered to end their other sessions. */
  async function save(body: FlowValues, failure: string, secrets: boolean) {
    setOutcome(undefined);
    setSent(form.getValues());
    if (!(await send(body, failure))) return;
    form.reset();
    await options.onSaved();
    setOutcome({ kind: 'ok', text: 'Je gegevens zijn aangepast.', secrets });
  }

  /** The provider's refusal on `node` of `flow`, while `field` still holds the value it refused: not after an edit. */
  const refusal = <Field extends Path<Input>>(field: Field, flow: SettingsFlow | undefined, node: string) =>
    sent !== undefined && form.watch(field) === (sent[field] as PathValue<Input, Field>)
      ? nodeErrors(flow, node)
      : undefined;

  const section = {
    errors: messagesOf(errors as Record<string, { message?: string }>, options.summaryFields),
    submitCount,
    submitting: isSubmitting,
    outcome,
  };
  return { form, errors, save, section, refusal };
}
