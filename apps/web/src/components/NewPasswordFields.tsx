import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from './TextField';

interface NewPasswordFieldsProps {
  password: UseFormRegisterReturn;
  confirmPassword: UseFormRegisterReturn;
  passwordError?: string;
  confirmError?: string;
}

/** 'Nieuw wachtwoord' and 'Wachtwoord bevestigen' with their show/hide toggles and the 8-character note (spec §2). */
export function NewPasswordFields({ password, confirmPassword, passwordError, confirmError }: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label="Nieuw wachtwoord"
        type="password"
        autoComplete="new-password"
        revealable
        description="Het wachtwoord moet minimaal 8 tekens zijn."
        error={passwordError}
        {...password}
      />
      <TextField label="Wachtwoord bevestigen" type="password" autoComplete="new-password" revealable error={confirmError} {...confirmPassword} />
    </>
  );
}
