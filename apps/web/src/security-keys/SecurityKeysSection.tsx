import { useEffect, useId, useRef, useState } from 'react';
import type { SettingsFlow } from '@ory/client-fetch';
import { useQuery } from '@tanstack/react-query';
import { BUSY, UNREACHABLE } from '../components/SupportContact';
import { FlowForm } from '../flows/FlowForm';
import type { Submitted } from '../flows/flow-options';
import type { FlowUi, FlowValues, UiNode } from '../flows/ui-types';
import { useWebAuthn } from '../flows/webauthn/use-webauthn';
import { translate } from '../i18n/kratos-messages';
import { ConfirmDialog } from '../overview/ConfirmDialog';
import { longDate } from '../i18n/dates';
import { BackupCodeActions } from '../screens/BackupCodeActions';
import { usersApi } from '../api/users-api';
import { codesOf } from '../flows/backup-codes';
import { AddPasskey } from './AddPasskey';
import {
  addButtonOf,
  KIND_NAMES,
  type KeyInfo,
  keysOf,
  offersKeys,
  type RegisteredKey,
  shownName,
  syncText,
} from './keys';

interface SecurityKeysSectionProps {
  /** The settings flow on screen (shared with the rest of the screen). */
  ui: FlowUi | undefined;
  submit(body: FlowValues): Promise<Submitted<SettingsFlow>>;
  /** The person has backup codes already: no offer to make them after the first key. */
  hasBackupCodes: boolean;
  /** After a key was added or removed (the screen refreshes what it knows of the person). */
  onChanged?(): Promise<void> | void;
}

type Outcome = { kind: 'ok' | 'error'; text: string } | undefined;

const NAME_MISSING = 'Geef de beveiligingssleutel een naam, zodat je hem later herkent.';
const FAILED = 'Er is iets misgegaan bij het opslaan. Probeer het nog eens.';

/** The provider's reasons for refusing, in Dutch: the form's messages and those on its fields. */
const reasonsOf = (ui: FlowUi | undefined) =>
  [...(ui?.messages ?? []), ...(ui?.nodes ?? []).flatMap((n) => n.messages)]
    .filter((m) => m.type === 'error')
    .map((m) => translate(m));

/**
 * 'Beveiligingssleutels en passkeys' in the account settings: the person's keys (name, kind, date added) with a
 * remove button each, adding a security key (with a name) or a passkey, and after the first one an offer to make
 * backup codes. Every outcome is said in a live region that takes the focus (WCAG 4.1.3, 2.4.3).
 */
export function SecurityKeysSection({ ui, submit, hasBackupCodes, onChanged }: SecurityKeysSectionProps) {
  const headingId = useId();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);
  const [offerCodes, setOfferCodes] = useState(false);
  // Removing a key cannot be undone: the person confirms it first (WCAG 3.3.4).
  const [removing, setRemoving] = useState<RegisteredKey>();
  const outcomeRef = useRef<HTMLDivElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const keys = ui ? keysOf(ui) : [];
  // Whether each key is synced: the Users API reads it from the stored credential; the list works without it.
  const infos = useQuery({
    queryKey: ['users', 'security-keys', keys.map((key) => String(key.remove.attributes.value)).join(',')],
    queryFn: () => usersApi<{ keys: KeyInfo[] }>('/users/security-keys'),
    enabled: keys.length > 0,
    retry: false,
  });
  const infoOf = (key: RegisteredKey) =>
    infos.data?.keys.find((info) => info.kind === key.kind && info.id === String(key.remove.attributes.value));
  const keyCount = useRef(keys.length);
  keyCount.current = keys.length;

  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);

  /** Sends a change and says how it went; true when it was saved. */
  async function tell(body: FlowValues, success: string): Promise<boolean> {
    setOutcome(undefined);
    setBusy(true);
    try {
      const sent = await submit(body);
      if (sent.kind === 'done') {
        setOutcome({ kind: 'ok', text: success });
        await onChanged?.();
        return true;
      }
      if (sent.kind === 'refused') {
        const reasons = reasonsOf(sent.flow.ui as unknown as FlowUi);
        setOutcome({ kind: 'error', text: reasons.join(' ') || FAILED });
      }
      if (sent.kind === 'unreachable') setOutcome({ kind: 'error', text: `${FAILED} ${UNREACHABLE}` });
      if (sent.kind === 'busy') setOutcome({ kind: 'error', text: `${FAILED} ${BUSY}` });
      if (sent.kind === 'failed') setOutcome({ kind: 'error', text: FAILED });
      return false;
    } finally {
      setBusy(false);
    }
  }

  const webauthn = useWebAuthn(ui, {}, async (body) => {
    const firstKey = keyCount.current === 0;
    const added =
      body.method === 'webauthn'
        ? `Beveiligingssleutel "${String(body.webauthn_register_displayname ?? '')}" is toegevoegd.`
        : 'Je passkey is toegevoegd. Je kunt er voortaan mee inloggen.';
    if (!(await tell(body, added))) return;
    setName('');
    if (firstKey && !hasBackupCodes) setOfferCodes(true);
  });

  useEffect(() => {
    if (webauthn.failure) setOutcome({ kind: 'error', text: webauthn.failure });
  }, [webauthn.failure]);

  if (!ui || !offersKeys(ui)) return null;
  const addKey = addButtonOf(ui, 'security_key');
  const addPasskey = addButtonOf(ui, 'passkey');
  const nameNode = ui.nodes.find((n) => n.attributes.name === 'webauthn_register_displayname');
  const working = busy || webauthn.busy;

  function startKey(button: UiNode) {
    const chosen = name.trim();
    if (!chosen) {
      setNameError(NAME_MISSING);
      nameRef.current?.focus();
      return;
    }
    setNameError(undefined);
    setOutcome(undefined);
    void webauthn.run(button, { webauthn_register_displayname: chosen });
  }

  const described = (key: RegisteredKey) => (key.name ? `${KIND_NAMES[key.kind]} "${key.name}"` : KIND_NAMES[key.kind]);

  function remove(key: RegisteredKey) {
    const what = described(key);
    const field = key.remove.attributes.name!;
    void tell(
      { method: key.kind === 'security_key' ? 'webauthn' : 'passkey', [field]: key.remove.attributes.value },
      `${what} is verwijderd.`,
    );
  }

  const codes = codesOf(ui);
  return (
    <section aria-labelledby={headingId} className="dvp-security-keys">
      <h2 id={headingId} className="utrecht-heading-2">
        Beveiligingssleutels en passkeys
      </h2>
      <p className="utrecht-paragraph">
        Met een beveiligingssleutel (zoals een YubiKey) of een passkey op je telefoon of computer log je veilig in,
        zonder dat iemand je code kan afkijken of naspelen.
      </p>
      <div
        ref={outcomeRef}
        tabIndex={-1}
        className={outcome ? `utrecht-alert utrecht-alert--${outcome.kind}` : undefined}
        role={outcome?.kind === 'error' ? 'alert' : 'status'}
      >
        {outcome && <p className="utrecht-paragraph">{outcome.text}</p>}
      </div>
      {keys.length === 0 ? (
        <p className="utrecht-paragraph">Je hebt nog geen beveiligingssleutels of passkeys.</p>
      ) : (
        <ul className="dvp-key-list" aria-label="Je beveiligingssleutels en passkeys">
          {keys.map((key) => (
            <li key={String(key.remove.attributes.value)} className="dvp-key">
              <p className="utrecht-paragraph dvp-key__name">{shownName(key, longDate)}</p>
              <p className="utrecht-paragraph dvp-key__details">
                {KIND_NAMES[key.kind]}
                {key.addedAt && `, toegevoegd op ${longDate(key.addedAt)}`}
                {syncText(infoOf(key)) && `, ${syncText(infoOf(key))}`}
              </p>
              <button
                type="button"
                className="utrecht-button utrecht-button--secondary-action"
                disabled={working}
                onClick={() => setRemoving(key)}
              >
                {key.remove.meta.label ? translate(key.remove.meta.label) : 'Verwijderen'}
              </button>
            </li>
          ))}
        </ul>
      )}
      {removing && (
        <ConfirmDialog
          title={`${KIND_NAMES[removing.kind]} verwijderen`}
          confirmLabel="Verwijderen"
          danger
          busy={working}
          onClose={() => setRemoving(undefined)}
          onConfirm={() => {
            setRemoving(undefined);
            remove(removing);
          }}
        >
          <p className="utrecht-paragraph">
            Weet je zeker dat je {described(removing).replace(/^\p{Lu}/u, (first) => first.toLowerCase())} wilt
            verwijderen? Je kunt er daarna niet meer mee inloggen. Dit kun je niet ongedaan maken.
          </p>
        </ConfirmDialog>
      )}
      {addKey && (
        <div className="dvp-key-add">
          <h3 className="utrecht-heading-3">Beveiligingssleutel toevoegen</h3>
          <div
            className={`utrecht-form-field utrecht-form-field--text${nameError ? ' utrecht-form-field--invalid' : ''}`}
          >
            <div className="utrecht-form-field__label">
              <label className="utrecht-form-label" htmlFor={`${headingId}-name`}>
                {nameNode?.meta.label ? translate(nameNode.meta.label) : 'Naam van de beveiligingssleutel'}
              </label>
            </div>
            <p id={`${headingId}-hint`} className="utrecht-form-field-description dvp-field-message">
              Bijvoorbeeld &lsquo;YubiKey werk&rsquo;.
            </p>
            <div className="utrecht-form-field__input">
              <input
                ref={nameRef}
                id={`${headingId}-name`}
                className={`utrecht-textbox utrecht-textbox--html-input${nameError ? ' utrecht-textbox--invalid' : ''}`}
                type="text"
                autoComplete="off"
                maxLength={64}
                value={name}
                aria-invalid={nameError ? true : undefined}
                aria-describedby={nameError ? `${headingId}-hint ${headingId}-error` : `${headingId}-hint`}
                onChange={(event) => setName(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') {
                    event.preventDefault();
                    startKey(addKey);
                  }
                }}
              />
            </div>
            {nameError && (
              <p
                id={`${headingId}-error`}
                className="utrecht-form-field-description dvp-field-message dvp-field-message--error"
              >
                {nameError}
              </p>
            )}
          </div>
          <button
            type="button"
            className="utrecht-button utrecht-button--secondary-action"
            disabled={working}
            onClick={() => startKey(addKey)}
          >
            {addKey.meta.label ? translate(addKey.meta.label) : 'Beveiligingssleutel toevoegen'}
          </button>
        </div>
      )}
      {addPasskey && (
        <AddPasskey
          button={addPasskey}
          working={working}
          onAdd={(chosen) => {
            setOutcome(undefined);
            void webauthn.run(addPasskey, { passkey_display_name: chosen });
          }}
        />
      )}
      {offerCodes && (
        <div className="dvp-key-add">
          <h3 className="utrecht-heading-3">Maak ook back-upcodes</h3>
          <p className="utrecht-paragraph">
            Raak je je beveiligingssleutel of telefoon kwijt? Dan log je in met een back-upcode. Elke code werkt één
            keer. Bewaar ze op een veilige plek.
          </p>
          <FlowForm
            ui={ui}
            groups={['lookup_secret']}
            showMessages={false}
            onSubmit={async (values) => {
              const confirming = values.lookup_secret_confirm !== undefined;
              await tell(
                values,
                confirming
                  ? 'Je back-upcodes zijn opgeslagen.'
                  : 'Je back-upcodes staan hieronder. Bewaar ze en kies daarna \u2018Back-upcodes bevestigen\u2019.',
              );
            }}
          />
          {codes.length > 0 && <BackupCodeActions codes={codes} />}
        </div>
      )}
    </section>
  );
}
