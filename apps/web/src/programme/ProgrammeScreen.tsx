import { useDialogOpener } from './use-dialog-opener';
import { useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useToast } from '../components/Toasts';
import { usePageTitle } from '../layout/use-page-title';
import { DataRolesDialog } from './DataRolesDialog';
import { InviteAdministratorDialog } from './InviteAdministratorDialog';
import { OrganisationDialog } from './OrganisationDialog';
import { OrganisationStateDialog } from './OrganisationStateDialog';
import { type OrganisationAction, OrganisationsTable } from './OrganisationsTable';
import {
  type AdministratorOutcome,
  type NewAdministrator,
  ORGANISATIONS_KEY,
  type OrganisationSummary,
  programmeOrganisations,
} from './programme-api';
import { ProgrammePage, ProgrammeSection, useProgrammeList } from './ProgrammePage';

type Open = { kind: 'new' } | { kind: OrganisationAction; organisation: OrganisationSummary } | undefined;

const collator = new Intl.Collator('nl', { sensitivity: 'base', numeric: true });

/** What inviting did, in one sentence: 'Noor de Vries is nu beheerder van Gemeente Nieuwstad.' */
function invitedText(outcome: AdministratorOutcome, person: NewAdministrator, organisation: string): string {
  const name = `${person.first.trim()} ${person.last.trim()}`;
  if (outcome === 'created') return `${name} is uitgenodigd als beheerder van ${organisation}.`;
  if (outcome === 'invited')
    return `${name} heeft een uitnodiging gekregen om beheerder van ${organisation} te worden.`;
  return `${name} is nu beheerder van ${organisation}.`;
}

/**
 * 'Programmabeheer' at `/programmabeheer`, for programme administrators only (issue 31): the organisations of the
 * programme with their members, administrators, open invitations, latest sign-in and second-factor rule
 * (`GET /api/programme/organisations`); an organisation is added ('Organisatie toevoegen'), renamed or its rule
 * changed ('Wijzigen'), its data roles added, renamed and retired ('Datarollen'), its administrator invited
 * ('Beheerder uitnodigen'), and it is deactivated or made active again. The server decides and audits; after each
 * answer the list is fetched again, a toast says what was done (the data roles' dialog says it itself, as it stays
 * open), and the focus returns to what opened the dialog.
 */
export default function ProgrammeScreen() {
  usePageTitle('Programmabeheer');
  const toast = useToast();
  const queryClient = useQueryClient();
  const organisations = useProgrammeList(ORGANISATIONS_KEY, ({ signal }) => programmeOrganisations(signal));
  const addButton = useRef<HTMLButtonElement>(null);
  // Focus returns to what opened a dialog ('Organisatie toevoegen' or the row's button) once the dialog is gone.
  const { open, show, close } = useDialogOpener<Open>(addButton);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ORGANISATIONS_KEY });
  // The toast follows the list fetched again, so that what it says is what the table shows.
  const done = async (message: string) => {
    close();
    await refresh();
    toast({ title: message, variant: 'success' });
  };
  const list = [...(organisations.data?.organisations ?? [])].sort((a, b) => collator.compare(a.label, b.label));
  // The data roles' dialog stays open while they change: it shows the organisation as fetched last.
  const current = (organisation: OrganisationSummary) => list.find((o) => o.id === organisation.id) ?? organisation;

  return (
    <ProgrammePage
      intro={
        'Hier beheer je de organisaties van het programma: voeg er een toe, wijzig een naam of de regel voor de ' +
        'tweede factor, beheer de datarollen en nodig een beheerder uit. Die voegt daarna zelf de mensen van de ' +
        'organisatie toe. Doet een organisatie niet meer mee, deactiveer haar dan: er wordt niets verwijderd.'
      }
    >
      <ProgrammeSection
        id="programma-organisaties"
        title="Organisaties"
        loading="Organisaties laden…"
        what="de organisaties"
        lists={[organisations]}
        add={{ label: 'Organisatie toevoegen', ref: addButton, onPress: () => show({ kind: 'new' }) }}
      >
        <OrganisationsTable
          organisations={list}
          busy={organisations.isFetching}
          onAction={(kind, organisation) => show({ kind, organisation })}
        />
      </ProgrammeSection>
      {(open?.kind === 'new' || open?.kind === 'edit') && (
        <OrganisationDialog
          organisation={open.kind === 'edit' ? open.organisation : undefined}
          onClose={close}
          onDone={(saved) =>
            void done(`Organisatie ${saved.label} ${open.kind === 'new' ? 'toegevoegd' : 'gewijzigd'}.`)
          }
        />
      )}
      {open?.kind === 'invite' && (
        <InviteAdministratorDialog
          organisation={open.organisation}
          onClose={close}
          onDone={(outcome, person) => void done(invitedText(outcome, person, open.organisation.label))}
        />
      )}
      {open?.kind === 'roles' && (
        <DataRolesDialog organisation={current(open.organisation)} onChanged={refresh} onClose={close} />
      )}
      {open?.kind === 'state' && (
        <OrganisationStateDialog
          organisation={open.organisation}
          onClose={close}
          onDone={(message) => void done(message)}
        />
      )}
    </ProgrammePage>
  );
}
