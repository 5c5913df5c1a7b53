import type { ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
}

/**
 * A modal confirmation (block, unblock, delete, reset 2FA, withdraw an invitation, leave an organisation): focus moves
 * in, is trapped, and returns on close.
 */
export function ConfirmDialog({ title, children, confirmLabel, danger, busy, onConfirm, onClose }: ConfirmDialogProps) {
  return (
    <ModalOverlay className="dvp-modal-overlay" isOpen isDismissable onOpenChange={(open) => !open && onClose()}>
      <Modal className="dvp-modal">
        <Dialog role="alertdialog">
          <Heading slot="title" className="utrecht-heading-2">
            {title}
          </Heading>
          {children}
          <div className="dvp-modal__actions">
            <button
              type="button"
              className="utrecht-button utrecht-button--secondary-action"
              onClick={onClose}
              disabled={busy}
            >
              Annuleren
            </button>
            <button
              type="button"
              className={`utrecht-button ${danger ? 'utrecht-button--primary-action utrecht-button--danger' : 'utrecht-button--primary-action'}`}
              onClick={onConfirm}
              disabled={busy}
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
