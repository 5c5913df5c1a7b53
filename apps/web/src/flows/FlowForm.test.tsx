import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../test-axe';
import { FlowForm, initialValues, toJsonBody } from './FlowForm';
import type { FlowUi, UiNode } from './ui-types';

const input = (
  name: string,
  type: string,
  extra: Partial<UiNode> & { value?: unknown; label?: string; group?: string } = {},
): UiNode => ({
  type: 'input',
  group: extra.group ?? 'default',
  attributes: { node_type: 'input', name, type, value: extra.value, required: type !== 'hidden' },
  messages: extra.messages ?? [],
  meta: extra.label ? { label: { id: 0, text: extra.label, type: 'info' } } : {},
});

const loginUi = (messages: UiNode['messages'] = []): FlowUi => ({
  action: '/self-service/login?flow=1',
  method: 'POST',
  nodes: [
    input('csrf_token', 'hidden', { value: 'token-1' }),
    {
      ...input('identifier', 'text', { value: 'anna@example.nl' }),
      meta: {
        label: { id: 1070002, text: 'E-Mail', type: 'info', context: { title: 'E-Mail', name: 'traits.email' } },
      },
    },
    {
      ...input('password', 'password', { group: 'password', messages }),
      meta: { label: { id: 1070001, text: 'Password', type: 'info' } },
    },
    {
      ...input('method', 'submit', { value: 'password', group: 'password' }),
      meta: { label: { id: 1010022, text: 'Sign in with password', type: 'info' } },
    },
  ],
});

describe('FlowForm', () => {
  it('starts from the node values, leaving out buttons', () => {
    expect(initialValues(loginUi())).toEqual({ csrf_token: 'token-1', identifier: 'anna@example.nl' });
  });

  it('renders labelled inputs in Dutch and merges the submitter into the submitted values', async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    const { container } = render(<FlowForm ui={loginUi()} onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Wachtwoord'), 'geheim-wachtwoord');
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
    expect(onSubmit).toHaveBeenCalledWith({
      csrf_token: 'token-1',
      identifier: 'anna@example.nl',
      password: 'geheim-wachtwoord',
      method: 'password',
    });
    expect(screen.getByLabelText('E-mailadres')).toHaveValue('anna@example.nl');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('nests dotted names for the JSON body', () => {
    expect(toJsonBody({ 'traits.email': 'a@b.nl', 'traits.name.first': 'Anna', method: 'profile' })).toEqual({
      traits: { email: 'a@b.nl', name: { first: 'Anna' } },
      method: 'profile',
    });
  });

  it('sends the group of a button that is not itself the method as the method', async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    const ui: FlowUi = {
      action: '/x',
      method: 'POST',
      nodes: [
        input('csrf_token', 'hidden', { value: 't' }),
        {
          ...input('lookup_secret_regenerate', 'submit', { value: 'true', group: 'lookup_secret' }),
          meta: { label: { id: 1050008, text: 'x', type: 'info' } },
        },
      ],
    };
    render(<FlowForm ui={ui} onSubmit={onSubmit} />);
    await userEvent.click(screen.getByRole('button', { name: 'Nieuwe back-upcodes maken' }));
    expect(onSubmit).toHaveBeenCalledWith({
      csrf_token: 't',
      lookup_secret_regenerate: 'true',
      method: 'lookup_secret',
    });
  });

  it('ignores a second submit while the first is in flight', async () => {
    let finish: () => void = () => {};
    const onSubmit = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<FlowForm ui={loginUi()} onSubmit={onSubmit} />);
    const form = screen.getByRole('button', { name: 'Inloggen' }).closest('form')!;
    fireEvent.submit(form);
    fireEvent.submit(form);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(screen.getByLabelText('Wachtwoord')).toBeDisabled();
    await act(async () => finish());
  });

  it('puts error messages under their field, ties them to the input and shows a summary', async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    const { rerender, container } = render(<FlowForm ui={loginUi()} onSubmit={onSubmit} />);
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
    const failed = loginUi([
      {
        id: 4000032,
        text: 'The password must be at least 8 characters long, but got 3.',
        type: 'error',
        context: { min_length: 8 },
      },
    ]);
    rerender(<FlowForm ui={failed} onSubmit={onSubmit} />);
    const field = screen.getByLabelText('Wachtwoord');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription('Het wachtwoord moet minimaal 8 tekens bevatten.');
    const summary = screen.getByText('Controleer de volgende velden:').closest('[role="alert"]') as HTMLElement;
    expect(summary).toHaveFocus();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows only the default group and the requested groups', () => {
    const ui: FlowUi = {
      ...loginUi(),
      nodes: [...loginUi().nodes, input('totp_code', 'text', { group: 'totp', label: 'Verification code' })],
    };
    render(<FlowForm ui={ui} groups={['password']} onSubmit={vi.fn()} />);
    expect(screen.queryByLabelText('Verification code')).toBeNull();
    expect(screen.getByLabelText('Wachtwoord')).toBeInTheDocument();
  });

  it('renders flow-level messages above the form, errors as an alert', () => {
    const ui = {
      ...loginUi(),
      messages: [{ id: 4000006, text: 'The provided credentials are invalid', type: 'error' }],
    };
    render(<FlowForm ui={ui} onSubmit={vi.fn()} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Het e-mailadres of wachtwoord klopt niet.');
  });

  it('renders images, links, the backup-code grid with Used entries, checkboxes and multiple selects', async () => {
    const ui: FlowUi = {
      action: '/x',
      method: 'POST',
      nodes: [
        {
          type: 'img',
          group: 'totp',
          attributes: { node_type: 'img', id: 'totp_qr', src: 'data:image/png;base64,AAAA', width: 256, height: 256 },
          messages: [],
          meta: { label: { id: 1050005, text: 'QR', type: 'info' } },
        },
        {
          type: 'a',
          group: 'default',
          attributes: {
            node_type: 'a',
            id: 'link',
            href: '/recovery',
            title: { id: 0, text: 'Wachtwoord vergeten', type: 'info' },
          },
          messages: [],
          meta: {},
        },
        {
          type: 'text',
          group: 'lookup_secret',
          attributes: {
            node_type: 'text',
            id: 'lookup_secret_codes',
            text: {
              id: 1050015,
              text: 'x',
              type: 'info',
              context: {
                secrets: [
                  { id: 1050009, text: 'abcd1234', type: 'info' },
                  { id: 1050014, text: 'used', type: 'info' },
                ],
              },
            },
          },
          messages: [],
          meta: {},
        },
        { ...input('consent', 'checkbox', { label: 'Akkoord' }) },
        {
          type: 'input',
          group: 'default',
          attributes: {
            node_type: 'input',
            name: 'roles',
            type: 'select-multiple',
            options: [
              { value: 'a', label: 'Rol A' },
              { value: 'b', label: 'Rol B' },
            ],
          },
          messages: [],
          meta: { label: { id: 0, text: 'Rollen', type: 'info' } },
        },
        {
          type: 'script',
          group: 'default',
          attributes: { node_type: 'script', src: 'https://evil.example.com/x.js', integrity: 'sha384-x' },
          messages: [],
          meta: {},
        },
      ],
    };
    const { container } = render(<FlowForm ui={ui} onSubmit={vi.fn()} />);
    expect(screen.getByRole('img', { name: 'QR-code voor je authenticator-app' })).toHaveAttribute(
      'src',
      'data:image/png;base64,AAAA',
    );
    expect(screen.getByRole('link', { name: 'Wachtwoord vergeten' })).toHaveAttribute('href', '/recovery');
    const codes = screen.getByRole('list', { name: 'Back-upcodes' });
    expect(codes).toHaveTextContent('abcd1234');
    expect(codes).toHaveTextContent('Used');
    // The spec's English word on a Dutch page, marked as English (WCAG 3.1.2).
    expect(screen.getByText('Used')).toHaveAttribute('lang', 'en');
    await userEvent.click(screen.getByLabelText('Akkoord'));
    expect(screen.getByLabelText('Akkoord')).toBeChecked();
    expect(screen.getByLabelText('Rollen')).toHaveProperty('multiple', true);
    expect(container.querySelector('script')).toBeNull();
  });

  it('renders every input attribute: hidden, disabled, placeholder, text types, buttons, select options', async () => {
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => undefined);
    const onSubmit = vi.fn();
    const ui: FlowUi = {
      action: '/x',
      method: 'POST',
      nodes: [
        input('csrf_token', 'hidden', { value: 'geheim' }),
        {
          ...input('traits.email', 'email', { label: 'E-mailadres' }),
          attributes: {
            node_type: 'input',
            name: 'traits.email',
            type: 'email',
            placeholder: 'naam@gemeente.nl',
            disabled: true,
            value: 'a@b.nl',
          },
        },
        { ...input('traits.phone', 'tel', { label: 'Telefoon' }) },
        {
          type: 'input',
          group: 'default',
          attributes: {
            node_type: 'input',
            name: 'roles',
            type: 'select-multiple',
            selectId: 'rollen-keuze',
            value: ['b'],
            options: [
              { value: 'a', label: 'Rol A' },
              { value: 'b', label: { id: 0, text: 'Rol B', type: 'info' } },
              { value: 'c' },
            ],
          },
          messages: [],
          meta: { label: { id: 0, text: 'Rollen', type: 'info' } },
        },
        {
          ...input('resend', 'button', { value: 'ja', label: 'Opnieuw sturen' }),
          attributes: {
            node_type: 'input',
            name: 'resend',
            type: 'button',
            value: 'ja',
            onclick: 'window.__flowNodeOnclick = true',
          },
        },
        { ...input('cancel', 'cancel-button', { label: 'Annuleren' }) },
        { ...input('method', 'submit', { value: 'code', label: 'Versturen' }) },
      ],
    };
    const { container } = render(<FlowForm ui={ui} onSubmit={onSubmit} />);
    const hidden = container.querySelector<HTMLInputElement>('input[name="csrf_token"]');
    expect(hidden).toHaveAttribute('type', 'hidden');
    expect(hidden).toHaveValue('geheim');
    const email = screen.getByLabelText('E-mailadres');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toHaveAttribute('placeholder', 'naam@gemeente.nl');
    expect(email).toBeDisabled();
    expect(screen.getByLabelText('Telefoon')).toHaveAttribute('type', 'tel');
    const roles = screen.getByLabelText('Rollen');
    expect(roles).toHaveAttribute('id', 'rollen-keuze');
    expect(
      [...(roles as HTMLSelectElement).options].map((option) => [option.value, option.textContent, option.selected]),
    ).toEqual([
      ['a', 'Rol A', false],
      ['b', 'Rol B', true],
      ['c', 'c', false],
    ]);
    // An onclick string from the server is never run, nor put on the element.
    const resend = screen.getByRole('button', { name: 'Opnieuw sturen' });
    expect(resend).toHaveAttribute('type', 'button');
    expect(resend).not.toHaveAttribute('onclick');
    await userEvent.click(resend);
    expect((window as unknown as Record<string, unknown>).__flowNodeOnclick).toBeUndefined();
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Annuleren' }));
    expect(back).toHaveBeenCalledTimes(1);
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Versturen' }));
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ csrf_token: 'geheim', method: 'code', roles: ['b'] }),
    );
    expect(await axeViolations(container)).toEqual([]);
    back.mockRestore();
  });

  it('renders a same-origin script only with its integrity hash, with async, crossorigin, referrerpolicy', () => {
    const script = (id: string, attributes: Partial<UiNode['attributes']>): UiNode => ({
      type: 'script',
      group: 'default',
      attributes: { node_type: 'script', id, ...attributes },
      messages: [],
      meta: {},
    });
    const ui: FlowUi = {
      action: '/x',
      method: 'POST',
      nodes: [
        script('eigen', {
          src: '/.well-known/webauthn.js',
          integrity: 'sha384-abc',
          async: true,
          crossorigin: 'anonymous',
          referrerpolicy: 'no-referrer',
        }),
        script('zonder-hash', { src: '/.well-known/other.js' }),
        script('vreemd', { src: 'https://evil.example.com/x.js', integrity: 'sha384-x' }),
      ],
    };
    render(<FlowForm ui={ui} onSubmit={vi.fn()} />);
    // React puts an async script into the document's head.
    const scripts = [...document.querySelectorAll('script')];
    expect(scripts.map((element) => element.id)).toEqual(['eigen']);
    expect(scripts[0]).toHaveAttribute('src', '/.well-known/webauthn.js');
    expect(scripts[0]).toHaveAttribute('integrity', 'sha384-abc');
    expect(scripts[0]).toHaveAttribute('crossorigin', 'anonymous');
    expect(scripts[0]).toHaveAttribute('referrerpolicy', 'no-referrer');
    expect(scripts[0]).toHaveAttribute('async');
  });

  describe('after a submit (WCAG 2.4.3, 3.3.1)', () => {
    /** The second sign-in step as the provider sends it: app code, backup code, their buttons. */
    const secondStep = (messages: UiNode['messages'] = []): FlowUi => ({
      action: '/self-service/login?flow=2',
      method: 'POST',
      messages,
      nodes: [
        input('csrf_token', 'hidden', { value: 'token-2' }),
        {
          ...input('totp_code', 'text', { group: 'totp' }),
          meta: { label: { id: 1010006, text: 'Authentication code', type: 'info' } },
        },
        {
          ...input('method', 'submit', { value: 'totp', group: 'totp' }),
          meta: { label: { id: 1010009, text: 'Use Authenticator', type: 'info' } },
        },
        {
          ...input('lookup_secret', 'text', { group: 'lookup_secret' }),
          meta: { label: { id: 1010007, text: 'Backup recovery code', type: 'info' } },
        },
        {
          ...input('method', 'submit', { value: 'lookup_secret', group: 'lookup_secret' }),
          meta: { label: { id: 1010010, text: 'Use backup code', type: 'info' } },
        },
      ],
    });
    const WRONG_CODE = {
      id: 4000008,
      text: 'The provided authentication code is invalid, please try again.',
      type: 'error',
    };

    it('puts a form-wide wrong-code message under the code field, marks it and focuses the summary', async () => {
      const onSubmit = vi.fn().mockResolvedValue(undefined);
      const { rerender, container } = render(<FlowForm ui={secondStep()} onSubmit={onSubmit} />);
      await userEvent.type(screen.getByLabelText('Verificatiecode'), '000000');
      await userEvent.click(screen.getByRole('button', { name: 'Gebruik je authenticator-app' }));
      rerender(<FlowForm ui={secondStep([WRONG_CODE])} onSubmit={onSubmit} />);
      const dutch =
        'De verificatiecode klopt niet of is al gebruikt. Vul de code in die je authenticator-app nu laat zien.';
      const code = screen.getByLabelText('Verificatiecode');
      expect(code).toHaveAttribute('aria-invalid', 'true');
      expect(code).toHaveAccessibleDescription(dutch);
      expect(screen.getByLabelText('Back-upcode')).not.toHaveAttribute('aria-invalid');
      // Said once, in the summary that has the focus, and under the field; not a third time above the form.
      const summary = screen.getByRole('alert', { name: 'Controleer de volgende velden:' });
      expect(within(summary).getByRole('listitem')).toHaveTextContent(dutch);
      expect(summary).toHaveFocus();
      expect(screen.getAllByRole('alert')).toHaveLength(1);
      expect(screen.getAllByText(dutch)).toHaveLength(2);
      expect(await axeViolations(container)).toEqual([]);
    });

    it('puts a used backup code under the backup-code field', () => {
      render(
        <FlowForm
          ui={secondStep([{ id: 4000012, text: 'This backup recovery code has already been used.', type: 'error' }])}
          onSubmit={vi.fn()}
        />,
      );
      expect(screen.getByLabelText('Back-upcode')).toHaveAccessibleDescription(
        'Deze back-upcode is al gebruikt. Vul een andere back-upcode in.',
      );
      expect(screen.getByLabelText('Verificatiecode')).not.toHaveAttribute('aria-invalid');
    });

    it('names the empty field and what to do, instead of a count of characters', async () => {
      const onSubmit = vi.fn().mockResolvedValue(undefined);
      const { rerender } = render(<FlowForm ui={loginUi()} onSubmit={onSubmit} />);
      await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
      const empty = { id: 4000003, text: 'length must be >= 1, but got 0', type: 'error', context: { min_length: 1 } };
      const failed = loginUi([empty]);
      failed.nodes[1] = { ...failed.nodes[1]!, messages: [empty] };
      rerender(<FlowForm ui={failed} onSubmit={onSubmit} />);
      expect(screen.getByLabelText('E-mailadres')).toHaveAccessibleDescription('Vul je e-mailadres in.');
      expect(screen.getByLabelText('Wachtwoord')).toHaveAccessibleDescription('Vul je wachtwoord in.');
      expect(
        within(screen.getByRole('alert', { name: 'Controleer de volgende velden:' }))
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(['Vul je e-mailadres in.', 'Vul je wachtwoord in.']);
      expect(screen.queryByText(/teken/)).toBeNull();
    });

    it('focuses the form’s error message after a refused sign-in', async () => {
      const onSubmit = vi.fn().mockResolvedValue(undefined);
      const { rerender } = render(<FlowForm ui={loginUi()} onSubmit={onSubmit} />);
      await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
      rerender(
        <FlowForm
          ui={{
            ...loginUi(),
            messages: [{ id: 4000006, text: 'The provided credentials are invalid', type: 'error' }],
          }}
          onSubmit={onSubmit}
        />,
      );
      expect(screen.getByRole('alert')).toHaveTextContent('Het e-mailadres of wachtwoord klopt niet.');
      expect(screen.getByRole('alert')).toHaveFocus();
    });

    it('marks an untranslated provider message as English: on the form, under a field, in the summary', async () => {
      const unknown = { id: 4999999, text: 'Something entirely new went wrong.', type: 'error' };
      const onSubmit = vi.fn().mockResolvedValue(undefined);
      const { rerender, container } = render(<FlowForm ui={loginUi()} onSubmit={onSubmit} />);
      await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
      rerender(
        <FlowForm ui={{ ...loginUi([unknown]), messages: [{ ...unknown, id: 4999998 }] }} onSubmit={onSubmit} />,
      );
      const english = screen.getAllByText('Something entirely new went wrong.');
      expect(english).toHaveLength(3);
      for (const text of english) expect(text.closest('[lang="en"]')).not.toBeNull();
      expect(screen.getByText('Controleer de volgende velden:').closest('[lang]')).toBeNull();
      expect(await axeViolations(container)).toEqual([]);
    });

    it('brings the focus back to the button when the answer says nothing, not leaving it on the page', async () => {
      // A browser drops the focus to the page when the focused button is disabled while sending.
      const onSubmit = vi.fn(async () => (document.activeElement as HTMLElement | null)?.blur());
      render(<FlowForm ui={loginUi()} onSubmit={onSubmit} />);
      await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Inloggen' })).toHaveFocus());
    });
  });
});
