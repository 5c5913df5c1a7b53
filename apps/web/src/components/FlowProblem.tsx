import { ErrorAlert } from './ErrorAlert';
import { BUSY, UNREACHABLE } from './SupportContact';

const TEXTS = {
  unreachable: UNREACHABLE,
  busy: BUSY,
  failed: 'Er is iets misgegaan in het portaal. Probeer het later nog eens.',
};

/** What went wrong with a flow screen's form (`useSelfServiceFlow`'s `problem`), and who to turn to. */
export function FlowProblem({ problem }: { problem: keyof typeof TEXTS | undefined }) {
  if (!problem) return null;
  return <ErrorAlert text={TEXTS[problem]} support />;
}
