import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { usersApi, UsersApiError, type CurrentUser, type PortalUser } from '../api/users-api';
import { ErrorSummary, messagesOf } from '../components/ErrorSummary';
import { FormDialog } from '../components/FormDialog';
import { TextField } from '../components/TextField';
import { DialogError, failureOf, useFocusOnFailure, type DialogFailure } from './DialogError';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the existence check says of an address that has an account; when editing, another person's is refused. */
const HAS_ACCOUNT = 'Deze gebruiker heeft al een account.';

/**
 * The form's rules; an address that has an account already keeps its own names, so they are not asked. When
 * editing, an address the existence check found on another account is refused, as the server refuses it.
 */
const schemaFor = (mode: 'create' | 'edit', existingAccount = false, addressTaken = false) => {
  const nameMessage =
    mode === 'create' ? 'Vul de naam in van de aan te maken gebruiker.' : 'De gebruiker moet een naam hebben.';
  const name = existingAccount ? z.string() : z.string().trim().min(1, nameMessage).max(50, 'Naam is te lang.');
  return z.object({
    firstName: name,
    surname: name,
    email: z
      .string()
      .trim()
      .toLowerCase()
      .regex(EMAIL, 'Het opgegeven e-mailadres wordt niet herkent als valide e-mailadres.')
      .refine(() => !addressTaken, HAS_ACCOUNT),
    subdivisions: z.array(z.string()),
    isAdmin: z.boolean(),
  });
};
type Values = z.output<ReturnType<typeof schemaFor>>;

interface UserFormDialogProps {
  me: CurrentUser;
  user?: PortalUser;
  onClose(): void;
  onDone(message: string): void;
}

/** Said under the names, which an account that exists already keeps: they are shown, but cannot be changed here. */
const KEEPS_NAME = 'Een bestaand account houdt zijn eigen naam.';

/** The answer to a new user with the address of someone who is not a member yet: an invitation, to be accepted. */
const isInvitation = (answer: unknown): answer is { invitation: { id: string } } =>
  typeof answer === 'object' && answer !== null && 'invitation' in answer;

/**
 * New user and edit user: the e-mail check on blur (when editing, of an address other than the person's own, which
 * may not be another account's), data roles, the administrator option. A guest
 * (an account another organisation keeps, docs/organisations.md) keeps its names and address: only this
 * organisation's data roles and administrator flag change. A failure to save is shown in the dialog, which stays
 * open, and takes the focus.
 */
export function UserFormDialog({ me, user, onClose, onDone }: UserFormDialogProps) {
  const mode = user ? 'edit' : 'create';
  const guest = user?.home === false;
  const org = me.activeOrg!;
  const [exists, setExistsState] = useState<boolean>();
  const [checkFailed, setCheckFailed] = useState(false);
  const [failure, setFailure] = useState<DialogFailure>();
  const errorRef = useFocusOnFailure(failure);
  // The resolver reads the latest answer of the existence check, not the one of the render that created the form.
  const existsRef = useRef<boolean>(undefined);
  const setExists = (value: boolean | undefined) => {
    existsRef.current = value;
    setExistsState(value);
  };
  // Editing: whether the address typed, not the person's own, has an account (someone else's), as last checked.
  const takenRef = useRef(false);
  const ownAddress = (value: string) => value.trim().toLowerCase() === user?.traits.email.toLowerCase();
  const roles = (user?.permissions ?? []).filter((p) => p.namespace === 'subdivisions').map((p) => p.roleId ?? '');
  const form = useForm<z.input<ReturnType<typeof schemaFor>>, unknown, Values>({
    resolver: (values, context, options) =>
      zodResolver(schemaFor(mode, existsRef.current === true || guest, takenRef.current && !ownAddress(values.email)))(
        values,
        context,
        options,
      ),
    // The error summary takes the focus instead (GOV.UK pattern).
    shouldFocusError: false,
    defaultValues: {
      firstName: user?.traits.name.first ?? '',
      surname: user?.traits.name.last ?? '',
      email: user?.traits.email ?? '',
      subdivisions: roles,
      isAdmin: user?.userType.id === 'administrator',
    },
  });
  const editingSelf = user?.id === me.identity.id;

  async function checkEmail(value: string) {
    setCheckFailed(false);
    if (mode === 'edit') return checkNewAddress(value);
    if (!EMAIL.test(value.trim())) return setExists(undefined);
    try {
      await usersApi(`/users?email=${encodeURIComponent(value.trim().toLowerCase())}`, { method: 'HEAD' });
      setExists(true);
      // The names can no longer be changed, so what was said about them no longer applies.
      form.clearErrors(['firstName', 'surname']);
    } catch (error) {
      const absent = error instanceof UsersApiError && error.status === 404;
      setExists(absent ? false : undefined);
      setCheckFailed(!absent);
    }
  }

  /** Editing: a new address is checked as the new-user form checks one; another account's is an error at once. */
  async function checkNewAddress(value: string) {
    takenRef.current = false;
    setExists(undefined);
    if (EMAIL.test(value.trim()) && !ownAddress(value)) {
      try {
        await usersApi(`/users?email=${encodeURIComponent(value.trim().toLowerCase())}`, { method: 'HEAD' });
        takenRef.current = true;
      } catch (error) {
        const absent = error instanceof UsersApiError && error.status === 404;
        setExists(absent ? false : undefined);
        setCheckFailed(!absent);
      }
    }
    if (takenRef.current) form.setError('email', { type: 'taken', message: HAS_ACCOUNT });
    // An error said before, by this check or at saving, is decided again with what the check found now.
    else if (form.getFieldState('email').error) await form.trigger('email');
  }

  const permissionsOf = (values: Values) => [
    ...values.subdivisions.map((roleId) => ({
      namespace: 'subdivisions',
      object: `${roleId}_${org.id}`,
      relation: 'issuer',
    })),
    ...(values.isAdmin ? [{ namespace: 'organizations', object: org.id, relation: 'admin' }] : []),
  ];

  async function save(values: Values) {
    setFailure(undefined);
    const onError = (error: unknown, fallback: string, support?: 'address') =>
      setFailure(failureOf(error, fallback, { support }));
    try {
      if (mode === 'create') {
        const existing = existsRef.current === true;
        const traits = existing
          ? { email: values.email }
          : { email: values.email, name: { first: values.firstName, last: values.surname } };
        let answer: unknown;
        try {
          answer = await usersApi('/users', { method: 'POST', body: { traits, permissions: permissionsOf(values) } });
        } catch (error) {
          if (!existing) throw error;
          return onError(error, 'Kon momenteel de gebruiker niet updaten. Probeer het later nog eens.');
        }
        // 202: the address belongs to someone who is not a member yet, who has to consent first.
        if (isInvitation(answer))
          return onDone(`Uitnodiging verstuurd. ${values.email} moet de uitnodiging eerst accepteren.`);
        return onDone(existing ? 'Bestaande gebruiker aangepast' : 'Nieuwe gebruiker aangemaakt');
      }
      const target = user!;
      // Only a change of the person is sent: a guest's never is (its home organisation alone changes it).
      const traits = { email: values.email, name: { first: values.firstName, last: values.surname } };
      const changed =
        !guest &&
        (traits.email !== target.traits.email ||
          traits.name.first !== target.traits.name.first ||
          traits.name.last !== target.traits.name.last);
      if (changed) {
        try {
          await usersApi(`/users/${target.id}`, {
            method: 'PUT',
            body: { schema_id: target.schema_id, state: target.state, traits },
          });
        } catch (error) {
          return onError(error, 'Kon gebruiker niet bewerken');
        }
      }
      try {
        // The data roles and the administrator relation become the chosen ones in one write, so a failure leaves
        // them as they were (one's own administrator relation stays; the server keeps it).
        await usersApi(`/users/${target.id}/permissions`, { method: 'PUT', body: permissionsOf(values) });
      } catch (error) {
        return onError(error, 'Kon gebruiker permissies niet bewerken');
      }
      onDone('Gebruiker aangepast');
    } catch (error) {
      // The spec's text names someone to contact already: the support address is added only when there is one.
      onError(
        error,
        'Fout bij het aanmaken van een nieuwe gebruiker. Als dit aanhoudt, neem dan contact op met een ' +
          'systeem beheerder.',
        'address',
      );
    }
  }

  const errors = form.formState.errors;
  const emailField = form.register('email');
  const submitting = form.formState.isSubmitting;
  const submit = form.handleSubmit(save);
  return (
    <FormDialog
      title={mode === 'create' ? 'Nieuwe gebruiker toevoegen' : 'Gebruiker bewerken'}
      summary={
        <ErrorSummary
          messages={messagesOf(errors, ['email', 'firstName', 'surname'])}
          focusOn={form.formState.submitCount}
        />
      }
      failure={failure && <DialogError ref={errorRef} failure={failure} />}
      submitLabel={mode === 'create' ? 'Toevoegen' : 'Opslaan'}
      submitting={submitting}
      onSubmit={submit}
      onClose={onClose}
    >
      {guest ? (
        <GuestDetails user={user!} organisation={org.label} />
      ) : (
        <>
          <TextField
            label="E-mailadres"
            type="email"
            autoComplete="off"
            error={errors.email?.message}
            description={
              exists === true
                ? 'Deze gebruiker heeft al een account.'
                : exists === false
                  ? 'E-mailadres is nog niet in gebruik.'
                  : checkFailed
                    ? 'Kon momenteel de gebruiker niet ophalen. Probeer het later nog eens.'
                    : undefined
            }
            readOnly={exists === true}
            {...emailField}
            onBlur={(event) => {
              void emailField.onBlur(event);
              void checkEmail(event.target.value);
            }}
          />
          {exists === true && (
            // A mistyped address can be someone else's: it is corrected here, not by starting over.
            <p className="utrecht-paragraph">
              <button
                type="button"
                className="utrecht-button utrecht-button--secondary-action"
                onClick={() => {
                  setExists(undefined);
                  form.setFocus('email', { shouldSelect: true });
                }}
              >
                Ander e-mailadres invullen
              </button>
            </p>
          )}
          {/* Read-only, not disabled: a field that has the focus when the check answers keeps it. */}
          <TextField
            label="Voornaam"
            autoComplete="off"
            readOnly={exists === true}
            description={exists === true ? KEEPS_NAME : undefined}
            error={errors.firstName?.message}
            {...form.register('firstName')}
          />
          <TextField
            label="Achternaam"
            autoComplete="off"
            readOnly={exists === true}
            description={exists === true ? KEEPS_NAME : undefined}
            error={errors.surname?.message}
            {...form.register('surname')}
          />
        </>
      )}
      <fieldset className="utrecht-form-fieldset dvp-choices">
        <legend className="utrecht-form-fieldset__legend">Datarollen</legend>
        <div className="utrecht-alert utrecht-alert--warning">
          <p className="utrecht-paragraph">
            Let op: met een datarol krijgt de gebruiker toegang tot beschermde gegevens. Geef alleen de datarollen die
            nodig zijn.
          </p>
        </div>
        {org.subdivisions.map((role) => (
          <div key={role.id} className="utrecht-form-field utrecht-form-field--checkbox">
            <input
              id={`rol-${role.id}`}
              type="checkbox"
              className="utrecht-checkbox utrecht-checkbox--html-input"
              value={role.id}
              {...form.register('subdivisions')}
            />
            <label className="utrecht-form-label utrecht-form-label--checkbox" htmlFor={`rol-${role.id}`}>
              {role.label}
            </label>
          </div>
        ))}
      </fieldset>
      <div className="utrecht-form-field utrecht-form-field--checkbox">
        <input
          id="is-admin"
          type="checkbox"
          className="utrecht-checkbox utrecht-checkbox--html-input"
          disabled={editingSelf}
          {...form.register('isAdmin')}
        />
        <label className="utrecht-form-label utrecht-form-label--checkbox" htmlFor="is-admin">
          Administrator
        </label>
      </div>
    </FormDialog>
  );
}

/** A guest's names and address, as text: they are not this organisation's to change, and say so. */
function GuestDetails({ user, organisation }: { user: PortalUser; organisation: string }) {
  return (
    <div className="dvp-read-only">
      <p className="utrecht-paragraph">
        Dit account hoort bij een andere organisatie. Alleen die organisatie past de naam en het e-mailadres aan. Hier
        pas je de datarollen en de beheerdersrol bij {organisation} aan.
      </p>
      <dl>
        <dt>E-mailadres</dt>
        <dd>{user.traits.email}</dd>
        <dt>Voornaam</dt>
        <dd>{user.traits.name.first}</dd>
        <dt>Achternaam</dt>
        <dd>{user.traits.name.last}</dd>
      </dl>
    </div>
  );
}
