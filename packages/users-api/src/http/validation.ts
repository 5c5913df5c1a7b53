import { z } from 'zod';
import { decodeCursor } from '../audit/audit-page.js';
import { endOfDutchDay, startOfDutchDay } from '../audit/audit-period.js';
import type { AuditFilter } from '../audit/audit-log.js';
import { isAuditAction } from '../audit/audit-sentence.js';
import { UUID } from '../users/user-id.js';
import { SORT_KEYS } from '../users/user-order.js';
import { STATUS_KEYS } from '../users/user-status.js';
import { type ApiError, errors } from '../api-error.js';
import { catalogueId, catalogueLabel, catalogueService } from '../catalogue/catalogue.js';
import {
  createUserSchema,
  emailSchema,
  HIDDEN_CHARACTERS,
  permissionListSchema,
  updateUserSchema,
} from '../users/user-input.js';
import { invalidService } from '../programme/service-refusal.js';
import { RequestSchema } from './request-schema.js';

const ONLY_EMAIL = 'only the email field';

const invalidEmail = () => errors.invalidEmail();

/** A body's refusal, worded as the portal's forms word it: the address, the names, or the body as a whole. */
function bodyRefusal(issue: z.ZodError['issues'][number]): ApiError {
  const path = issue.path.join('.');
  if (path.startsWith('traits.email')) return invalidEmail();
  if (path.startsWith('traits.name'))
    return issue.message === HIDDEN_CHARACTERS ? errors.hiddenCharactersInName() : errors.invalidName();
  return errors.invalid(
    `The request body is invalid at ${path || 'the top level'}: ${issue.message}`,
    'Het verzoek is niet compleet of niet geldig.',
  );
}

/** Parses a body or refuses it with one English reason and a Dutch message, worded as the portal's forms word it. */
export function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = new RequestSchema(schema, bodyRefusal).check(body);
  if ('error' in result) throw result.error;
  return result.value;
}

/** A body as the routes declare it (http/request-schema.ts). */
const body = <T>(schema: z.ZodType<T>) => new RequestSchema(schema, bodyRefusal);

export const createUserBody = body(createUserSchema);
export const updateUserBody = body(updateUserSchema);
export const permissionListBody = body(permissionListSchema);
export const switchOrganisationBody = body(z.object({ organisation: z.string().min(1).max(64) }).strict());

/** Data roles of people in one review, at most: two roles each for an organisation of 20,000. */
const MAX_DECISIONS = 40_000;

/** The decisions of a finished access review (reviews/access-review.ts): at most one per data role of a person. */
export const reviewDecisionsBody = body(
  z
    .object({
      decisions: z
        .array(
          z
            .object({
              userId: z.string().regex(UUID),
              roleId: z.string().min(1).max(64),
              decision: z.enum(['keep', 'withdraw']),
            })
            .strict(),
        )
        .max(MAX_DECISIONS),
    })
    .strict(),
);

/** A query string that is absent counts as one without fields. */
const NO_FIELDS = {};

/** A path's id of a person: anything that is not one reads as someone who is not a member (404). */
const personId = z
  .string()
  .regex(UUID)
  .transform((id) => id.toLowerCase());
export const userIdParams = new RequestSchema(z.object({ id: personId }), () => errors.notMember());
export const permissionUserParams = new RequestSchema(z.object({ userId: personId }), () => errors.notMember());
/** `DELETE /users?id=`: the same, in the query string. */
export const userIdQuery = new RequestSchema(z.object({ id: personId }), () => errors.notMember(), NO_FIELDS);

/** An invitation's id: anything that is not one reads as an invitation that does not exist (404). */
export const invitationParams = new RequestSchema(z.object({ id: personId }), () => errors.invitationNotFound());

/** `DELETE /users/organisations/:orgId`: any text; an organisation the person is not in is refused by the rule. */
/** An import's file as the screen sends it: its name and its text (at most 3 MB, MAX_IMPORT_ROWS people). */
export const importFileBody = body(
  z.object({ fileName: z.string().max(255).default('personen.csv'), csv: z.string().max(3 * 1024 * 1024) }).strict(),
);

/** An import's id: anything that is not one reads as an import that does not exist (404). */
export const importParams = new RequestSchema(z.object({ id: z.string().regex(UUID) }), () => errors.importNotFound());

/** A review's id: anything that is not one reads as a review that does not exist (404). */
export const reviewParams = new RequestSchema(z.object({ id: z.string().regex(UUID) }), () => errors.reviewNotFound());

/** An organisation's fields in 'Programmabeheer', refused with the words its form shows. */
const organisationRefusal = (issue: z.ZodError['issues'][number]): ApiError => {
  const field = issue.path[0];
  if (field === 'id') return errors.invalidOrganisationId();
  if (field === 'label') return errors.invalidOrganisationName();
  return bodyRefusal(issue);
};
export const newOrganisationBody = new RequestSchema(
  z.object({ id: catalogueId, label: catalogueLabel, requiresAal2: z.boolean() }).strict(),
  organisationRefusal,
);
export const organisationChangesBody = new RequestSchema(
  z
    .object({ label: catalogueLabel.optional(), requiresAal2: z.boolean().optional(), active: z.boolean().optional() })
    .strict()
    .refine((changes) => Object.values(changes).some((value) => value !== undefined), 'nothing to change'),
  organisationRefusal,
);
/** The first administrator of an organisation: as the new-user form, without permissions (they are the form's). */
export const administratorBody = body(z.object({ traits: createUserSchema.shape.traits }).strict());
export const newDataRoleBody = new RequestSchema(
  z.object({ id: catalogueId, label: catalogueLabel }).strict(),
  organisationRefusal,
);
export const dataRoleChangesBody = new RequestSchema(z.object({ label: catalogueLabel }).strict(), organisationRefusal);
export const dataRoleParams = new RequestSchema(z.object({ orgId: catalogueId, roleId: catalogueId }), () =>
  errors.dataRoleNotFound(),
);
/** A data service as the catalogue file has it, refused with the path and the screen's sentence for it. */
export const serviceBody = new RequestSchema(catalogueService, (issue) =>
  invalidService(
    issue.path
      .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
      .join('')
      .slice(1),
    issue.message,
  ),
);
export const serviceParams = new RequestSchema(z.object({ serviceId: catalogueId }), () => errors.serviceNotFound());
/** How long the previous client secrets stay valid after a rotation: at most 30 days. */
export const rotationBody = new RequestSchema(
  z.object({ overlapHours: z.number().int().min(0).max(720).default(24) }).strict(),
  () => invalidService('overlapHours', 'een geheel aantal uren van 0 tot en met 720'),
  {},
);
/** A person to make a programme administrator, by the address of their account. */
export const programmeAdminBody = new RequestSchema(z.object({ email: emailSchema }).strict(), invalidEmail);
/** A programme administrator's id: anything that is not one reads as someone who does not hold the role (404). */
export const programmeAdminParams = new RequestSchema(z.object({ userId: personId }), () =>
  errors.programmeAdminNotFound(),
);
export const programmeOrganisationParams = new RequestSchema(z.object({ orgId: catalogueId }), () =>
  errors.organisationNotFound(),
);

export const organisationParams = new RequestSchema(z.object({ orgId: z.string() }), () => errors.notInOrganisation());

/** `HEAD /users?email=`: the existence check takes one field, a valid e-mail address. */
export const existenceQuery = new RequestSchema(
  z
    .looseObject({})
    .refine((query) => Object.keys(query).every((key) => key === 'email'), ONLY_EMAIL)
    .pipe(z.object({ email: emailSchema })),
  (issue) =>
    issue.message === ONLY_EMAIL
      ? errors.invalid('Only the email field can be checked.', 'Alleen een e-mailadres kan worden gecontroleerd.')
      : invalidEmail(),
  NO_FIELDS,
);

/** `GET /users?email=`: the list, optionally only the people with this address (as typed, trimmed, lower case). */
/** Most people on one page of `GET /users`: a page is for people to read, the CSV export is for all of them. */
const MOST_PER_PAGE = 200;
const DEFAULT_PER_PAGE = 50;
const whole = (least: number, most: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number)
    .pipe(z.number().int().min(least).max(most));
const order = z.object({
  sort: z.enum(SORT_KEYS).default('type'),
  q: z.string().trim().max(200).default(''),
  status: z.enum(STATUS_KEYS).optional(),
});
const invalidListQuery = () =>
  errors.invalid(
    `The query is invalid: page and per_page are whole numbers (per_page at most ${MOST_PER_PAGE}), sort is one of ` +
      `${SORT_KEYS.join(', ')}, status one of ${STATUS_KEYS.join(', ')}, q at most 200 characters.`,
    'De pagina, het aantal per pagina, de sortering, de status of de zoekterm is niet geldig.',
  );

/**
 * `GET /users?email=&page=&per_page=&sort=&q=&status=`: with none of the paging fields, the whole list as it always
 * was; with any of them, one page (docs/architecture.md#the-users-list-a-page-at-a-time). Unknown fields are ignored.
 */
export const listQuery = new RequestSchema(
  z
    .looseObject({
      email: z
        .unknown()
        .optional()
        .transform((email) => (typeof email === 'string' ? email.trim().toLowerCase() : undefined)),
      page: whole(1, 1_000_000).optional(),
      per_page: whole(1, MOST_PER_PAGE).optional(),
      sort: order.shape.sort.unwrap().optional(),
      q: order.shape.q.unwrap().optional(),
      status: order.shape.status,
    })
    .transform(({ email, page, per_page, sort, q, status }) => ({
      email,
      paging: [page, per_page, sort, q, status].every((field) => field === undefined)
        ? undefined
        : { page: page ?? 1, perPage: per_page ?? DEFAULT_PER_PAGE, sort: sort ?? 'type', q: q ?? '', status },
    })),
  invalidListQuery,
  NO_FIELDS,
);

/** `GET /users.csv?sort=&q=&status=`: everyone the search and status leave, in that order. Others are ignored. */
export const csvQuery = new RequestSchema(z.looseObject({}).pipe(order), invalidListQuery, NO_FIELDS);

/** `DELETE /permissions?namespace=&object=&relation=&subject_id=`: the one relation of one member to remove. */
export const permissionQuery = new RequestSchema(
  z
    .object({ namespace: z.string(), object: z.string(), relation: z.string(), subject_id: personId })
    .transform(({ namespace, object, relation, subject_id }) => ({ namespace, object, relation, subject_id })),
  () =>
    errors.invalid(
      'namespace, object, relation and subject_id are required.',
      'Geef aan welk recht van welke gebruiker weg moet.',
    ),
  NO_FIELDS,
);

/** `GET /users/password-recovery?email=`: one valid e-mail address. */
export const recoveryQuery = new RequestSchema(
  z.object({ email: emailSchema }),
  () => errors.invalid('The e-mail address is not valid.', 'E-mail is niet valide.'),
  NO_FIELDS,
);

/** The refusals of an audit log query, by the zod issue message that names them. */
const AUDIT_REFUSALS: Record<string, [string, string]> = {
  token: ['The page token is invalid.', 'Deze pagina bestaat niet (meer).'],
  action: ['The action is unknown.', 'Kies een actie uit de lijst.'],
  day: ['The date is not a day.', 'Deze datum bestaat niet.'],
  period: ['The period ends before it starts.', "'Tot en met' ligt voor 'Vanaf'."],
  person: ['The person is too long.', 'Zoek op een deel van het e-mailadres.'],
};

/** The fields of a query string that narrow the audit log, as sent: absent, or text. */
const FILTER_FIELDS = {
  person: z.string().optional(),
  action: z.string().optional(),
  from: z.string().optional(),
  until: z.string().optional(),
};

/**
 * What narrows the audit log ('Logboek'): `person` (part of an address), `action` (one of the known ones), and the
 * days `from` and `until` (yyyy-mm-dd, in the Netherlands, both included). Blank fields count as absent.
 */
function auditFilterOf(query: { [K in keyof typeof FILTER_FIELDS]?: string }, check: z.RefinementCtx): AuditFilter {
  const blankless = (text?: string) => text?.trim() || undefined;
  const [person, action, fromDay, untilDay] = [query.person, query.action, query.from, query.until].map(blankless);
  const from = fromDay === undefined ? undefined : startOfDutchDay(fromDay);
  const until = untilDay === undefined ? undefined : endOfDutchDay(untilDay);
  if (person && person.length > 254) check.addIssue({ code: 'custom', message: 'person' });
  if (action && !isAuditAction(action)) check.addIssue({ code: 'custom', message: 'action' });
  if ((fromDay && !from) || (untilDay && !until)) check.addIssue({ code: 'custom', message: 'day' });
  else if (from && until && from >= until) check.addIssue({ code: 'custom', message: 'period' });
  return { person, action, from, until };
}

const auditRefusal = (issue: z.ZodError['issues'][number]) => {
  const [english, dutch] = AUDIT_REFUSALS[issue.message] ?? [
    'The query is not valid.',
    'Controleer de filters en probeer het opnieuw.',
  ];
  return errors.invalid(english, dutch);
};

/**
 * `GET /audit?page_size=&page_token=&person=&action=&from=&until=`: 1 to 200 entries (50 when absent or not a
 * number), where to go on, and what narrows the log (`auditFilter`).
 */
export const auditQuery = new RequestSchema(
  z
    .looseObject({ page_size: z.unknown().optional(), page_token: z.unknown().optional(), ...FILTER_FIELDS })
    .transform(({ page_size, page_token, ...query }, check) => {
      const size = Math.min(Math.max(Number(page_size ?? 50) || 50, 1), 200);
      const filter = auditFilterOf(query, check);
      if (typeof page_token !== 'string' || !page_token) return { size, before: undefined, filter };
      const before = decodeCursor(page_token);
      if (!before) check.addIssue({ code: 'custom', message: 'token' });
      return { size, before, filter };
    }),
  auditRefusal,
  NO_FIELDS,
);

/** `GET /audit.csv?person=&action=&from=&until=`: what narrows the log, as for a page. */
export const auditCsvQuery = new RequestSchema(
  z.looseObject(FILTER_FIELDS).transform((query, check) => auditFilterOf(query, check)),
  auditRefusal,
  NO_FIELDS,
);

/**
 * `GET /forward-auth?service=&redirect=`: a catalogue id (or none: the forwarded host decides), and `redirect=true`
 * for a proxy that hands the answer to the browser (Traefik), which then gets a 302 to the sign-in.
 */
export const forwardAuthQuery = new RequestSchema(
  z.object({
    service: z
      .string()
      .max(64)
      .regex(/^[a-z0-9][a-z0-9-]*$/)
      .optional(),
    redirect: z.enum(['true', 'false']).optional(),
  }),
  () =>
    errors.invalid(
      'service must be a catalogue id and redirect true or false.',
      'De parameter service moet een id uit de catalogus zijn en redirect true of false.',
    ),
  NO_FIELDS,
);
