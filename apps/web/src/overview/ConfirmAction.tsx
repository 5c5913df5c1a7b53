import type { PortalUser } from '../api/users-api';
import { ConfirmDialog } from './ConfirmDialog';
import { confirmationOf, type ConfirmKind } from './confirmations';
import { fullName } from './sorting';
import { useConfirmed } from './use-confirmed';

interface ConfirmActionProps {
  kind: ConfirmKind;
  user: PortalUser;
  /** The administrator's active organisation, named in some questions. */
  organisation: string | undefined;
  onClose(): void;
  /** After success, with the toast's text: closes the dialog and reloads the list. */
  onDone(message: string): Promise<void>;
}

/**
 * The confirmation of one row action (`confirmations.ts`): on success it closes with a toast; on failure it stays
 * open with the reason in it, the server's or the confirmation's own text.
 */
export function ConfirmAction({ kind, user, organisation, onClose, onDone }: ConfirmActionProps) {
  const confirmation = confirmationOf(kind, user);
  const { busy, failure, run } = useConfirmed(confirmation?.fallback ?? '', { notFound: confirmation?.notFound });
  if (!confirmation) return null;
  const confirm = () =>
    run(async () => {
      await confirmation.call(user);
      await onDone(confirmation.success(user));
    });
  return (
    <ConfirmDialog
      title={confirmation.title}
      confirmLabel={confirmation.confirmLabel}
      danger={confirmation.danger}
      busy={busy}
      person={{ name: fullName(user), email: user.traits.email }}
      error={failure}
      onClose={onClose}
      onConfirm={() => void confirm()}
    >
      <p className="utrecht-paragraph">{confirmation.text(user, organisation)}</p>
    </ConfirmDialog>
  );
}
