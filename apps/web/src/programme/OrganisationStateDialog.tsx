import { ConfirmDialog } from '../overview/ConfirmDialog';
import { useConfirmed } from '../overview/use-confirmed';
import { changeOrganisation, type OrganisationSummary } from './programme-api';

interface OrganisationStateDialogProps {
  organisation: OrganisationSummary;
  onClose(): void;
  /** Done, with the toast's text. */
  onDone(message: string): void;
}

/**
 * 'Deactiveren' of an active organisation, 'Activeren' of a deactivated one: a confirmation that says what follows.
 * A deactivated organisation keeps its members, data roles and administrators, but admits nobody to a data service.
 * A failure stays in the dialog.
 */
export function OrganisationStateDialog({ organisation, onClose, onDone }: OrganisationStateDialogProps) {
  const { label } = organisation;
  const deactivating = organisation.active;
  const what = deactivating ? 'Deactiveren' : 'Activeren';
  const { busy, failure, run } = useConfirmed(`${what} van de organisatie is niet gelukt. Probeer het later nog eens.`);
  const confirm = () =>
    run(async () => {
      await changeOrganisation(organisation.id, { active: !deactivating });
      onDone(deactivating ? `${label} is gedeactiveerd.` : `${label} is weer actief.`);
    });
  return (
    <ConfirmDialog
      title={deactivating ? 'Organisatie deactiveren' : 'Organisatie activeren'}
      confirmLabel={deactivating ? 'Deactiveren' : 'Activeren'}
      danger={deactivating}
      busy={busy}
      error={failure}
      onClose={onClose}
      onConfirm={() => void confirm()}
    >
      <p className="utrecht-paragraph">
        {deactivating
          ? `Leden van ${label} kunnen dan geen datavoorzieningen meer gebruiken via deze organisatie. Er wordt ` +
            'niets verwijderd; je kunt de organisatie later weer activeren.'
          : `Leden van ${label} kunnen dan weer datavoorzieningen gebruiken via deze organisatie, met de datarollen ` +
            'die ze hebben.'}
      </p>
    </ConfirmDialog>
  );
}
