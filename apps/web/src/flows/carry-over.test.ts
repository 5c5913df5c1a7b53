import { describe, expect, it } from 'vitest';
import { keptValues, withKeptValues } from './carry-over';
import type { UiNode } from './ui-types';

const input = (name: string, type: string, value?: string): UiNode => ({
  type: 'input',
  group: 'default',
  attributes: { node_type: 'input', name, type, value },
  messages: [],
  meta: {},
});

describe('carrying what was typed into the flow that replaces an expired one', () => {
  it('keeps the identifier and profile fields of a sent body, never a password, code or token', () => {
    expect(
      keptValues({
        identifier: 'anna@voorbeeldstad.nl',
        password: 'geheim',
        csrf_token: 'token',
        method: 'password',
        totp_code: '123456',
        traits: { email: 'anna@voorbeeldstad.nl', name: { first: 'Anna', last: '' } },
      }),
    ).toEqual({
      identifier: 'anna@voorbeeldstad.nl',
      'traits.email': 'anna@voorbeeldstad.nl',
      'traits.name.first': 'Anna',
    });
  });

  it('fills the empty fields of the same name only, leaving hidden fields and values the provider set', () => {
    const flow = {
      id: 'f2',
      ui: {
        action: '/self-service/login?flow=f2',
        method: 'POST',
        nodes: [
          input('csrf_token', 'hidden', 'nieuw'),
          input('identifier', 'text'),
          input('password', 'password'),
          input('traits.email', 'email', 'al@gezet.nl'),
        ],
      },
    };
    const filled = withKeptValues(flow, { identifier: 'anna@voorbeeldstad.nl', 'traits.email': 'anna@x.nl' });
    expect(filled.ui.nodes.map((node) => node.attributes.value)).toEqual([
      'nieuw',
      'anna@voorbeeldstad.nl',
      undefined,
      'al@gezet.nl',
    ]);
    expect(flow.ui.nodes[1]!.attributes.value).toBeUndefined();
  });
});
