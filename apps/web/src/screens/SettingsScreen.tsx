import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { SettingsFlow } from '@ory/client-fetch';
import { useCurrentUser } from '../api/queries';
import { ErrorSummary, messagesOf } from '../components/ErrorSummary';
import { NewPasswordFields } from '../components/NewPasswordFields';
import { TextField } from '../components/TextField';
import { useSelfServiceFlow } from '../flows/use-flow';
import type { FlowUi } from '../flows/ui-types';
import { settingsSchema, type SettingsInput, type SettingsValues } from '../forms/settings-schema';
import { translate } from '../i18n/kratos-messages';
import { Shell } from '../layout/Shell';
import { usePageTitle } from '../layout/use-page-title';
import { RecoveredPasswordView } from './RecoveredPasswordView';
import { RestartNotice } from '../components/RestartNotice';
import { BUSY, SupportContact, UNREACHABLE } from '../components/SupportContact';
import { LogOutOthersOffer } from '../sessions/LogOutOthersOffer';
import { OtherSessions } from '../sessions/OtherSessions';
import { OrganisationsSection } from '../organisations/OrganisationsSection';
import { SecurityKeysSection } from '../security-keys/SecurityKeysSection';

/** The fields in the order of the form; 'root' holds 'Geen van de velden is aangepast.'. */
const SUMMARY_FIELDS = ['firstName', 'lastName', 'email', 'password', 'confirmPassword', 'root'] as const;

/** `secrets`: the password or the address changed, so the person is offered to end their other sessions. */
type Outcome =
  | { kind: 'ok'; text: string; secrets: boolean }
  /** `texts`: what went wrong and why, a paragraph each; `support`: who to turn to when it persists. */
  | { kind: 'error'; texts: string[]; support: boolean }
  | undefined;

/** The provider's own messages about the whole form (such as 4000007, an address in use), in Dutch. */
const flowErrors = (ui: unknown) =>
  ((ui as FlowUi | undefined)?.messages ?? []).filter((m) => m.type === 'error').map((m) => translate(m));

/** The provider's messages on a node, in Dutch, for showing under our own field. */
const nodeErrors = (flow: SettingsFlow | undefined, name: string) =>
  ((flow?.ui as unknown as FlowUi | undefined)?.nodes ?? [])
    .filter((n) => n.attributes.name === name)
    .flatMap((n) => n.messages.filter((m) => m.type === 'error').map((m) => translate(m, name)))[0];

/**
 * /settings: name, e-mail and password (validated by the settings form's rules), the way to the 2FA app screen, the
 * person's organisations and invitations (docs/organisations.md) and the sessions on other devices.
 */
export default function SettingsScreen() {
  const [params] = useSearchParams();
  // A recovery or invitation link lands here with its own settings flow: choose a password first.
  if (params.get('flow')) return <RecoveredPasswordView />;
  return <AccountSettings />;
}

function AccountSettings() {
  usePageTitle('Account instellingen');
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  // The address must not carry this flow's id: with one, it is a mailed link's flow (RecoveredPasswordView).
  const { flow, submit } = useSelfServiceFlow('settings', { inAddress: false });
  const [outcome, setOutcome] = useState<Outcome>();
  const outcomeRef = useRef<HTMLDivElement>(null);
  const form = useForm<SettingsInput, unknown, SettingsValues>({
    resolver: zodResolver(settingsSchema),
    // The error summary takes the focus instead (GOV.UK pattern).
    shouldFocusError: false,
    defaultValues: { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' },
  });
  const errors = form.formState.errors;
  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);

  async function save(values: SettingsValues) {
    if (!flow || !user.data) return;
    setOutcome(undefined);
    const current = user.data.identity.traits;
    // Each step is sent with the flow the step before answered (the hook keeps it).
    const send = async (body: Record<string, unknown>, failure: string) => {
      const sent = await submit(body);
      if (sent.kind === 'done') return true;
      if (sent.kind === 'refused') {
        // The provider's reason when it gives one for the whole form; otherwise the fields say what to change.
        const reasons = flowErrors(sent.flow.ui);
        setOutcome({ kind: 'error', texts: reasons.length > 0 ? reasons : [failure], support: false });
      }
      if (sent.kind === 'unreachable') setOutcome({ kind: 'error', texts: [failure, UNREACHABLE], support: true });
      if (sent.kind === 'busy') setOutcome({ kind: 'error', texts: [failure, BUSY], support: false });
      // Signing in again (an old session), a restarted form or sign-in when signed out said why on their own.
      if (sent.kind === 'failed') setOutcome({ kind: 'error', texts: [failure], support: true });
      return false;
    };
    if (values.firstName || values.lastName || values.email) {
      const traits = {
        email: values.email ?? current.email,
        name: { first: values.firstName ?? current.name.first, last: values.lastName ?? current.name.last },
      };
      if (
        !(await send(
          { method: 'profile', traits },
          'Er is iets misgegaan bij het updaten van je gegevens. Probeer het nog eens.',
        ))
      )
        return;
    }
    if (values.password) {
      if (
        !(await send(
          { method: 'password', password: values.password },
          'Er is iets misgegaan bij het updaten van je nieuwe wachtwoord. Probeer het nog eens.',
        ))
      )
        return;
    }
    form.reset();
    await queryClient.invalidateQueries();
    setOutcome({ kind: 'ok', text: 'Je gegevens zijn aangepast.', secrets: Boolean(values.password || values.email) });
  }

  const traits = user.data?.identity.traits;
  const credentials = user.data?.identity.credentials ?? [];
  // An authenticator app, a security key or a passkey each meet the second-factor policy (docs/organisations.md).
  const hasSecondFactor = ['totp', 'webauthn', 'passkey'].some((type) => credentials.includes(type));
  return (
    <Shell>
      <main className="dvp-main" id="inhoud">
        <h1 className="utrecht-heading-1">Account instellingen</h1>
        <RestartNotice />
        {outcome && (
          <div
            ref={outcomeRef}
            tabIndex={-1}
            className={`utrecht-alert utrecht-alert--${outcome.kind}`}
            role={outcome.kind === 'error' ? 'alert' : 'status'}
          >
            {outcome.kind === 'ok' ? (
              <p className="utrecht-paragraph">{outcome.text}</p>
            ) : (
              <>
                {outcome.texts.map((text) => (
                  <p key={text} className="utrecht-paragraph">
                    {text}
                  </p>
                ))}
                {outcome.support && <SupportContact />}
              </>
            )}
          </div>
        )}
        {outcome?.kind === 'ok' && outcome.secrets && <LogOutOthersOffer />}
        <form
          className="dvp-form"
          noValidate
          onSubmit={form.handleSubmit(save)}
          aria-busy={form.formState.isSubmitting}
        >
          <ErrorSummary messages={messagesOf(errors, SUMMARY_FIELDS)} focusOn={form.formState.submitCount} />
          <section aria-labelledby="dvp-profiel">
            <h2 id="dvp-profiel" className="utrecht-heading-2">
              Account instelling wijzigen
            </h2>
            <TextField
              label="Naam"
              autoComplete="given-name"
              placeholder={traits?.name.first}
              error={errors.firstName?.message ?? nodeErrors(flow, 'traits.name.first')}
              {...form.register('firstName')}
            />
            <TextField
              label="Achternaam"
              autoComplete="family-name"
              placeholder={traits?.name.last}
              error={errors.lastName?.message ?? nodeErrors(flow, 'traits.name.last')}
              {...form.register('lastName')}
            />
            <TextField
              label="E-mailadres"
              type="email"
              autoComplete="email"
              placeholder={traits?.email}
              error={errors.email?.message ?? nodeErrors(flow, 'traits.email')}
              {...form.register('email')}
            />
          </section>
          <section aria-labelledby="dvp-2fa">
            <h2 id="dvp-2fa" className="utrecht-heading-2">
              Twee-factor-authenticatie configureren
            </h2>
            {user.data && !hasSecondFactor && (
              <div className="utrecht-alert utrecht-alert--warning">
                <p className="utrecht-paragraph">Let op! Je hebt nog geen 2FA geconfigureerd.</p>
              </div>
            )}
            <Link className="utrecht-button-link utrecht-button-link--secondary-action" to="/settings/2fa-app">
              2FA configureren
            </Link>
          </section>
          <section aria-labelledby="dvp-wachtwoord">
            <h2 id="dvp-wachtwoord" className="utrecht-heading-2">
              Wachtwoord aanpassen
            </h2>
            <NewPasswordFields
              password={form.register('password')}
              confirmPassword={form.register('confirmPassword')}
              passwordError={errors.password?.message ?? nodeErrors(flow, 'password')}
              confirmError={errors.confirmPassword?.message}
              username={traits?.email}
            />
          </section>
          <div className="dvp-links">
            <button
              type="submit"
              className="utrecht-button utrecht-button--primary-action"
              disabled={form.formState.isSubmitting || !flow}
            >
              Bewerkingen opslaan
            </button>
          </div>
          <Link className="utrecht-link" to="/permissies">
            Terug naar overzicht - bewerkingen worden niet opgeslagen
          </Link>
        </form>
        <SecurityKeysSection
          ui={flow?.ui as unknown as FlowUi | undefined}
          submit={submit}
          hasBackupCodes={credentials.includes('lookup_secret')}
          onChanged={() => queryClient.invalidateQueries()}
        />
        <OrganisationsSection />
        <OtherSessions />
      </main>
    </Shell>
  );
}
