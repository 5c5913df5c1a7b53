import type { FormEvent, ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';

const PRIMARY = 'utrecht-button utrecht-button--primary-action';

interface FormDialogProps {
  title: string;
  /** Said under the title, before the form. */
  intro?: ReactNode;
  /** The form's error summary, first in the form. */
  summary: ReactNode;
  /** The failure of the last attempt that is about no field, after the fields. */
  failure?: ReactNode;
  submitLabel: string;
  submitting: boolean;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  onClose(): void;
  children: ReactNode;
}

/**
 * A modal dialog around one form, as the overview and 'Programmabeheer' ask for a person's or an organisation's
 * details: the title, the error summary, the fields, and 'Annuleren' beside the submit button. A second submit while
 * the first is saving is ignored.
 */
export function FormDialog(props: FormDialogProps) {
  const { submitting, onClose } = props;
  return (
    <ModalOverlay className="dvp-modal-overlay" isOpen isDismissable onOpenChange={(open) => !open && onClose()}>
      <Modal className="dvp-modal">
        <Dialog>
          <Heading slot="title" className="utrecht-heading-2">
            {props.title}
          </Heading>
          {props.intro}
          <form
            className="dvp-form"
            noValidate
            onSubmit={(event) => {
              if (!submitting) return void props.onSubmit(event);
              event.preventDefault();
            }}
            aria-busy={submitting}
          >
            {props.summary}
            {props.children}
            {props.failure}
            <div className="dvp-modal__actions">
              <button type="button" className="utrecht-button utrecht-button--secondary-action" onClick={onClose}>
                Annuleren
              </button>
              {/* Only marked disabled while saving: a disabled button would drop the focus to the page. */}
              <button
                type="submit"
                className={submitting ? `${PRIMARY} utrecht-button--disabled` : PRIMARY}
                aria-disabled={submitting || undefined}
              >
                {props.submitLabel}
              </button>
            </div>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
