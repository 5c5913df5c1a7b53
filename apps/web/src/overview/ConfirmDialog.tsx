import { useId, type ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { DialogError, useFocusOnFailure, type DialogFailure } from './DialogError';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy: boolean;
  /** Whom the confirmation is about, named beside the question (and in the dialog's accessible description). */
  person?: { name: string; email: string };
  /** Why the last attempt failed: shown in the dialog, which stays open, and given the focus. */
  error?: DialogFailure;
  onConfirm(): void;
  onClose(): void;
}

/**
 * A modal confirmation (block, unblock, delete, reset 2FA, withdraw an invitation, leave an organisation): focus moves
 * in, is trapped, and returns on close. While the answer is awaited the buttons are only marked disabled
 * (`aria-disabled`): a truly disabled button would drop the focus to the page.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  danger,
  busy,
  person,
  error,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const id = useId();
  const errorRef = useFocusOnFailure(error);
  const off = busy ? ' utrecht-button--disabled' : '';
  const tone = danger ? ' utrecht-button--danger' : '';
  return (
    <ModalOverlay className="dvp-modal-overlay" isOpen isDismissable onOpenChange={(open) => !open && onClose()}>
      <Modal className="dvp-modal">
        <Dialog role="alertdialog" aria-describedby={person ? `${id}-body ${id}-person` : `${id}-body`}>
          <Heading slot="title" className="utrecht-heading-2">
            {title}
          </Heading>
          <div id={`${id}-body`}>{children}</div>
          {person && (
            <p id={`${id}-person`} className="utrecht-paragraph dvp-person">
              <span className="dvp-visually-hidden">Gebruiker: </span>
              <strong className="dvp-person__name">{person.name}</strong>{' '}
              <span className="dvp-person__email">{person.email}</span>
            </p>
          )}
          {error && <DialogError ref={errorRef} failure={error} />}
          <div className="dvp-modal__actions">
            <button
              type="button"
              className={`utrecht-button utrecht-button--secondary-action${off}`}
              onClick={() => !busy && onClose()}
              aria-disabled={busy || undefined}
            >
              Annuleren
            </button>
            <button
              type="button"
              className={`utrecht-button utrecht-button--primary-action${tone}${off}`}
              onClick={() => !busy && onConfirm()}
              aria-disabled={busy || undefined}
              aria-busy={busy}
            >
              {confirmLabel}
            </button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
