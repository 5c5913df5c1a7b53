import type { ImportJob, ImportOutcome, ImportPlan, ImportRow } from './import-api';

/** What a row will do, as the preview says it. */
const PLAN_WORDS: Record<ImportPlan, string> = {
  create: 'Nieuw account',
  invite: 'Uitnodiging (account bij een andere organisatie)',
  add: 'Datarollen of beheer erbij',
  unchanged: 'Ongewijzigd',
  refused: 'Geweigerd',
};

/** What a row did, as the report says it. */
const OUTCOME_WORDS: Record<ImportOutcome, string> = {
  created: 'Account aangemaakt en uitgenodigd',
  invited: 'Uitgenodigd voor de organisatie',
  added: 'Datarollen of beheer toegevoegd',
  unchanged: 'Ongewijzigd',
  refused: 'Geweigerd',
  failed: 'Mislukt',
};

export const rowWords = (row: ImportRow) => (row.outcome ? OUTCOME_WORDS[row.outcome] : PLAN_WORDS[row.plan]);

const count = (n: number, one: string, more: string) => `${n} ${n === 1 ? one : more}`;

/** '3 nieuwe accounts, 1 uitnodiging, 2 aangevuld, 0 ongewijzigd, 1 geweigerd'. */
export function planSummary({ plans }: ImportJob['progress']): string {
  return [
    count(plans.create, 'nieuw account', 'nieuwe accounts'),
    count(plans.invite, 'uitnodiging', 'uitnodigingen'),
    `${plans.add} aangevuld`,
    `${plans.unchanged} ongewijzigd`,
    `${plans.refused} geweigerd`,
  ].join(', ');
}

/** 'De import is klaar: 3 accounts aangemaakt, 1 uitgenodigd, …'. */
export function outcomeSummary({ outcomes }: ImportJob['progress']): string {
  const parts = [
    `${count(outcomes.created, 'account', 'accounts')} aangemaakt`,
    `${outcomes.invited} uitgenodigd`,
    `${outcomes.added} aangevuld`,
    `${outcomes.unchanged} ongewijzigd`,
    `${outcomes.refused} geweigerd`,
    ...(outcomes.failed > 0 ? [`${outcomes.failed} mislukt`] : []),
  ];
  return `De import is klaar: ${parts.join(', ')}.`;
}

/** Whether starting the import would change anything. */
export const changesAnything = ({ plans }: ImportJob['progress']) => plans.create + plans.invite + plans.add > 0;

/**
 * An example file to fill in: the columns the import reads, and one person with the organisation's first data role,
 * as Dutch spreadsheet programs open it (semicolons, UTF-8 with a byte order mark).
 */
export function exampleFile(dataRoles: { label: string }[]): string {
  const header = 'Voornaam;Achternaam;E-mailadres;Datarollen;Beheerder';
  const example = `Noor;de Vries;noor.devries@voorbeeld.nl;${dataRoles[0]?.label ?? ''};nee`;
  return `\uFEFF${header}\r\n${example}\r\n`;
}
