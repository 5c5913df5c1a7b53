import { useState } from 'react';
import { reasonOf, UsersApiError } from '../api/users-api';
import { type DialogFailure, failureOf, useFocusOnFailure } from '../overview/DialogError';
import { CODE_RULE, NAME_RULE, REFUSED_FIELDS } from './catalogue-fields';
import { refusedField } from './programme-api';

type Field = 'id' | 'label';

/**
 * How a dialog of an organisation or a data role shows what the server refused: a refusal of the code or the name at
 * its field (the server's Dutch words, or `codeTaken` for a code in use, `takenId`) with the error summary focused
 * again, anything else in the dialog, which stays open.
 */
export function useCatalogueRefusals(
  setError: (field: Field, error: { type: string; message: string }) => void,
  taken: { id: string; message: string },
) {
  const [failure, setFailure] = useState<DialogFailure>();
  const errorRef = useFocusOnFailure(failure);
  // Each refusal of a field moves the focus to the summary again, as a failed submit does.
  const [refusals, setRefusals] = useState(0);
  const fields: Record<string, Field> = { [taken.id]: 'id', ...REFUSED_FIELDS };
  const refuse = (error: unknown, otherwise: string) => {
    const field = refusedField(error, fields);
    if (!field) return setFailure(failureOf(error, otherwise));
    const inUse = error instanceof UsersApiError && error.status === 409;
    // A 400 says in Dutch what is wrong (the same words as the form's own checks).
    const message = inUse ? taken.message : (reasonOf(error) ?? (field === 'id' ? CODE_RULE : NAME_RULE));
    setError(field, { type: 'server', message });
    setRefusals((n) => n + 1);
  };
  return { failure, errorRef, refusals, refuse, clear: () => setFailure(undefined) };
}
