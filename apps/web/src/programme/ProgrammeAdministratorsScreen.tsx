import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useCurrentUser } from '../api/queries';
import { CardTable } from '../components/CardTable';
import { useToast } from '../components/Toasts';
import { usePageTitle } from '../layout/use-page-title';
import { type ProgrammeAdministrator, programmeAdministrators } from './administrators-api';
import { GrantProgrammeRoleDialog } from './GrantProgrammeRoleDialog';
import { ProgrammePage, ProgrammeSection, useProgrammeList } from './ProgrammePage';
import { RowButton } from './RowButton';
import { useDialogOpener } from './use-dialog-opener';
import { WithdrawProgrammeRoleDialog } from './WithdrawProgrammeRoleDialog';

type Open = { kind: 'grant' } | { kind: 'withdraw'; administrator: ProgrammeAdministrator } | undefined;

const ADMINISTRATORS_KEY = ['programme-administrators'];

/**
 * 'Programmabeheer' › 'Programmabeheerders' at `/programmabeheer/beheerders` (issue 31): who holds the role, made one
 * by the address of their account ('Programmabeheerder toevoegen') or no longer ('Intrekken', after a confirmation).
 * The server keeps at least one; withdrawing one's own role closes 'Programmabeheer' at once.
 */
export default function ProgrammeAdministratorsScreen() {
  usePageTitle('Programmabeheerders', 'Programmabeheer');
  const me = useCurrentUser();
  const toast = useToast();
  const queryClient = useQueryClient();
  const administrators = useProgrammeList(ADMINISTRATORS_KEY, ({ signal }) => programmeAdministrators(signal));
  const addButton = useRef<HTMLButtonElement>(null);
  const { open, show, close } = useDialogOpener<Open>(addButton);

  const done = async (message: string, self = false) => {
    close();
    // Without the role, what the person may see changes: the sidebar and this page follow whoami.
    await queryClient.invalidateQueries({ queryKey: self ? [] : ADMINISTRATORS_KEY });
    toast({ title: message, variant: 'success' });
  };
  const list = administrators.data?.administrators ?? [];
  const myId = me.data?.identity.id;

  return (
    <ProgrammePage
      intro={
        'Programmabeheerders beheren de organisaties, datarollen en datavoorzieningen van het programma. Ze loggen ' +
        'altijd in met een tweede factor. Er blijft altijd minstens één over.'
      }
    >
      <ProgrammeSection
        id="programma-beheerders"
        title="Programmabeheerders"
        loading="Programmabeheerders laden…"
        what="de programmabeheerders"
        lists={[administrators]}
        add={{ label: 'Programmabeheerder toevoegen', ref: addButton, onPress: () => show({ kind: 'grant' }) }}
      >
        <CardTable
          label="Programmabeheerders"
          caption="Programmabeheerders"
          busy={administrators.isFetching}
          rows={list}
        >
          <thead>
            <tr>
              <th scope="col">Naam</th>
              <th scope="col">E-mailadres</th>
              <th scope="col">Acties</th>
            </tr>
          </thead>
          <tbody>
            {list.map((administrator) => {
              const name = `${administrator.name.first} ${administrator.name.last}`;
              return (
                <tr key={administrator.id}>
                  <td data-label="Naam">
                    {name}
                    {administrator.id === myId && ' (jij)'}
                  </td>
                  <td data-label="E-mailadres" className="dvp-email">
                    {administrator.email}
                  </td>
                  <td className="dvp-table__actions">
                    <div className="dvp-row-actions">
                      <RowButton
                        label="Intrekken"
                        about={name}
                        onPress={() => show({ kind: 'withdraw', administrator })}
                      />
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </CardTable>
      </ProgrammeSection>
      {open?.kind === 'grant' && (
        <GrantProgrammeRoleDialog
          onClose={close}
          onDone={(granted) => void done(`${granted.name.first} ${granted.name.last} is nu programmabeheerder.`)}
        />
      )}
      {open?.kind === 'withdraw' && (
        <WithdrawProgrammeRoleDialog
          administrator={open.administrator}
          self={open.administrator.id === myId}
          onClose={close}
          onDone={(message) => void done(message, open.administrator.id === myId)}
        />
      )}
    </ProgrammePage>
  );
}
