import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '../components/TextField';

interface CodeAndNameProps {
  /** The code once it exists: shown, never changed. Absent for something new. */
  fixedCode?: string;
  /** What a new code looks like, with an example. */
  codeHint: string;
  register: (name: 'id' | 'label') => UseFormRegisterReturn;
  errors: { id?: { message?: string }; label?: { message?: string } };
}

/** The 'Code' and 'Naam' fields of an organisation or a data role in 'Programmabeheer'. */
export function CodeAndName({ fixedCode, codeHint, register, errors }: CodeAndNameProps) {
  return (
    <>
      {fixedCode !== undefined ? (
        // Read-only, not disabled: it is read out and can be selected, but it does not change.
        <TextField label="Code" description="De code verandert niet meer." readOnly value={fixedCode} />
      ) : (
        <TextField
          label="Code"
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="none"
          description={codeHint}
          error={errors.id?.message}
          {...register('id')}
        />
      )}
      <TextField label="Naam" autoComplete="off" error={errors.label?.message} {...register('label')} />
    </>
  );
}
