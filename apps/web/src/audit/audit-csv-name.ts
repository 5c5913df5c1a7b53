const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' });

/** logboek-voorbeeldstad-2026-11-27.csv, as the Users API names the file too. */
export const auditCsvName = (organisation: string, on: Date) => `logboek-${organisation}-${dayOf.format(on)}.csv`;
