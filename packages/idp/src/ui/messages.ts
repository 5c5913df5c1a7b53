/**
 * Kratos uiText messages (docs/kratos-compatibility.md#messages): id, English text, type and optional context.
 * Builders take the values that Kratos substitutes, so every caller emits the exact wire text.
 */
export interface UiText {
  id: number;
  text: string;
  type: 'info' | 'error' | 'success';
  context?: Record<string, unknown>;
}

const info = (id: number, text: string, context?: Record<string, unknown>): UiText =>
  context ? { id, text, type: 'info', context } : { id, text, type: 'info' };
const error = (id: number, text: string, context?: Record<string, unknown>): UiText =>
  context ? { id, text, type: 'error', context } : { id, text, type: 'error' };
const success = (id: number, text: string, context?: Record<string, unknown>): UiText =>
  context ? { id, text, type: 'success', context } : { id, text, type: 'success' };

const generic = (reason: string) => error(4000001, reason, { reason });

/** Go's JSON time (RFC 3339, no fraction when whole seconds) and its Unix seconds, as Kratos gives `added_at`. */
const added = (name: string, addedAt: Date) => ({
  display_name: name,
  added_at: addedAt.toISOString().replace('.000Z', 'Z'),
  added_at_unix: Math.floor(addedAt.getTime() / 1000),
});

const minutes = (ms: number) => (ms / 60_000).toFixed(2);

export const messages = {
  // login
  signIn: () => info(1010001, 'Sign in'),
  confirmIdentity: () => info(1010003, 'Please confirm this action by verifying that it is you.'),
  secondFactorChallenge: () => info(1010004, 'Please complete the second authentication challenge.'),
  authenticationCode: () => info(1010006, 'Authentication code'),
  backupRecoveryCode: () => info(1010007, 'Backup recovery code'),
  useAuthenticator: () => info(1010009, 'Use Authenticator'),
  useBackupRecoveryCode: () => info(1010010, 'Use backup recovery code'),
  signInWithHardwareKey: () => info(1010008, 'Sign in with a hardware key'),
  signInWithPasskey: () => info(1010021, 'Sign in with passkey'),
  signInWithPassword: () => info(1010022, 'Sign in with password'),
  // registration
  signUp: () => info(1040001, 'Sign up'),
  signUpWithPasskey: () => info(1040007, 'Sign up with passkey'),
  back: () => info(1040008, 'Back'),
  chooseCredential: () => info(1040009, 'Please choose a credential to authenticate yourself with.'),
  // settings
  changesSaved: () => success(1050001, 'Your changes have been saved!'),
  unlinkTotp: () => info(1050004, 'Unlink TOTP Authenticator App'),
  totpQrCode: () => info(1050005, 'Authenticator app QR code'),
  totpSecret: (secret: string) => info(1050006, secret, { secret }),
  revealLookupSecrets: () => info(1050007, 'Reveal backup recovery codes'),
  regenerateLookupSecrets: () => info(1050008, 'Generate new backup recovery codes'),
  lookupSecret: (secret: string) => info(1050009, secret, { secret }),
  lookupSecretsLabel: () => info(1050010, 'These are your back up recovery codes. Please keep them in a safe place!'),
  confirmLookupSecrets: () => info(1050011, 'Confirm backup recovery codes'),
  lookupSecretUsed: (usedAt: Date) =>
    info(1050014, `Secret was used at ${goTime(usedAt)}`, {
      used_at: usedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      used_at_unix: Math.floor(usedAt.getTime() / 1000),
    }),
  lookupSecretList: (secrets: UiText[]) =>
    info(1050015, secrets.map((s) => (s.id === 1050014 ? 'used' : s.text)).join(', '), { secrets }),
  disableMethod: () => info(1050016, 'Disable this method'),
  totpSecretLabel: () =>
    info(1050017, 'This is your authenticator app secret. Use it if you can not scan the QR code.'),
  addSecurityKey: () => info(1050012, 'Add security key'),
  securityKeyName: () => info(1050013, 'Name of the security key'),
  removeSecurityKey: (name: string, addedAt: Date) =>
    info(1050018, `Remove security key "${name}"`, added(name, addedAt)),
  addPasskey: () => info(1050019, 'Add passkey'),
  removePasskey: (name: string, addedAt: Date) => info(1050020, `Remove passkey "${name}"`, added(name, addedAt)),
  // recovery
  recoverySuccessful: (privilegedUntil: Date, now: Date) =>
    success(
      1060001,
      'You successfully recovered your account. Please change your password or set up an alternative login method ' +
        `(e.g. social sign in) within the next ${minutes(privilegedUntil.getTime() - now.getTime())} minutes.`,
      {
        privileged_session_expires_at: privilegedUntil.toISOString(),
        privileged_session_expires_at_unix: Math.floor(privilegedUntil.getTime() / 1000),
      },
    ),
  recoveryLinkSent: () =>
    info(
      1060002,
      'An email containing a recovery link has been sent to the email address you provided. ' +
        'If you have not received an email, check the spelling of the address and make sure to use the address ' +
        'you registered with.',
    ),
  recoveryCodeSent: () =>
    info(
      1060003,
      'An email containing a recovery code has been sent to the email address you provided. ' +
        'If you have not received an email, check the spelling of the address and make sure to use the address ' +
        'you registered with.',
    ),
  // labels
  password: () => info(1070001, 'Password'),
  schemaTitle: (title: string, name: string) => info(1070002, title, { title, name }),
  save: () => info(1070003, 'Save'),
  id: () => info(1070004, 'ID'),
  verifyCode: () => info(1070006, 'Verify code'),
  email: () => info(1070007, 'Email'),
  resendCode: () => info(1070008, 'Resend code'),
  continue: () => info(1070009, 'Continue'),
  recoveryCode: () => info(1070010, 'Recovery code'),
  verificationCode: () => info(1070011, 'Verification code'),
  // verification
  verificationSuccessful: () => success(1080002, 'You successfully verified your email address.'),
  verificationCodeSent: () =>
    info(
      1080003,
      'An email containing a verification code has been sent to the email address you provided. ' +
        'If you have not received an email, check the spelling of the address and make sure to use the address ' +
        'you registered with.',
    ),
  // validation errors
  generic: (reason: string) => generic(reason),
  missingProperty: (property: string) => error(4000002, `Property ${property} is missing.`, { property }),
  tooShort: (minLength: number, actual: number) =>
    error(4000003, `length must be >= ${minLength}, but got ${actual}`, {
      min_length: minLength,
      actual_length: actual,
    }),
  patternMismatch: (pattern: string) =>
    error(4000004, `does not match pattern ${JSON.stringify(pattern)}`, { pattern }),
  passwordPolicy: (reason: string) => error(4000005, `The password can not be used because ${reason}.`, { reason }),
  invalidCredentials: () =>
    error(
      4000006,
      'The provided credentials are invalid, check for spelling mistakes in your password or username, ' +
        'email address, or phone number.',
    ),
  duplicateIdentifier: () =>
    error(4000007, 'An account with the same identifier (email, phone, username, ...) exists already.'),
  invalidTotp: () => error(4000008, 'The provided authentication code is invalid, please try again.'),
  noIdentifiers: () =>
    error(
      4000009,
      'Could not find any login identifiers. Did you forget to set them? ' +
        'This could also be caused by a server misconfiguration.',
    ),
  noTotp: () => error(4000011, 'You have no TOTP device set up.'),
  lookupSecretAlreadyUsed: () => error(4000012, 'This backup recovery code has already been used.'),
  noLookupSecrets: () => error(4000014, 'You have no backup recovery codes set up.'),
  invalidLookupSecret: () => error(4000016, 'The backup recovery code is not valid.'),
  tooLong: (maxLength: number, actual: number) =>
    error(4000017, `length must be <= ${maxLength}, but got ${actual}`, {
      max_length: maxLength,
      actual_length: actual,
    }),
  wrongType: (expected: string, actual: string) =>
    error(4000026, `expected ${expected}, but got ${actual}`, { expected_type: expected, actual_type: actual }),
  passwordTooSimilar: () => error(4000031, 'The password can not be used because it is too similar to the identifier.'),
  passwordTooShort: (minLength: number, actual: number) =>
    error(4000032, `The password must be at least ${minLength} characters long, but got ${actual}.`, {
      min_length: minLength,
      actual_length: actual,
    }),
  passwordTooLongForHash: (maxLength: number, actual: number) =>
    error(4000033, `The password must be at most ${maxLength} characters long, but got ${actual}.`, {
      max_length: maxLength,
      actual_length: actual,
    }),
  passwordBreached: (breaches: number) =>
    error(4000034, 'The password has been found in data breaches and must no longer be used.', { breaches }),
  samePassword: () => error(4000039, 'The new password must be different from the old password.'),
  invalidEmail: (value: string) => error(4000040, 'Enter a valid email address', { value }),
  noWebAuthnDevice: () => error(4000013, 'You have no WebAuthn device set up.'),
  noWebAuthnUser: () => error(4000015, 'This account does not exist or has no security key set up.'),
  invalidWebAuthn: () => error(4000043, 'The provided web authn login is invalid, please try again.'),
  keyAlreadyRegistered: () => generic('this security key or passkey is already registered with your account'),
  lastCredential: () => generic('unable to remove this security key because it would lock you out of your account'),
  // flow errors
  loginFlowExpired: (expiredAt: Date, now: Date) => expired(4010001, 'login', expiredAt, now),
  noLoginStrategy: () =>
    error(4010002, 'Could not find a strategy to log you in with. Did you fill out the form correctly?'),
  noRegistrationStrategy: () =>
    error(4010003, 'Could not find a strategy to sign you up with. Did you fill out the form correctly?'),
  noSettingsStrategy: () =>
    error(4010004, 'Could not find a strategy to update your settings. Did you fill out the form correctly?'),
  noRecoveryStrategy: () =>
    error(4010005, 'Could not find a strategy to recover your account with. Did you fill out the form correctly?'),
  noVerificationStrategy: () =>
    error(4010006, 'Could not find a strategy to verify your account with. Did you fill out the form correctly?'),
  loginAlreadyCompleted: () => error(4010007, 'The request was already completed successfully and can not be retried.'),
  accountDisabled: () => error(4010011, 'This account has been disabled. Please contact support for assistance.'),
  registrationFlowExpired: (expiredAt: Date, now: Date) => expired(4040001, 'registration', expiredAt, now),
  registrationAlreadyCompleted: () =>
    error(4040002, 'The request was already completed successfully and can not be retried.'),
  settingsFlowExpired: (expiredAt: Date, now: Date) => expired(4050001, 'settings', expiredAt, now),
  recoveryAlreadyCompleted: () =>
    error(4060001, 'The request was already completed successfully and can not be retried.'),
  recoveryFailureState: () => error(4060002, 'The recovery flow reached a failure state and must be retried.'),
  invalidRecoveryToken: () =>
    error(4060004, 'The recovery token is invalid or has already been used. Please retry the flow.'),
  recoveryFlowExpired: (expiredAt: Date, now: Date) => expired(4060005, 'recovery', expiredAt, now),
  invalidRecoveryCode: () => error(4060006, 'The recovery code is invalid or has already been used. Please try again.'),
  verificationAlreadyCompleted: () =>
    error(4070002, 'The request was already completed successfully and can not be retried.'),
  verificationFailureState: () => error(4070003, 'The verification flow reached a failure state and must be retried.'),
  verificationFlowExpired: (expiredAt: Date, now: Date) => expired(4070005, 'verification', expiredAt, now),
  invalidVerificationCode: () =>
    error(4070006, 'The verification code is invalid or has already been used. Please try again.'),
  submittedTooOften: () =>
    error(4000001, 'The request was submitted too often. Please request another code.', {
      reason: 'The request was submitted too often. Please request another code.',
    }),
};

function expired(id: number, flow: string, expiredAt: Date, now: Date): UiText {
  const ago = Math.max(0, now.getTime() - expiredAt.getTime());
  return error(id, `The ${flow} flow expired ${minutes(ago)} minutes ago, please try again.`, {
    expired_at: expiredAt.toISOString(),
    expired_at_unix: Math.floor(expiredAt.getTime() / 1000),
  });
}

/** Go's default time.Time format, as Kratos prints `used_at` (`2021-08-17 11:32:39 +0000 UTC`). */
function goTime(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} +0000 UTC`;
}
