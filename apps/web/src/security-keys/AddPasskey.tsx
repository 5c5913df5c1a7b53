import { useId, useState } from 'react';
import type { UiNode } from '../flows/ui-types';
import { translate } from '../i18n/kratos-messages';
import { deviceName } from '../sessions/device-name';

interface AddPasskeyProps {
  /** The flow's `passkey_register_trigger`. */
  button: UiNode;
  working: boolean;
  /** Starts the browser's ceremony; `name` goes along as `passkey_display_name` (docs/kratos-compatibility.md). */
  onAdd(name: string): void;
}

/** 'Passkey op Chrome op Linux': where the passkey is made, which is where the person will look for it. */
export const defaultPasskeyName = () => `Passkey op ${deviceName(navigator.userAgent)}`;

/**
 * 'Passkey toevoegen': a name for the passkey, proposed from this browser and system so that it never reads 'Zonder
 * naam', and the button that asks the browser or phone to make it.
 */
export function AddPasskey({ button, working, onAdd }: AddPasskeyProps) {
  const id = useId();
  const [name, setName] = useState(defaultPasskeyName);
  const start = () => onAdd(name.trim() || defaultPasskeyName());
  return (
    <div className="dvp-key-add">
      <h3 className="utrecht-heading-3">Passkey toevoegen</h3>
      <p className="utrecht-paragraph">
        Je browser of telefoon bewaart de passkey en vraagt om je vingerafdruk, gezicht of pincode.
      </p>
      <div className="utrecht-form-field utrecht-form-field--text">
        <div className="utrecht-form-field__label">
          <label className="utrecht-form-label" htmlFor={`${id}-name`}>
            Naam van de passkey
          </label>
        </div>
        <p id={`${id}-hint`} className="utrecht-form-field-description dvp-field-message">
          Zo herken je de passkey later in deze lijst. Je mag de naam aanpassen.
        </p>
        <div className="utrecht-form-field__input">
          <input
            id={`${id}-name`}
            className="utrecht-textbox utrecht-textbox--html-input"
            type="text"
            autoComplete="off"
            maxLength={64}
            value={name}
            aria-describedby={`${id}-hint`}
            onChange={(event) => setName(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                start();
              }
            }}
          />
        </div>
      </div>
      <button
        type="button"
        className="utrecht-button utrecht-button--secondary-action"
        disabled={working}
        onClick={start}
      >
        {button.meta.label ? translate(button.meta.label) : 'Passkey toevoegen'}
      </button>
    </div>
  );
}
