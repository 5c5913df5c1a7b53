import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';

// `portaal import kratos-export DIR`: what `portaal export kratos` wrote, into the admin APIs of a Kratos-compatible
// server and a Keto (Ory's own, or another portal). Kratos gives each identity a new id, so the tuples are written
// with the new ids.

export interface ExportImportReport {
  created: number;
  existing: number;
  refused: { who: string; reason: string }[];
  tuples: number;
  tuplesRefused: string[];
}

const reasonOf = async (response: Response) => {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: { reason?: string; message?: string } };
    return body.error?.reason ?? body.error?.message ?? `${response.status}`;
  } catch {
    return `${response.status} ${text.slice(0, 200)}`;
  }
};

/** The id of the identity whose address is `email` at the admin API, if there is one. */
async function existingId(adminUrl: string, email: string): Promise<string | undefined> {
  const url = new URL('/admin/identities', adminUrl);
  url.searchParams.set('credentials_identifier', email);
  const response = await fetch(url);
  if (!response.ok) return undefined;
  const [found] = (await response.json()) as { id: string }[];
  return found?.id;
}

/**
 * Creates every exported identity at `adminUrl` (an identity whose address is there already is counted and kept),
 * then writes the tuples at `ketoUrl` for the identities' new ids.
 */
export async function importExport(
  dir: string,
  options: { adminUrl: string; ketoUrl?: string },
): Promise<ExportImportReport> {
  const report: ExportImportReport = { created: 0, existing: 0, refused: [], tuples: 0, tuplesRefused: [] };
  const newIds = new Map<string, string>();
  const lines = createInterface({ input: createReadStream(path.join(dir, 'identities.jsonl')), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const { id, identity } = JSON.parse(line) as { id: string; identity: { traits: { email: string } } };
    const who = identity.traits.email;
    const response = await fetch(new URL('/admin/identities', options.adminUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(identity),
    });
    if (response.status === 201) {
      newIds.set(id, ((await response.json()) as { id: string }).id);
      report.created += 1;
      continue;
    }
    const reason = await reasonOf(response);
    const there = response.status === 409 ? await existingId(options.adminUrl, who) : undefined;
    if (there) {
      newIds.set(id, there);
      report.existing += 1;
    } else report.refused.push({ who, reason });
  }
  if (!options.ketoUrl) return report;
  const { relation_tuples: tuples } = JSON.parse(await readFile(path.join(dir, 'relation-tuples.json'), 'utf8')) as {
    relation_tuples: { namespace: string; object: string; relation: string; subject_id?: string }[];
  };
  for (const tuple of tuples) {
    const text = `${tuple.namespace}:${tuple.object}#${tuple.relation}@${tuple.subject_id ?? '(subject set)'}`;
    const subject = tuple.subject_id ? newIds.get(tuple.subject_id) : undefined;
    if (!subject) {
      report.tuplesRefused.push(`${text}: het subject is niet overgenomen`);
      continue;
    }
    const response = await fetch(new URL('/admin/relation-tuples', options.ketoUrl), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...tuple, subject_id: subject }),
    });
    if (response.ok) report.tuples += 1;
    else report.tuplesRefused.push(`${text}: ${await reasonOf(response)}`);
  }
  return report;
}
