import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '../test-axe';
import { ProgressSteps, RECOVERY_STEPS } from './ProgressSteps';

describe('ProgressSteps', () => {
  it('marks the current step with aria-current="step", the steps before it as done, and no other', async () => {
    const { container } = render(<ProgressSteps steps={RECOVERY_STEPS} current={2} />);
    const steps = within(screen.getByRole('list', { name: 'Voortgang' })).getAllByRole('listitem');
    expect(steps.map((step) => step.getAttribute('aria-current'))).toEqual([null, null, 'step', null]);
    expect(steps[2]).toHaveTextContent('32FA configureren');
    // Where the steps do not fit on one line the CSS shows this count before the current one (journey 14).
    expect(within(steps[2]!).getByText('2FA configureren')).toHaveAttribute('data-count', 'Stap 3 van 4: ');
    expect(steps[0]).toHaveTextContent('Account verifiëren (klaar)');
    expect(steps[3]).not.toHaveTextContent('(klaar)');
    expect(await axeViolations(container)).toEqual([]);
  });
});
