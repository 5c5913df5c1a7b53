import { useDialogOpener } from './use-dialog-opener';
import { useRef, useState } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { ConfirmDialog } from '../overview/ConfirmDialog';
import { useConfirmed } from '../overview/use-confirmed';
import { DataRoleDialog } from './DataRoleDialog';
import { type DataRole, type OrganisationSummary, retireDataRole } from './programme-api';

const collator = new Intl.Collator('nl', { sensitivity: 'base', numeric: true });

/** 'Niemand', '1 persoon', '3 personen'. */
const people = (n: number) => (n === 0 ? 'Niemand' : n === 1 ? '1 persoon' : `${n} personen`);

/** 'Niemand heeft deze datarol', '1 persoon heeft deze datarol', '3 personen hebben deze datarol'. */
const heldBy = (n: number) => `${people(n)} ${n > 1 ? 'hebben' : 'heeft'} deze datarol`;

/** What retiring takes away, from how many people, before it is done. */
function retireText(role: DataRole): string {
  const lost =
    role.holders === 0
      ? `Niemand heeft deze datarol. Als je ${role.label} opheft, verdwijnt hij ook uit de toegangsregels van de ` +
        'datavoorzieningen.'
      : `Als je ${role.label} opheft, ${role.holders === 1 ? 'verliest' : 'verliezen'} ${people(role.holders)} ` +
        'deze datarol en daarmee de toegang tot de datavoorzieningen die erbij horen.';
  return `${lost} Dit kan niet ongedaan worden gemaakt.`;
}

/** What retiring did, by the server's count: 'Datarol Sociaal domein opgeheven; 3 personen hebben hem niet meer.' */
function retiredText(label: string, holders: number): string {
  if (holders === 0) return `Datarol ${label} opgeheven.`;
  return `Datarol ${label} opgeheven; ${people(holders)} ${holders === 1 ? 'heeft' : 'hebben'} hem niet meer.`;
}

/** 'Opheffen': asks first, saying how many people lose the role; a failure stays in the dialog. */
function RetireDataRole({
  organisation,
  role,
  onClose,
  onDone,
}: {
  organisation: OrganisationSummary;
  role: DataRole;
  onClose(): void;
  onDone(message: string): Promise<void>;
}) {
  const { busy, failure, run } = useConfirmed('Opheffen van de datarol is niet gelukt. Probeer het later nog eens.');
  const confirm = () =>
    run(async () => {
      const holders = await retireDataRole(organisation.id, role.id);
      await onDone(retiredText(role.label, holders));
    });
  return (
    <ConfirmDialog
      title="Datarol opheffen"
      confirmLabel="Opheffen"
      danger
      busy={busy}
      error={failure}
      onClose={onClose}
      onConfirm={() => void confirm()}
    >
      <p className="utrecht-paragraph">{retireText(role)}</p>
    </ConfirmDialog>
  );
}

type Open = { kind: 'add' } | { kind: 'rename' | 'retire'; role: DataRole } | undefined;

interface DataRolesDialogProps {
  /** The organisation as the list now describes it: fetched again after each change. */
  organisation: OrganisationSummary;
  /** After a change: fetches the list again, so that the dialog shows what the server now has. */
  onChanged(): Promise<void>;
  onClose(): void;
}

/**
 * 'Datarollen' of one organisation, by name: each with its code and how many people hold it, renamed ('Hernoemen')
 * or retired ('Opheffen', after a confirmation that says how many people lose it), and 'Datarol toevoegen'. Those open
 * a dialog over this one; after success the list is fetched again and what was done is said in this dialog (a modal
 * hides a toast from assistive technology), and the focus returns to what opened it, or to 'Datarol toevoegen' when
 * that is gone.
 */
export function DataRolesDialog({ organisation, onChanged, onClose }: DataRolesDialogProps) {
  const [message, setMessage] = useState('');
  const addButton = useRef<HTMLButtonElement>(null);
  const dialogs = useDialogOpener<Open>(addButton);
  const { open, close } = dialogs;
  const show = (next: Open) => {
    // What the last change did is no news any more; the next one is said afresh.
    setMessage('');
    dialogs.show(next);
  };
  // The list is fetched again before the dialog on top closes, so that what this one says is what it shows.
  const done = async (text: string) => {
    await onChanged();
    setMessage(text);
    close();
  };
  const roles = [...organisation.dataRoles].sort((a, b) => collator.compare(a.label, b.label));

  return (
    <>
      <ModalOverlay className="dvp-modal-overlay" isOpen isDismissable onOpenChange={(isOpen) => !isOpen && onClose()}>
        <Modal className="dvp-modal">
          <Dialog>
            <Heading slot="title" className="utrecht-heading-2">
              Datarollen van {organisation.label}
            </Heading>
            <p className="utrecht-paragraph dvp-programme-dialog-intro">
              Met een datarol krijgt een lid van {organisation.label} toegang tot de datavoorzieningen die erbij horen.
              De beheerder van de organisatie geeft de datarollen aan mensen.
            </p>
            {/* Always there, so that what is put in it is read out. */}
            <div role="status" className="dvp-programme-roles-status">
              {message && (
                <div className="utrecht-alert utrecht-alert--ok">
                  <p className="utrecht-paragraph">{message}</p>
                </div>
              )}
            </div>
            {roles.length === 0 ? (
              <p className="utrecht-paragraph">{organisation.label} heeft nog geen datarollen.</p>
            ) : (
              <ul className="dvp-programme-roles" aria-label={`Datarollen van ${organisation.label}`}>
                {roles.map((role) => (
                  <li key={role.id} className="dvp-programme-role">
                    <div className="dvp-programme-role__text">
                      <strong>{role.label}</strong>
                      <span className="dvp-row-note">
                        <span className="dvp-visually-hidden">Code: </span>
                        {role.id}
                      </span>
                      <span className="dvp-row-note">{heldBy(role.holders)}</span>
                    </div>
                    <div className="dvp-row-actions dvp-programme-role__actions">
                      <button
                        type="button"
                        className="utrecht-button utrecht-button--secondary-action"
                        aria-label={`Hernoemen: ${role.label}`}
                        onClick={() => show({ kind: 'rename', role })}
                      >
                        Hernoemen
                      </button>
                      <button
                        type="button"
                        className="utrecht-button utrecht-button--secondary-action"
                        aria-label={`Opheffen: ${role.label}`}
                        onClick={() => show({ kind: 'retire', role })}
                      >
                        Opheffen
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
            <div className="dvp-modal__actions">
              <button type="button" className="utrecht-button utrecht-button--secondary-action" onClick={onClose}>
                Sluiten
              </button>
              <button
                ref={addButton}
                type="button"
                className="utrecht-button utrecht-button--primary-action"
                onClick={() => show({ kind: 'add' })}
              >
                Datarol toevoegen
              </button>
            </div>
          </Dialog>
        </Modal>
      </ModalOverlay>
      {(open?.kind === 'add' || open?.kind === 'rename') && (
        <DataRoleDialog
          organisation={organisation}
          role={open.kind === 'rename' ? open.role : undefined}
          onClose={close}
          onDone={(label) =>
            done(
              open.kind === 'add'
                ? `Datarol ${label} toegevoegd.`
                : `Datarol ${open.role.label} hernoemd tot ${label}.`,
            )
          }
        />
      )}
      {open?.kind === 'retire' && (
        <RetireDataRole organisation={organisation} role={open.role} onClose={close} onDone={done} />
      )}
    </>
  );
}
