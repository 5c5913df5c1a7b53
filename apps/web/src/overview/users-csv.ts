const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The name of the downloaded file, with the day in the person's time zone: gebruikers-voorbeeldstad-2026-11-23.csv.
 * The file itself comes from the Users API (`GET /users.csv`, its `users/users-csv.ts`).
 */
export const usersCsvName = (organisation: string, on: Date) =>
  `gebruikers-${organisation}-${on.getFullYear()}-${pad(on.getMonth() + 1)}-${pad(on.getDate())}.csv`;
