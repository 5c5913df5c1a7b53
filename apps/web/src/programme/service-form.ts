import { z } from 'zod';
import { codeSchema, nameSchema } from './catalogue-fields';
import type { ProgrammeService } from './services-api';

// The form of a data service and how it becomes the catalogue's shape, checked as the server checks it
// (packages/users-api/src/catalogue/catalogue.ts): the form checks first only to save a round trip.

const URL_RULE = 'Vul een adres in dat begint met https:// of http://.';
export const URLS_RULE = 'Vul op elke regel een adres in dat begint met https:// of http://.';
const REDIRECT_RULE = 'Vul minstens één redirect-URI in.';
const ACCESS_RULE = 'Kies minstens één organisatie of datarol die de datavoorziening mag gebruiken.';
export const CLIENT_ID_RULE =
  'Gebruik voor de client-id letters, cijfers, punten, koppeltekens en _, hoogstens 64 tekens.';
const DESCRIPTION_RULE = 'Houd de omschrijving op hoogstens 2000 tekens, zonder onzichtbare tekens.';

const isUrl = (text: string) => {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
};
/** The addresses of a text field that takes one per line, empty lines left out. */
const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export const serviceFormSchema = (editing: boolean) =>
  z
    .object({
      id: editing ? z.string() : codeSchema,
      label: nameSchema,
      // Hidden characters are left to the server, which knows where an emoji may join another.
      description: z.string().trim().max(2000, DESCRIPTION_RULE),
      url: z.string().trim().refine(isUrl, URL_RULE),
      organisations: z.array(z.string()),
      dataRoles: z.array(z.string()),
      forwardAuth: z.boolean(),
      oidc: z.boolean(),
      clientId: z.string().trim(),
      clientType: z.enum(['confidential', 'public']),
      // The client's fields count only while it is switched on: switched off, they are hidden and not sent.
      redirectUris: z.string(),
      postLogoutRedirectUris: z.string(),
      backchannelLogoutUri: z.string().trim(),
      initiateLoginUri: z.string().trim(),
    })
    .superRefine((values, context) => {
      if (values.organisations.length + values.dataRoles.length === 0)
        context.addIssue({ code: 'custom', path: ['organisations'], message: ACCESS_RULE });
      if (!values.oidc) return;
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(values.clientId))
        context.addIssue({ code: 'custom', path: ['clientId'], message: CLIENT_ID_RULE });
      const redirects = linesOf(values.redirectUris);
      if (redirects.length === 0 || !redirects.every(isUrl))
        context.addIssue({
          code: 'custom',
          path: ['redirectUris'],
          message: redirects.length === 0 ? REDIRECT_RULE : URLS_RULE,
        });
      if (!linesOf(values.postLogoutRedirectUris).every(isUrl))
        context.addIssue({ code: 'custom', path: ['postLogoutRedirectUris'], message: URLS_RULE });
      for (const field of ['backchannelLogoutUri', 'initiateLoginUri'] as const)
        if (values[field] !== '' && !isUrl(values[field]))
          context.addIssue({ code: 'custom', path: [field], message: URL_RULE });
    });

export type ServiceFormInput = z.input<ReturnType<typeof serviceFormSchema>>;
export type ServiceFormValues = z.output<ReturnType<typeof serviceFormSchema>>;

/** The fields in the order the form shows them, for the error summary. */
export const SERVICE_FIELDS = [
  'id',
  'label',
  'description',
  'url',
  // Who may use it: the error of the access choices as a whole.
  'organisations',
  'clientId',
  'redirectUris',
  'postLogoutRedirectUris',
  'backchannelLogoutUri',
  'initiateLoginUri',
] as const;

/** The form's values for a service, or for a new one (forward-auth on, a confidential client switched off). */
export function formValuesOf(service?: ProgrammeService): ServiceFormInput {
  const oidc = service?.oidc;
  return {
    id: service?.id ?? '',
    label: service?.name ?? '',
    description: service?.description ?? '',
    url: service?.url ?? '',
    organisations: service?.access.organisations ?? [],
    dataRoles: service?.access.dataRoles ?? [],
    forwardAuth: service?.forwardAuth ?? true,
    oidc: oidc !== undefined,
    clientId: oidc?.clientId ?? '',
    clientType: oidc?.type ?? 'confidential',
    redirectUris: oidc?.redirectUris.join('\n') ?? '',
    postLogoutRedirectUris: oidc?.postLogoutRedirectUris.join('\n') ?? '',
    backchannelLogoutUri: oidc?.backchannelLogoutUri ?? '',
    initiateLoginUri: oidc?.initiateLoginUri ?? '',
  };
}

/** The service as the API takes it: empty optional addresses left out, the client only when switched on. */
export function serviceOf(values: ServiceFormValues): ProgrammeService {
  return {
    id: values.id,
    name: values.label,
    description: values.description,
    url: values.url,
    access: { organisations: values.organisations, dataRoles: values.dataRoles },
    forwardAuth: values.forwardAuth,
    ...(values.oidc
      ? {
          oidc: {
            clientId: values.clientId,
            type: values.clientType,
            redirectUris: linesOf(values.redirectUris),
            postLogoutRedirectUris: linesOf(values.postLogoutRedirectUris),
            ...(values.backchannelLogoutUri ? { backchannelLogoutUri: values.backchannelLogoutUri } : {}),
            ...(values.initiateLoginUri ? { initiateLoginUri: values.initiateLoginUri } : {}),
          },
        }
      : {}),
  };
}

type ServiceField = (typeof SERVICE_FIELDS)[number];

/**
 * The field a refusal of the server is about, from the path its English reason ends with ('The data service is not
 * valid at oidc.redirectUris[0].'); undefined for one about the service as a whole. The server's Dutch message is
 * what the field then says.
 */
export function refusedServiceField(reason: string): ServiceField | undefined {
  const path = / at ([A-Za-z.[\]0-9]+)\.$/.exec(reason)?.[1] ?? '';
  const top = path
    .replace(/\[\d+\]/g, '')
    .replace(/^oidc\./, '')
    .split('.')[0];
  if (top === 'name') return 'label';
  if (top === 'access') return 'organisations';
  return SERVICE_FIELDS.find((field) => field === top);
}
