import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailAddress } from './EmailAddress';

const ADDRESS = 'anne-marie.vandenberg-oudshoorn@gemeente-sudwest-fryslan.nl';

describe('EmailAddress', () => {
  it('is the address itself, to copy and to hear', () => {
    const { container } = render(<EmailAddress address={ADDRESS} />);
    expect(container.textContent).toBe(ADDRESS);
  });

  it('may wrap after the @ and before a dot, never before the @ nor after a hyphen', () => {
    const { container } = render(<EmailAddress address={ADDRESS} />);
    // The text between the places where it may wrap.
    const lines = container.innerHTML.replace(/<\/?span[^>]*>/g, '').split('<wbr>');
    expect(lines).toEqual(['anne-marie', '.vandenberg-oudshoorn@', 'gemeente-sudwest-fryslan', '.nl']);
    // The '@' stays with the character before it, each hyphen with the character after it.
    const kept = (selector: string) => [...container.querySelectorAll(selector)].map((span) => span.textContent);
    expect(kept('.dvp-nowrap')).toEqual(['n@']);
    expect(kept('.dvp-email__hyphen')).toEqual(['-m', '-o', '-s', '-f']);
  });
});
