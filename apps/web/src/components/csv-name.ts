const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' });

/**
 * logboek-voorbeeldstad-2026-11-27.csv: what the file is, the organisation, and the day in the Netherlands, as the
 * Users API names its downloads too.
 */
export const csvName = (what: string, organisation: string, on: Date) =>
  `${what}-${organisation}-${dayOf.format(on)}.csv`;
