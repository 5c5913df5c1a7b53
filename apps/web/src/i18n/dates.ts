// Every moment the portal shows is Dutch time, as in its mails and CSV exports: an administrator who compares the
// overview with the Logboek or a mail sees the same clock, whatever time zone the browser is set to.
const ZONE = 'Europe/Amsterdam';

const day = new Intl.DateTimeFormat('nl-NL', { timeZone: ZONE, day: 'numeric', month: 'long', year: 'numeric' });
const clock = new Intl.DateTimeFormat('nl-NL', { timeZone: ZONE, hour: '2-digit', minute: '2-digit' });

/** '23 november 2026'. */
export const longDate = (at: string | Date) => day.format(new Date(at));

/** '09:05'. */
export const timeOfDay = (at: string | Date) => clock.format(new Date(at));

/** '23 november 2026 om 19:45', for a moment within the day that matters (the end of a lock, a sign-in). */
export const longDateTime = (at: string | Date) => `${longDate(at)} om ${timeOfDay(at)}`;
