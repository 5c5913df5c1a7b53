import { ErrorAlert } from './ErrorAlert';
import { UNREACHABLE } from './SupportContact';

/** What went wrong with a flow screen's form (`useSelfServiceFlow`'s `problem`), and who to turn to. */
export function FlowProblem({ problem }: { problem: 'unreachable' | 'failed' | undefined }) {
  if (!problem) return null;
  return (
    <ErrorAlert
      text={
        problem === 'unreachable' ? UNREACHABLE : 'Er is iets misgegaan in het portaal. Probeer het later nog eens.'
      }
      support
    />
  );
}
