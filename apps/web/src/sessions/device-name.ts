import Bowser from 'bowser';

const UNKNOWN = 'Onbekend apparaat';

/** How a session's device reads in a list: 'Firefox op Linux', or 'Onbekend apparaat' for an unknown user agent. */
export function deviceName(userAgent: string | undefined): string {
  if (!userAgent) return UNKNOWN;
  const { browser, os } = Bowser.parse(userAgent);
  if (browser.name && os.name) return `${browser.name} op ${os.name}`;
  return browser.name || os.name || UNKNOWN;
}

/** '23 november 2026 om 10:20' in the person's time zone. */
export function signedInAt(iso: string | Date | undefined): string | undefined {
  if (!iso) return undefined;
  const at = new Date(iso);
  const day = new Intl.DateTimeFormat('nl-NL', { day: 'numeric', month: 'long', year: 'numeric' }).format(at);
  const time = new Intl.DateTimeFormat('nl-NL', { hour: '2-digit', minute: '2-digit' }).format(at);
  return `${day} om ${time}`;
}
