import { ConfirmDialog } from '../overview/ConfirmDialog';
import { useConfirmed } from '../overview/use-confirmed';
import { type ProgrammeAdministrator, withdrawProgrammeRole } from './administrators-api';

interface WithdrawProgrammeRoleDialogProps {
  administrator: ProgrammeAdministrator;
  /** The person withdraws their own role. */
  self: boolean;
  onClose(): void;
  onDone(message: string): void;
}

/**
 * 'Rol intrekken': what follows for the person (and, for oneself, that 'Programmabeheer' closes at once); the
 * account stays. The server refuses to withdraw the last programme administrator's role; that is said here.
 */
export function WithdrawProgrammeRoleDialog({
  administrator,
  self,
  onClose,
  onDone,
}: WithdrawProgrammeRoleDialogProps) {
  const name = `${administrator.name.first} ${administrator.name.last}`;
  const { busy, failure, run } = useConfirmed('Intrekken is niet gelukt. Probeer het later nog eens.');
  const confirm = () =>
    run(async () => {
      await withdrawProgrammeRole(administrator.id);
      onDone(`${name} is geen programmabeheerder meer.`);
    });
  return (
    <ConfirmDialog
      title="Rol intrekken"
      confirmLabel="Intrekken"
      danger
      busy={busy}
      person={{ name, email: administrator.email }}
      error={failure}
      onClose={onClose}
      onConfirm={() => void confirm()}
    >
      <p className="utrecht-paragraph">
        {self ? 'Je kunt' : `${name} kan`} daarna {self && 'zelf '}de organisaties, datarollen en datavoorzieningen niet
        meer beheren. {self ? 'Je' : 'Het'} account blijft bestaan.
      </p>
    </ConfirmDialog>
  );
}
