import { Link } from 'react-router';

interface SettingsTwoFactorProps {
  /** The types of the person's credentials (`password`, `totp`, `lookup_secret`, `webauthn`, `passkey`); absent while
   * loading. */
  credentials: string[] | undefined;
}

const state = (on: boolean) => (on ? 'ingesteld' : 'niet ingesteld');

/**
 * 'Twee-factor-authenticatie configureren': what of the second step is set up (authenticator app, backup codes,
 * security keys and passkeys), the warning when nothing is, and the way to the authenticator app screen.
 */
export function SettingsTwoFactor({ credentials }: SettingsTwoFactorProps) {
  const has = (...types: string[]) => types.some((type) => credentials?.includes(type));
  // An authenticator app, a security key or a passkey each meet the second-factor policy (docs/organisations.md).
  const hasSecondFactor = has('totp', 'webauthn', 'passkey');
  return (
    <section aria-labelledby="dvp-2fa" className="dvp-settings-section">
      <h2 id="dvp-2fa" className="utrecht-heading-2">
        Twee-factor-authenticatie configureren
      </h2>
      {credentials && (
        <>
          {!hasSecondFactor && (
            <div className="utrecht-alert utrecht-alert--warning">
              <p className="utrecht-paragraph">Let op! Je hebt nog geen 2FA geconfigureerd.</p>
            </div>
          )}
          <ul className="dvp-2fa-status" aria-label="Status van je twee-factor-authenticatie">
            <li>
              Authenticator-app: <strong>{state(has('totp'))}</strong>
            </li>
            <li>
              Back-upcodes: <strong>{state(has('lookup_secret'))}</strong>
            </li>
            <li>
              Beveiligingssleutel of passkey: <strong>{state(has('webauthn', 'passkey'))}</strong>
            </li>
          </ul>
        </>
      )}
      <div className="dvp-links">
        <Link className="utrecht-button-link utrecht-button-link--secondary-action" to="/settings/2fa-app">
          2FA configureren
        </Link>
      </div>
    </section>
  );
}
