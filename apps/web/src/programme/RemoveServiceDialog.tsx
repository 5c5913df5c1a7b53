import { ConfirmDialog } from '../overview/ConfirmDialog';
import { useConfirmed } from '../overview/use-confirmed';
import { type ProgrammeService, removeService } from './services-api';

interface RemoveServiceDialogProps {
  service: ProgrammeService;
  onClose(): void;
  /** Done, with the toast's text. */
  onDone(message: string): void;
}

/**
 * 'Verwijderen' of a data service: a confirmation that says what follows. Nobody reaches the service through the
 * portal any more, and its OpenID Connect client and client secrets stop working at once. A failure stays in the
 * dialog.
 */
export function RemoveServiceDialog({ service, onClose, onDone }: RemoveServiceDialogProps) {
  const { name } = service;
  const { busy, failure, run } = useConfirmed(
    'Verwijderen van de datavoorziening is niet gelukt. Probeer het later nog eens.',
  );
  const confirm = () =>
    run(async () => {
      await removeService(service.id);
      onDone(`${name} is verwijderd.`);
    });
  return (
    <ConfirmDialog
      title="Datavoorziening verwijderen"
      confirmLabel="Verwijderen"
      danger
      busy={busy}
      error={failure}
      onClose={onClose}
      onConfirm={() => void confirm()}
    >
      <p className="utrecht-paragraph">
        Als je {name} verwijdert, kan niemand de datavoorziening nog via het portaal gebruiken.
        {service.oidc && ' De OpenID Connect-client en de clientgeheimen werken meteen niet meer.'} Dit kan niet
        ongedaan worden gemaakt.
      </p>
    </ConfirmDialog>
  );
}
