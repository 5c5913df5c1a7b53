import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { TextAreaField } from '../components/TextAreaField';
import { TextField } from '../components/TextField';
import type { ServiceFormInput } from './service-form';

interface OidcClientFieldsProps {
  register: UseFormRegister<ServiceFormInput>;
  errors: FieldErrors<ServiceFormInput>;
  /** The service exists: changing a confidential client's id gives it a new secret. */
  editing: boolean;
}

const ADDRESSES = 'Eén adres per regel.';

/** The OpenID Connect client of a data service: its id, confidential or public, and its addresses. */
export function OidcClientFields({ register, errors, editing }: OidcClientFieldsProps) {
  return (
    <fieldset className="utrecht-form-fieldset dvp-choices">
      <legend className="utrecht-form-fieldset__legend">OpenID Connect-client</legend>
      <TextField
        label="Client-id"
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="none"
        description={
          editing
            ? 'Verander je de client-id van een vertrouwelijke client, dan maakt het portaal een nieuw clientgeheim.'
            : 'Bijvoorbeeld wijkmonitor. Het portaal maakt het clientgeheim zelf en laat het één keer zien.'
        }
        error={errors.clientId?.message}
        {...register('clientId')}
      />
      <div className="utrecht-form-field utrecht-form-field--select">
        <div className="utrecht-form-field__label">
          <label className="utrecht-form-label" htmlFor="oidc-soort">
            Soort client
          </label>
        </div>
        <div className="utrecht-form-field__input">
          <select id="oidc-soort" className="utrecht-select utrecht-select--html-select" {...register('clientType')}>
            <option value="confidential">Vertrouwelijk, met een server</option>
            <option value="public">Openbaar, zonder server (PKCE)</option>
          </select>
        </div>
      </div>
      <TextAreaField
        label="Redirect-URI's"
        rows={2}
        spellCheck={false}
        description={`Waar het portaal na het inloggen naar terugstuurt. ${ADDRESSES}`}
        error={errors.redirectUris?.message}
        {...register('redirectUris')}
      />
      <TextAreaField
        label="Adressen na uitloggen (optioneel)"
        rows={2}
        spellCheck={false}
        description={`Waar het portaal na het uitloggen naar terug mag sturen. ${ADDRESSES}`}
        error={errors.postLogoutRedirectUris?.message}
        {...register('postLogoutRedirectUris')}
      />
      <TextField
        label="Back-channel-logout-URI (optioneel)"
        autoComplete="off"
        spellCheck={false}
        inputMode="url"
        description="Het portaal meldt hier dat iemand is uitgelogd, zodat de datavoorziening de sessie beëindigt."
        error={errors.backchannelLogoutUri?.message}
        {...register('backchannelLogoutUri')}
      />
      <TextField
        label="Startadres voor inloggen (optioneel)"
        autoComplete="off"
        spellCheck={false}
        inputMode="url"
        description="Hier begint het inloggen bij de datavoorziening als iemand haar opent vanuit Datavoorzieningen."
        error={errors.initiateLoginUri?.message}
        {...register('initiateLoginUri')}
      />
    </fieldset>
  );
}
