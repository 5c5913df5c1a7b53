import { useId, useState, type FormEvent } from 'react';
import type { Membership } from '../api/users-api';
import { useSwitchOrganisation } from './use-memberships';

/**
 * In the sidebar, for a person in more than one organisation: the organisation they work for, and the others to
 * choose instead. A native select with a button: choosing alone changes nothing (browsers fire a change for every
 * arrow key on a closed select, and a switch reloads what the page shows; WCAG 3.2.2).
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
      <div className="utrecht-form-field">
        <label className="utrecht-form-label" htmlFor={id}>
          Wissel van organisatie
        </label>
        <div className="dvp-organisation-switcher__row">
          <select
            id={id}
            className="utrecht-select utrecht-select--html-select"
            value={chosen?.id ?? active}
            onChange={(event) => setChoice(event.target.value)}
          >
            {organisations.map((organisation) => (
              <option key={organisation.id} value={organisation.id}>
                {organisation.label}
              </option>
            ))}
          </select>
          <button type="submit" className="utrecht-button utrecht-button--secondary-action">
            Wisselen
          </button>
        </div>
      </div>
    </form>
  );
}
