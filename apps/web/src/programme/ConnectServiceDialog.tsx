import { InfoDialog } from '../components/InfoDialog';
import { ConnectionGuide } from './ConnectionGuide';
import type { ProgrammeService } from './services-api';

interface ConnectServiceDialogProps {
  service: ProgrammeService;
  onClose(): void;
}

/** 'Koppelen': how to connect a data service to this portal, filled in with the service's own values. */
export function ConnectServiceDialog({ service, onClose }: ConnectServiceDialogProps) {
  return (
    <InfoDialog title={`Koppelen: ${service.name}`} onClose={onClose}>
      <ConnectionGuide service={service} portalOrigin={window.location.origin} />
    </InfoDialog>
  );
}
