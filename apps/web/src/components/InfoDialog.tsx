import type { ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';

interface InfoDialogProps {
  title: string;
  /** Whether a click outside closes it too; Escape and 'Sluiten' always do. */
  dismissable?: boolean;
  onClose(): void;
  children: ReactNode;
}

/** A modal that tells or shows something, with 'Sluiten' as its one action. */
export function InfoDialog({ title, dismissable = true, onClose, children }: InfoDialogProps) {
  return (
    <ModalOverlay
      className="dvp-modal-overlay"
      isOpen
      isDismissable={dismissable}
      onOpenChange={(open) => !open && onClose()}
    >
      <Modal className="dvp-modal">
        <Dialog>
          <Heading slot="title" className="utrecht-heading-2">
            {title}
          </Heading>
          {children}
          <div className="dvp-modal__actions">
            <button type="button" className="utrecht-button utrecht-button--primary-action" onClick={onClose}>
              Sluiten
            </button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
