import Bowser from 'bowser';
import { longDateTime } from '../i18n/dates';

const UNKNOWN = 'Onbekend apparaat';

/** How a session's device reads in a list: 'Firefox op Linux', or 'Onbekend apparaat' for an unknown user agent. */
export function deviceName(userAgent: string | undefined): string {
  if (!userAgent) return UNKNOWN;
  const { browser, os } = Bowser.parse(userAgent);
  if (browser.name && os.name) return `${browser.name} op ${os.name}`;
  return browser.name || os.name || UNKNOWN;
}

/** '23 november 2026 om 10:20', Dutch time (i18n/dates.ts). */
export const signedInAt = (iso: string | Date | undefined): string | undefined => (iso ? longDateTime(iso) : undefined);

/** What a session's row says besides the device, so that two sessions on the same kind of device differ. */
interface SessionLike {
  id: string;
  authenticated_at?: string | Date;
  devices?: { ip_address?: string }[];
}

/**
 * 'Ingelogd op 23 november 2026 om 10:20', 'IP-adres 192.0.2.10' when known, and 'kenmerk 1a2b3c4d': the start of the
 * session's id, which tells apart two sessions of the same browser signed in the same minute from the same address.
 */
export function sessionDetails(session: SessionLike): string[] {
  const ip = session.devices?.[0]?.ip_address;
  return [
    `Ingelogd op ${signedInAt(session.authenticated_at) ?? 'onbekende datum'}`,
    ...(ip ? [`IP-adres ${ip}`] : []),
    `kenmerk ${session.id.replace(/-/g, '').slice(0, 8)}`,
  ];
}
