import { csvFile, usersApi } from '../api/users-api';

// 'Personen importeren' calls of the Users API; apart from api/users-api.ts, so that only this screen's code loads
// them.

export type ImportPlan = 'create' | 'invite' | 'add' | 'unchanged' | 'refused';
export type ImportOutcome = 'created' | 'invited' | 'added' | 'unchanged' | 'refused' | 'failed';

/** A row of an import's file: what will be done (`plan`) and, once done, what was (`outcome`). */
export interface ImportRow {
  line: number;
  email: string;
  first: string;
  last: string;
  dataRoles: string[];
  admin: boolean;
  plan: ImportPlan;
  outcome: ImportOutcome | null;
  reason: string | null;
}

export interface ImportJob {
  id: string;
  fileName: string;
  state: 'preview' | 'running' | 'done';
  createdAt: string;
  progress: {
    total: number;
    done: number;
    plans: Record<ImportPlan, number>;
    outcomes: Record<ImportOutcome, number>;
  };
}

/** Reads and plans a file of people (`POST /imports`); writes nothing but the import. */
export const previewImport = (fileName: string, csv: string) =>
  usersApi<ImportJob & { rows: ImportRow[] }>('/imports', { method: 'POST', body: { fileName, csv } });

/** Starts a previewed import; the server carries it out in the background. */
export const startImport = (id: string) =>
  usersApi<ImportJob>(`/imports/${encodeURIComponent(id)}/start`, { method: 'POST' });

export const importJob = (id: string, signal?: AbortSignal) =>
  usersApi<ImportJob>(`/imports/${encodeURIComponent(id)}`, { signal });

export const importRows = (id: string, signal?: AbortSignal) =>
  usersApi<ImportRow[]>(`/imports/${encodeURIComponent(id)}/rows`, { signal });

/** Every row with what was done, as the CSV file the Users API makes. */
export const importReportFile = (id: string) => csvFile(`/api/imports/${encodeURIComponent(id)}/report.csv`);
