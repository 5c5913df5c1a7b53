import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useToast } from '../components/Toasts';
import { usePageTitle } from '../layout/use-page-title';
import { ClientSecretDialog } from './ClientSecretDialog';
import { ConnectServiceDialog } from './ConnectServiceDialog';
import { ProgrammePage, ProgrammeSection, useProgrammeList } from './ProgrammePage';
import { ORGANISATIONS_KEY, programmeOrganisations } from './programme-api';
import { RemoveServiceDialog } from './RemoveServiceDialog';
import { RotateSecretDialog } from './RotateSecretDialog';
import { ServiceDialog } from './ServiceDialog';
import { type ServiceAction, ServicesTable } from './ServicesTable';
import { type ProgrammeService, programmeServices } from './services-api';
import { useDialogOpener } from './use-dialog-opener';

type Open =
  | { kind: 'new' }
  | { kind: ServiceAction; service: ProgrammeService }
  | { kind: 'secret'; service: ProgrammeService; secret: string; previousValidUntil?: string }
  | undefined;

const SERVICES_KEY = ['programme-services'];
const collator = new Intl.Collator('nl', { sensitivity: 'base', numeric: true });

/**
 * 'Programmabeheer' › 'Datavoorzieningen' at `/programmabeheer/datavoorzieningen` (issue 31): the data services of the
 * programme with who may use them and how they trust the portal (`GET /api/programme/services`); a service is added
 * or changed (its access rule, forward-auth, its OpenID Connect client), connected ('Koppelen': how to configure
 * nginx, mod_auth_openidc or an OpenID Connect library), given a new client secret with an overlap, or removed. A
 * client secret the server makes is shown once, in a dialog of its own, right after the change that made it.
 */
export default function ProgrammeServicesScreen() {
  usePageTitle('Datavoorzieningen', 'Programmabeheer');
  const toast = useToast();
  const queryClient = useQueryClient();
  const services = useProgrammeList(SERVICES_KEY, ({ signal }) => programmeServices(signal));
  const organisations = useProgrammeList(ORGANISATIONS_KEY, ({ signal }) => programmeOrganisations(signal));
  const addButton = useRef<HTMLButtonElement>(null);
  const { open, show, follow, close } = useDialogOpener<Open>(addButton);

  const refresh = () => queryClient.invalidateQueries({ queryKey: SERVICES_KEY });
  const done = async (message: string) => {
    close();
    await refresh();
    toast({ title: message, variant: 'success' });
  };
  const saved = async (service: ProgrammeService, secret: string | undefined, message: string) => {
    await refresh();
    toast({ title: message, variant: 'success' });
    if (secret) follow({ kind: 'secret', service, secret });
    else close();
  };
  const list = [...(services.data?.services ?? [])].sort((a, b) => collator.compare(a.name, b.name));
  const known = [...(organisations.data?.organisations ?? [])].sort((a, b) => collator.compare(a.label, b.label));

  return (
    <ProgrammePage
      intro={
        'Hier beheer je de datavoorzieningen van het programma: wie ze mag gebruiken, en hoe ze het portaal ' +
        'vertrouwen, met forward-auth of als OpenID Connect-client. Een clientgeheim maakt het portaal zelf en laat ' +
        'het één keer zien.'
      }
    >
      <ProgrammeSection
        id="programma-datavoorzieningen"
        title="Datavoorzieningen"
        loading="Datavoorzieningen laden…"
        what="de datavoorzieningen"
        lists={[services, organisations]}
        add={{ label: 'Datavoorziening toevoegen', ref: addButton, onPress: () => show({ kind: 'new' }) }}
      >
        <ServicesTable
          services={list}
          organisations={known}
          busy={services.isFetching}
          onAction={(kind, service) => show({ kind, service })}
        />
      </ProgrammeSection>
      {(open?.kind === 'new' || open?.kind === 'edit') && (
        <ServiceDialog
          service={open.kind === 'edit' ? open.service : undefined}
          organisations={known}
          onClose={close}
          onDone={({ service, clientSecret }) =>
            void saved(
              service,
              clientSecret,
              `Datavoorziening ${service.name} ${open.kind === 'new' ? 'toegevoegd' : 'gewijzigd'}.`,
            )
          }
        />
      )}
      {open?.kind === 'connect' && <ConnectServiceDialog service={open.service} onClose={close} />}
      {open?.kind === 'rotate' && (
        <RotateSecretDialog
          service={open.service}
          onClose={close}
          onRotated={({ clientSecret, previousValidUntil }) =>
            follow({ kind: 'secret', service: open.service, secret: clientSecret, previousValidUntil })
          }
        />
      )}
      {open?.kind === 'secret' && (
        <ClientSecretDialog
          service={open.service}
          secret={open.secret}
          previousValidUntil={open.previousValidUntil}
          onClose={close}
        />
      )}
      {open?.kind === 'remove' && (
        <RemoveServiceDialog service={open.service} onClose={close} onDone={(message) => void done(message)} />
      )}
    </ProgrammePage>
  );
}
