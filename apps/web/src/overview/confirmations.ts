import { resendInvitation, usersApi, withdrawInvitation, type PortalUser } from '../api/users-api';
import type { RowActionKind } from './RowActions';
import { isGuest } from './RowActions';
import { fullName } from './sorting';

/** The row actions that ask first: all but 'Bewerken', which opens the user form. */
export type ConfirmKind = Exclude<RowActionKind, 'edit'>;

/** One confirmation of the overview: what the dialog says, the call it makes, and what follows. */
export interface Confirmation {
  title: string;
  confirmLabel: string;
  danger: boolean;
  /** The question, about `user`; `organisation` is the administrator's active organisation. */
  text(user: PortalUser, organisation: string | undefined): string;
  call(user: PortalUser): Promise<unknown>;
  /** The toast after success. */
  success(user: PortalUser): string;
  /** The dialog's own text when the call fails without a reason from the server. */
  fallback: string;
  /** The text for a 404, where the spec has one. */
  notFound?: string;
}

const setState = (user: PortalUser, state: 'active' | 'inactive') =>
  usersApi(`/users/${user.id}`, { method: 'PUT', body: { schema_id: user.schema_id, state, traits: user.traits } });

const STATUS_FAILED = 'Fout opgetreden bij wijzigen gebruiker status.';
const DELETE_FAILED = 'Fout opgetreden bij verwijderen gebruiker.';
const deleteCall = (user: PortalUser) => usersApi(`/users?id=${user.id}`, { method: 'DELETE' });

/** Deleting a guest takes them out of this organisation only; their home keeps the account. */
const REMOVE_GUEST: Confirmation = {
  title: 'Gebruiker uit je organisatie verwijderen',
  confirmLabel: 'Verwijderen',
  danger: true,
  text: (user) =>
    `Weet je zeker dat je ${fullName(user)} uit je organisatie wilt verwijderen? Het account blijft bestaan voor de ` +
    'andere organisatie(s).',
  call: deleteCall,
  success: () => 'Gebruiker uit je organisatie verwijderd.',
  fallback: DELETE_FAILED,
};

/** Every confirmation with its texts (the spec's, where it has them). */
const CONFIRMATIONS: Record<ConfirmKind, Confirmation> = {
  block: {
    title: 'Gebruiker blokkeren',
    confirmLabel: 'Blokkeren',
    danger: true,
    text: () => 'Weet je zeker dat je de gebruiker wil blokkeren?',
    call: (user) => setState(user, 'inactive'),
    success: () => 'Gebruiker geblokkeerd.',
    fallback: STATUS_FAILED,
  },
  unblock: {
    title: 'Gebruiker deblokkeren',
    confirmLabel: 'Deblokkeren',
    danger: false,
    text: () => 'Weet je zeker dat je de gebruiker wil deblokkeren?',
    call: (user) => setState(user, 'active'),
    success: () => 'Gebruiker gedeblokkeerd.',
    fallback: STATUS_FAILED,
  },
  delete: {
    title: 'Gebruiker verwijderen',
    confirmLabel: 'Verwijderen',
    danger: true,
    text: () => 'Weet je zeker dat je de gebruiker wil verwijderen?',
    call: deleteCall,
    success: () => 'Gebruiker verwijderd.',
    fallback: DELETE_FAILED,
  },
  resend: {
    title: 'Uitnodiging opnieuw versturen',
    confirmLabel: 'Versturen',
    danger: false,
    text: (user) =>
      `Weet je zeker dat je de uitnodiging van ${fullName(user)} (${user.traits.email}) opnieuw wilt versturen? ` +
      `${fullName(user)} krijgt een nieuwe e-mail, en de uitnodiging is daarna weer even lang geldig als de ` +
      'eerste keer.',
    call: (user) => resendInvitation(user.invitation?.id ?? ''),
    success: (user) => `Uitnodiging opnieuw verstuurd naar ${user.traits.email}.`,
    fallback: 'Opnieuw versturen van de uitnodiging is niet gelukt. Probeer het later nog eens.',
  },
  withdraw: {
    title: 'Uitnodiging intrekken',
    confirmLabel: 'Intrekken',
    danger: true,
    text: (user, organisation) =>
      `Weet je zeker dat je de uitnodiging van ${fullName(user)} (${user.traits.email}) wilt intrekken? De ` +
      `uitnodiging vervalt dan en ${fullName(user)} wordt geen lid van ${organisation ?? ''}.`,
    call: (user) => withdrawInvitation(user.invitation?.id ?? ''),
    success: () => 'Uitnodiging ingetrokken.',
    fallback: 'Intrekken van de uitnodiging is niet gelukt. Probeer het later nog eens.',
  },
  unlock: {
    title: 'Account ontgrendelen',
    confirmLabel: 'Ontgrendelen',
    danger: false,
    text: (user) =>
      `Het account van ${fullName(user)} is vergrendeld omdat er te vaak een verkeerd wachtwoord is ingevuld. Weet ` +
      `je zeker dat je het account wil ontgrendelen? Doe dit alleen als je weet dat ${fullName(user)} het zelf was.`,
    call: (user) => usersApi(`/users/${user.id}/lock`, { method: 'DELETE' }),
    success: () => 'Account ontgrendeld.',
    fallback: 'Ontgrendelen van het account is niet gelukt.',
  },
  signout: {
    title: 'Afmelden op alle apparaten',
    confirmLabel: 'Afmelden',
    danger: true,
    text: (user) =>
      `Weet je zeker dat je ${fullName(user)} op alle apparaten wil afmelden? Wie nu met dit account is ingelogd, ` +
      'moet opnieuw inloggen. Het account blijft verder zoals het is.',
    call: (user) => usersApi(`/users/${user.id}/sessions`, { method: 'DELETE' }),
    success: (user) => `${fullName(user)} is op alle apparaten afgemeld.`,
    fallback: 'Afmelden op alle apparaten is niet gelukt.',
  },
  reset: {
    title: '2FA Resetten',
    confirmLabel: 'Resetten',
    danger: true,
    text: (user) =>
      `Weet je zeker dat je de tweestapsverificatie van ${fullName(user)} wil resetten? De gebruiker moet daarna ` +
      'bij de volgende keer inloggen de authenticator-app opnieuw instellen.' +
      (user.credentials.includes('webauthn') ? ' Ook de beveiligingssleutels worden verwijderd.' : ''),
    call: (user) => usersApi(`/users/${user.id}/totp`, { method: 'DELETE' }),
    success: () => '2FA reset succesvol',
    fallback: 'Fout opgetreden bij het resetten van 2FA.',
    notFound: 'Kan gebruiker niet vinden.',
  },
};

/** The confirmation of `kind` for `user`; none for sending or withdrawing where there is no invitation. */
export function confirmationOf(kind: ConfirmKind, user: PortalUser): Confirmation | undefined {
  if ((kind === 'withdraw' || kind === 'resend') && !user.invitation) return undefined;
  if (kind === 'delete' && isGuest(user)) return REMOVE_GUEST;
  return CONFIRMATIONS[kind];
}
