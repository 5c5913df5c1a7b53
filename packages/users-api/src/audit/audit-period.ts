const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const OFFSET = /GMT([+-])(\d{2}):(\d{2})/;
const amsterdam = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Amsterdam', timeZoneName: 'longOffset' });

/**
 * The first moment of a day in the Netherlands ('2026-03-29'), as an ISO instant; undefined for what is not a day.
 * Midnight there is 22:00 or 23:00 UTC the day before, and the clocks change at 01:00 UTC: so the offset at 00:00 UTC
 * of that date is the offset at its midnight.
 */
export function startOfDutchDay(day: string): string | undefined {
  const parts = DAY.exec(day);
  if (!parts) return undefined;
  const [year, month, date] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const utc = new Date(Date.UTC(year, month - 1, date));
  if (utc.getUTCFullYear() !== year || utc.getUTCMonth() !== month - 1 || utc.getUTCDate() !== date) return undefined;
  const offset = OFFSET.exec(amsterdam.format(utc));
  const minutes = offset ? (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) : 0;
  return new Date(utc.getTime() - minutes * 60_000).toISOString();
}

/** The first moment of the day after `day` in the Netherlands: where a period that ends with `day` stops. */
export function endOfDutchDay(day: string): string | undefined {
  const start = startOfDutchDay(day);
  if (!start) return undefined;
  const next = new Date(Date.parse(start) + 36 * 3_600_000);
  return startOfDutchDay(next.toISOString().slice(0, 10));
}
