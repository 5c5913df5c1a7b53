import { useId, useState, type FormEvent } from 'react';
import type { Membership } from '../api/users-api';
import { useSwitchOrganisation } from './use-memberships';

/**
 * In the sidebar, for a person in more than one organisation: the organisation they work for, and the others to
 * choose instead. Radio buttons with a button: each name is shown whole, wrapping where it is long (a closed select
 * would cut it), and choosing alone changes nothing, since a switch reloads what the page shows (WCAG 3.2.2).
 */
export function OrganisationSwitcher({ organisations }: { organisations: Membership[] }) {
  const id = useId();
  const switching = useSwitchOrganisation();
  const [choice, setChoice] = useState<string>();
  if (organisations.length < 2) return null;
  const active = organisations.find((organisation) => organisation.active)?.id ?? '';
  const chosen = organisations.find((organisation) => organisation.id === (choice ?? active));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (switching.isPending || !chosen || chosen.id === active) return;
    switching.mutate(chosen, { onSuccess: () => setChoice(undefined) });
  }

  return (
    <form className="dvp-organisation-switcher" onSubmit={submit} aria-busy={switching.isPending}>
      <fieldset className="utrecht-form-fieldset dvp-organisation-switcher__choices">
        <legend className="utrecht-form-fieldset__legend">Wissel van organisatie</legend>
        {organisations.map((organisation) => (
          <div key={organisation.id} className="dvp-organisation-switcher__choice">
            <input
              id={`${id}-${organisation.id}`}
              type="radio"
              name={id}
              className="dvp-organisation-switcher__radio"
              value={organisation.id}
              checked={organisation.id === (chosen?.id ?? active)}
              onChange={() => setChoice(organisation.id)}
            />
            <label className="utrecht-form-label" htmlFor={`${id}-${organisation.id}`}>
              {organisation.label}
            </label>
          </div>
        ))}
      </fieldset>
      <button type="submit" className="utrecht-button utrecht-button--secondary-action">
        Wisselen
      </button>
    </form>
  );
}
