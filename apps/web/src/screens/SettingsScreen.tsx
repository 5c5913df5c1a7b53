import { Link, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useCurrentUser } from '../api/queries';
import { useSelfServiceFlow } from '../flows/use-flow';
import type { FlowUi } from '../flows/ui-types';
import { Shell } from '../layout/Shell';
import { usePageTitle } from '../layout/use-page-title';
import { RecoveredPasswordView } from './RecoveredPasswordView';
import { RestartNotice } from '../components/RestartNotice';
import { OtherSessions } from '../sessions/OtherSessions';
import { OrganisationsSection } from '../organisations/OrganisationsSection';
import { SecurityKeysSection } from '../security-keys/SecurityKeysSection';
import { SettingsPasswordForm } from './SettingsPasswordForm';
import { SettingsProfileForm } from './SettingsProfileForm';
import { SettingsTwoFactor } from './SettingsTwoFactor';

/**
 * /settings: one section per subject, each with its own heading and its own action: name and e-mail (validated by
 * the settings form's rules), the password, the state of the second step and the way to the 2FA app screen, security
 * keys and passkeys, the person's organisations and invitations (docs/organisations.md) and the sessions on other
 * devices.
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
  const refresh = () => queryClient.invalidateQueries();
  const traits = user.data?.identity.traits;
  const credentials = user.data?.identity.credentials;
  return (
    <Shell>
      <main className="dvp-main dvp-settings" id="inhoud">
        <h1 className="utrecht-heading-1">Account instellingen</h1>
        <p className="utrecht-paragraph">
          <Link className="utrecht-link" to="/permissies">
            Terug naar overzicht - bewerkingen worden niet opgeslagen
          </Link>
        </p>
        <RestartNotice />
        <SettingsProfileForm flow={flow} submit={submit} traits={traits} onSaved={refresh} />
        <SettingsPasswordForm flow={flow} submit={submit} username={traits?.email} onSaved={refresh} />
        <SettingsTwoFactor credentials={credentials} />
        <SecurityKeysSection
          ui={flow?.ui as unknown as FlowUi | undefined}
          submit={submit}
          hasBackupCodes={credentials?.includes('lookup_secret') ?? false}
          onChanged={refresh}
        />
        <OrganisationsSection />
        <OtherSessions />
      </main>
    </Shell>
  );
}
