import { ApiError } from '../api-error.js';

// A refused data service, said as 'Programmabeheer' says it at the field (apps/web/src/programme/service-form.ts
// checks the same before sending): one Dutch sentence per field, whatever the catalogue's own words for the file.

const URL = 'Vul een adres in dat begint met https:// of http://.';
const URLS = 'Vul op elke regel een adres in dat begint met https:// of http://.';
const SENTENCES: Record<string, string> = {
  id: 'Gebruik voor de code alleen kleine letters, cijfers en koppeltekens, hoogstens 64 tekens.',
  name: 'Vul een naam in van hoogstens 200 tekens, zonder onzichtbare tekens.',
  description: 'Houd de omschrijving op hoogstens 2000 tekens, zonder onzichtbare tekens.',
  url: URL,
  backchannelLogoutUri: URL,
  initiateLoginUri: URL,
  redirectUris: URLS,
  postLogoutRedirectUris: URLS,
  access: 'Kies minstens één organisatie of datarol die de datavoorziening mag gebruiken.',
  clientId: 'Gebruik voor de client-id letters, cijfers, punten, koppeltekens en _, hoogstens 64 tekens.',
  overlapHours: 'Vul een geheel aantal uren in van 0 tot en met 720.',
};

/** The sentence for what was refused at `path` (`oidc.redirectUris[0]`), given the catalogue's words for it. */
function sentenceFor(path: string, words: string): string {
  const field = path
    .replace(/\[\d+\]/g, '')
    .replace(/^oidc\./, '')
    .split('.')[0]!;
  if (field === 'clientId' && words.includes('komt vaker voor'))
    return 'Een andere datavoorziening gebruikt deze client-id al.';
  if (field === 'access' && words.startsWith('onbekende'))
    return 'Een gekozen organisatie of datarol bestaat niet (meer).';
  if (field === 'redirectUris' && path === 'oidc.redirectUris') return 'Vul minstens één redirect-URI in.';
  if (field === 'id' && words === 'verandert niet') return 'De code van een datavoorziening verandert niet.';
  return SENTENCES[field] ?? `${path || 'De datavoorziening'}: ${words}`;
}

/**
 * 400 for a data service that is not valid: the path of what was refused in the English reason (which the screen
 * reads to mark the field), the sentence the screen shows as the message.
 */
export const invalidService = (path: string, words: string) =>
  new ApiError(
    400,
    'invalid_request',
    `The data service is not valid at ${path || 'the top level'}.`,
    sentenceFor(path, words),
  );
