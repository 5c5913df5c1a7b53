import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from './TextField';

interface NewPasswordFieldsProps {
  password: UseFormRegisterReturn;
  confirmPassword: UseFormRegisterReturn;
  passwordError?: string;
  confirmError?: string;
  /** The account's address, in a hidden field, so that a password manager stores the new password with it. */
  username?: string;
}

/** 'Nieuw wachtwoord' and 'Wachtwoord bevestigen' with their show/hide toggles and the 8-character note. */
export function NewPasswordFields({
  password,
  confirmPassword,
  passwordError,
  confirmError,
  username,
}: NewPasswordFieldsProps) {
  return (
    <>
      {username && <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />}
      <TextField
        label="Nieuw wachtwoord"
        type="password"
        autoComplete="new-password"
        revealable
        description="Het wachtwoord moet minimaal 8 tekens zijn."
        error={passwordError}
        {...password}
      />
      <TextField
        label="Wachtwoord bevestigen"
        type="password"
        autoComplete="new-password"
        revealable
        error={confirmError}
        {...confirmPassword}
      />
    </>
  );
}
