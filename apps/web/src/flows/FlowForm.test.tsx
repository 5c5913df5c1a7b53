import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../test-axe';
import { FlowForm, initialValues, toJsonBody } from './FlowForm';
import type { FlowUi, UiNode } from './ui-types';

const input = (name: string, type: string, extra: Partial<UiNode> & { value?: unknown; label?: string; group?: string } = {}): UiNode => ({
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
    { ...input('identifier', 'text', { value: 'anna@example.nl' }), meta: { label: { id: 1070002, text: 'E-Mail', type: 'info', context: { title: 'E-Mail', name: 'traits.email' } } } },
    { ...input('password', 'password', { group: 'password', messages }), meta: { label: { id: 1070001, text: 'Password', type: 'info' } } },
    { ...input('method', 'submit', { value: 'password', group: 'password' }), meta: { label: { id: 1010022, text: 'Sign in with password', type: 'info' } } },
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
    expect(onSubmit).toHaveBeenCalledWith({ csrf_token: 'token-1', identifier: 'anna@example.nl', password: 'geheim-wachtwoord', method: 'password' });
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
      nodes: [input('csrf_token', 'hidden', { value: 't' }), { ...input('lookup_secret_regenerate', 'submit', { value: 'true', group: 'lookup_secret' }), meta: { label: { id: 1050008, text: 'x', type: 'info' } } }],
    };
    render(<FlowForm ui={ui} onSubmit={onSubmit} />);
    await userEvent.click(screen.getByRole('button', { name: 'Nieuwe back-upcodes maken' }));
    expect(onSubmit).toHaveBeenCalledWith({ csrf_token: 't', lookup_secret_regenerate: 'true', method: 'lookup_secret' });
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
    const failed = loginUi([{ id: 4000032, text: 'The password must be at least 8 characters long, but got 3.', type: 'error', context: { min_length: 8 } }]);
    rerender(<FlowForm ui={failed} onSubmit={onSubmit} />);
    const field = screen.getByLabelText('Wachtwoord');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription('Het wachtwoord moet minimaal 8 tekens bevatten.');
    const summary = screen.getByText('Controleer de volgende velden:').closest('[role="alert"]') as HTMLElement;
    expect(summary).toHaveFocus();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows only the default group and the requested groups', () => {
    const ui: FlowUi = { ...loginUi(), nodes: [...loginUi().nodes, input('totp_code', 'text', { group: 'totp', label: 'Verification code' })] };
    render(<FlowForm ui={ui} groups={['password']} onSubmit={vi.fn()} />);
    expect(screen.queryByLabelText('Verification code')).toBeNull();
    expect(screen.getByLabelText('Wachtwoord')).toBeInTheDocument();
  });

  it('renders flow-level messages above the form, errors as an alert', () => {
    const ui = { ...loginUi(), messages: [{ id: 4000006, text: 'The provided credentials are invalid', type: 'error' }] };
    render(<FlowForm ui={ui} onSubmit={vi.fn()} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Het e-mailadres of wachtwoord klopt niet.');
  });

  it('renders images, links, the backup-code grid with Used entries, checkboxes and multiple selects', async () => {
    const ui: FlowUi = {
      action: '/x',
      method: 'POST',
      nodes: [
        { type: 'img', group: 'totp', attributes: { node_type: 'img', id: 'totp_qr', src: 'data:image/png;base64,AAAA', width: 256, height: 256 }, messages: [], meta: { label: { id: 1050005, text: 'QR', type: 'info' } } },
        { type: 'a', group: 'default', attributes: { node_type: 'a', id: 'link', href: '/recovery', title: { id: 0, text: 'Wachtwoord vergeten', type: 'info' } }, messages: [], meta: {} },
        {
          type: 'text',
          group: 'lookup_secret',
          attributes: {
            node_type: 'text',
            id: 'lookup_secret_codes',
            text: { id: 1050015, text: 'x', type: 'info', context: { secrets: [{ id: 1050009, text: 'abcd1234', type: 'info' }, { id: 1050014, text: 'used', type: 'info' }] } },
          },
          messages: [],
          meta: {},
        },
        { ...input('consent', 'checkbox', { label: 'Akkoord' }) },
        {
          type: 'input',
          group: 'default',
          attributes: { node_type: 'input', name: 'roles', type: 'select-multiple', options: [{ value: 'a', label: 'Rol A' }, { value: 'b', label: 'Rol B' }] },
          messages: [],
          meta: { label: { id: 0, text: 'Rollen', type: 'info' } },
        },
        { type: 'script', group: 'default', attributes: { node_type: 'script', src: 'https://evil.example.com/x.js', integrity: 'sha384-x' }, messages: [], meta: {} },
      ],
    };
    const { container } = render(<FlowForm ui={ui} onSubmit={vi.fn()} />);
    expect(screen.getByRole('img', { name: 'QR-code voor je authenticator-app' })).toHaveAttribute('src', 'data:image/png;base64,AAAA');
    expect(screen.getByRole('link', { name: 'Wachtwoord vergeten' })).toHaveAttribute('href', '/recovery');
    const codes = screen.getByRole('list', { name: 'Back-upcodes' });
    expect(codes).toHaveTextContent('abcd1234');
    expect(codes).toHaveTextContent('Used');
    await userEvent.click(screen.getByLabelText('Akkoord'));
    expect(screen.getByLabelText('Akkoord')).toBeChecked();
    expect(screen.getByLabelText('Rollen')).toHaveProperty('multiple', true);
    expect(container.querySelector('script')).toBeNull();
  });
});
