import { CheckboxField } from '../components/CheckboxField';
import type { UseFormRegisterReturn } from 'react-hook-form';
import type { OrganisationSummary } from './programme-api';

interface AccessChoicesProps {
  organisations: OrganisationSummary[];
  register: (name: 'organisations' | 'dataRoles') => UseFormRegisterReturn;
  error?: string;
}

/**
 * 'Wie mag de datavoorziening gebruiken?': per organisation a group with 'Alle leden' and each of its data roles
 * (`roleId_orgId`), so that a checkbox is read out with the organisation it belongs to.
 */
export function AccessChoices({ organisations, register, error }: AccessChoicesProps) {
  return (
    <fieldset
      className={`utrecht-form-fieldset dvp-choices${error ? ' utrecht-form-field--invalid' : ''}`}
      aria-describedby={error ? 'toegang-fout' : 'toegang-uitleg'}
    >
      <legend className="utrecht-form-fieldset__legend">Wie mag de datavoorziening gebruiken?</legend>
      <p id="toegang-uitleg" className="utrecht-form-field-description dvp-field-message">
        Kies een organisatie als al haar leden de datavoorziening mogen gebruiken, of alleen de datarollen die dat
        mogen.
      </p>
      {error && (
        <p id="toegang-fout" className="utrecht-form-field-description dvp-field-message dvp-field-message--error">
          {error}
        </p>
      )}
      {organisations.map((organisation) => (
        <fieldset key={organisation.id} className="utrecht-form-fieldset dvp-service-access">
          <legend className="utrecht-form-fieldset__legend dvp-service-access__legend">
            {organisation.label}
            {!organisation.active && ' (gedeactiveerd)'}
          </legend>
          <CheckboxField
            id={`toegang-${organisation.id}`}
            label="Alle leden"
            value={organisation.id}
            {...register('organisations')}
          />
          {organisation.dataRoles.map((role) => (
            <CheckboxField
              key={role.id}
              id={`toegang-${role.id}_${organisation.id}`}
              label={role.label}
              value={`${role.id}_${organisation.id}`}
              {...register('dataRoles')}
            />
          ))}
        </fieldset>
      ))}
    </fieldset>
  );
}
