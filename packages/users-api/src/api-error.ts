import { STATUS_CODES } from 'node:http';

/**
 * A Users API error: herodot-shaped like the identity provider's, with a machine `id` and English `reason` that the
 * portal translates, and a Dutch `message` for a person reading the raw answer.
 */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly id: string,
    readonly reason: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toEnvelope() {
    return {
      error: {
        id: this.id,
        code: this.code,
        status: STATUS_CODES[this.code] ?? 'Error',
        reason: this.reason,
        message: this.message,
      },
      ...this.extra,
    };
  }
}

/** A refusal that passes once some time has gone by: the answer says when, in `Retry-After` (http/register.ts). */
export class RetryLaterError extends ApiError {
  constructor(
    code: number,
    id: string,
    reason: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, id, reason, message);
  }
}

export const errors = {
  noSession: () =>
    new ApiError(401, 'session_inactive', 'No active session was found in this request.', 'Je bent niet ingelogd.'),
  aal2Required: (redirect: string) =>
    new ApiError(
      403,
      'session_aal2_required',
      'Session does not fulfill the requested Authenticator Assurance Level',
      'Log eerst in met je tweede stap (authenticator-app).',
      {
        redirect_browser_to: redirect,
      },
    ),
  badOrigin: () =>
    new ApiError(
      403,
      'security_origin_mismatch',
      'The request did not come from the portal.',
      'Dit verzoek komt niet van het portaal en is geweigerd.',
    ),
  notAdmin: () =>
    new ApiError(
      403,
      'forbidden_not_admin',
      'Only administrators of the active organisation may do this.',
      'Alleen beheerders van je organisatie mogen dit doen.',
    ),
  noOrganisation: () =>
    new ApiError(
      403,
      'forbidden_no_organisation',
      'The caller belongs to no organisation.',
      'Je account hoort nog niet bij een organisatie.',
    ),
  notMember: () =>
    new ApiError(
      404,
      'user_not_found',
      'The user does not belong to your organisation.',
      'Deze gebruiker hoort niet bij jouw organisatie.',
    ),
  notInOrganisation: () =>
    new ApiError(
      404,
      'not_member',
      'You are not a member of this organisation.',
      'Je bent geen lid van deze organisatie.',
    ),
  leavingHome: () =>
    new ApiError(
      409,
      'home_organisation',
      'You cannot leave your home organisation.',
      'Je eigen organisatie kun je niet verlaten. Vraag de beheerder om je account te verwijderen.',
    ),
  noLocks: () =>
    new ApiError(
      409,
      'unlock_unavailable',
      'Accounts are not locked by this identity provider.',
      'Deze identiteitsdienst blokkeert accounts niet na mislukte inlogpogingen; er is niets te ontgrendelen.',
    ),
  invitationNotFound: () =>
    new ApiError(
      404,
      'invitation_not_found',
      'The invitation does not exist or has expired.',
      'Deze uitnodiging bestaat niet meer of is verlopen.',
    ),
  forbiddenTuple: () =>
    new ApiError(
      403,
      'forbidden_permission',
      'The requested permission is outside your organisation.',
      'Je kunt alleen rechten binnen je eigen organisatie geven.',
    ),
  selfChange: () =>
    new ApiError(
      403,
      'forbidden_self',
      'Administrators cannot block, delete or demote themselves.',
      'Je kunt jezelf niet blokkeren, verwijderen of je eigen beheerrechten afnemen.',
    ),
  sharedUser: () =>
    new ApiError(
      409,
      'user_in_other_organisation',
      'Only the home organisation of the user changes the account itself.',
      'Deze gebruiker hoort bij een andere organisatie. ' +
        'Alleen die organisatie kan de naam, het e-mailadres, de blokkade en 2FA wijzigen.',
    ),
  notFound: () => new ApiError(404, 'not_found', 'This call does not exist.', 'Deze functie bestaat niet.'),
  // Forward authentication (routes/forward-auth-routes.ts): what a proxy asks about a data service.
  serviceSignIn: (redirect: string, secondFactor: boolean) =>
    secondFactor
      ? new ApiError(
          401,
          'session_aal2_required',
          'This data service needs a session with the second factor.',
          'Log eerst in met je tweede stap (authenticator-app).',
          { redirect_browser_to: redirect },
        )
      : new ApiError(
          401,
          'session_inactive',
          'No active session was found in this request.',
          'Je bent niet ingelogd.',
          {
            redirect_browser_to: redirect,
          },
        ),
  serviceDenied: () =>
    new ApiError(
      403,
      'forbidden_service',
      'The signed-in person may not use this data service.',
      'Je hebt geen toegang tot deze datavoorziening. Vraag de beheerder van je organisatie om toegang.',
    ),
  serviceNotFound: () =>
    new ApiError(
      404,
      'service_not_found',
      'No data service in the catalogue matches this request.',
      'Deze datavoorziening staat niet in de catalogus van het portaal.',
    ),
  serviceNotNamed: () =>
    new ApiError(
      400,
      'service_not_named',
      'Name the data service with ?service= or send X-Forwarded-Host.',
      'Geef aan om welke datavoorziening het gaat.',
    ),
  serviceAmbiguous: () =>
    new ApiError(
      400,
      'service_ambiguous',
      'Several data services match this host and path; name one with ?service=.',
      'Meerdere datavoorzieningen passen bij dit adres; geef aan om welke het gaat.',
    ),
  // The forwarded path can be read in more than one way (forward-auth/routed-path.ts): refused, never guessed.
  servicePathRefused: (why: string) =>
    new ApiError(
      400,
      'service_path_refused',
      `The forwarded path cannot be matched to one data service unambiguously: it holds ${why}.`,
      'Het adres van dit verzoek is niet eenduidig en is daarom geweigerd. Controleer het adres.',
    ),
  hookUnauthorised: () =>
    new ApiError(
      401,
      'hook_unauthorized',
      'The web hook call did not carry the configured secret.',
      'Deze aanroep draagt niet het afgesproken geheim en is geweigerd.',
    ),
  invalid: (reason: string, message: string) => new ApiError(400, 'invalid_request', reason, message),
  /** The new-user form's own words (the product specification), kept as they are written there. */
  invalidEmail: () =>
    new ApiError(
      400,
      'invalid_request',
      'The e-mail address is not valid.',
      'Het opgegeven e-mailadres wordt niet herkent als valide e-mailadres.',
    ),
  invalidName: () =>
    new ApiError(
      400,
      'invalid_request',
      'First name and surname must be 1 to 50 characters.',
      'Vul de naam in van de gebruiker (1 tot 50 tekens).',
    ),
  hiddenCharactersInName: () =>
    new ApiError(
      400,
      'invalid_request',
      'Names may not contain control or format characters.',
      'De naam bevat onzichtbare tekens of tekens die de leesrichting omdraaien. Typ de naam opnieuw.',
    ),
  reviewOutdated: () =>
    new ApiError(
      409,
      'review_outdated',
      'The data roles changed since the review was loaded; every data role held now needs one decision.',
      'De datarollen zijn gewijzigd sinds je de review opende. Laad de review opnieuw.',
    ),
  nothingToReview: () =>
    new ApiError(
      409,
      'nothing_to_review',
      'Nobody in the organisation holds a data role.',
      'Niemand in je organisatie heeft een datarol: er is niets te beoordelen.',
    ),
  importNotFound: () =>
    new ApiError(
      404,
      'import_not_found',
      'The import does not exist in your organisation.',
      'Deze import bestaat niet in jouw organisatie.',
    ),
  importStarted: () =>
    new ApiError(409, 'import_started', 'The import was started already.', 'Deze import is al gestart.'),
  reviewNotFound: () =>
    new ApiError(
      404,
      'review_not_found',
      'The access review does not exist in your organisation.',
      'Deze toegangsreview bestaat niet in jouw organisatie.',
    ),
  // Programme administration ('Programmabeheer', routes/programme-routes.ts).
  notProgrammeAdmin: () =>
    new ApiError(
      403,
      'forbidden_not_programme_admin',
      'Only programme administrators may do this.',
      'Alleen programmabeheerders mogen dit doen.',
    ),
  organisationExists: () =>
    new ApiError(
      409,
      'organisation_exists',
      'An organisation with this id exists already.',
      'Er bestaat al een organisatie met deze code.',
    ),
  organisationNotFound: () =>
    new ApiError(404, 'organisation_not_found', 'The organisation does not exist.', 'Deze organisatie bestaat niet.'),
  dataRoleExists: () =>
    new ApiError(
      409,
      'data_role_exists',
      'The organisation has a data role with this id already.',
      'Deze organisatie heeft al een datarol met deze code.',
    ),
  dataRoleNotFound: () =>
    new ApiError(404, 'data_role_not_found', 'The data role does not exist.', 'Deze datarol bestaat niet.'),
  serviceExists: () =>
    new ApiError(
      409,
      'service_exists',
      'A data service with this id exists already.',
      'Er bestaat al een datavoorziening met deze code.',
    ),
  noClientSecret: () =>
    new ApiError(
      409,
      'no_client_secret',
      'The data service has no confidential OpenID Connect client.',
      'Deze datavoorziening heeft geen vertrouwelijke OpenID Connect-client, dus ook geen clientgeheim.',
    ),
  programmeAdminExists: () =>
    new ApiError(
      409,
      'programme_admin_exists',
      'The person is a programme administrator already.',
      'Deze persoon is al programmabeheerder.',
    ),
  programmeAdminNotFound: () =>
    new ApiError(
      404,
      'programme_admin_not_found',
      'The person is not a programme administrator.',
      'Deze persoon is geen programmabeheerder.',
    ),
  lastProgrammeAdmin: () =>
    new ApiError(
      409,
      'last_programme_admin',
      'The programme keeps at least one programme administrator.',
      'Er moet minstens één programmabeheerder overblijven.',
    ),
  noAccountWithEmail: () =>
    new ApiError(
      404,
      'identity_not_found',
      'No account has this e-mail address.',
      'Er is geen account met dit e-mailadres. Laat eerst een account aanmaken, bijvoorbeeld door de beheerder ' +
        'van de organisatie van deze persoon.',
    ),
  invalidOrganisationId: () =>
    new ApiError(
      400,
      'invalid_request',
      'The organisation id is not valid.',
      'Gebruik voor de code alleen kleine letters, cijfers en koppeltekens, hoogstens 64 tekens.',
    ),
  invalidOrganisationName: () =>
    new ApiError(
      400,
      'invalid_request',
      'The organisation name is not valid.',
      'Vul een naam in van hoogstens 200 tekens, zonder onzichtbare tekens.',
    ),
  emailInUse: () =>
    new ApiError(
      409,
      'email_in_use',
      'An account with this e-mail address exists already.',
      'Er bestaat al een account met dit e-mailadres.',
    ),
  tooMany: () =>
    new ApiError(
      429,
      'too_many_requests',
      'Too many requests, please try again later.',
      'Te veel verzoeken. Probeer het over een paar minuten opnieuw.',
    ),
  unavailable: () =>
    new ApiError(
      503,
      'service_unavailable',
      'The service is temporarily unavailable, please try again in a moment.',
      'De dienst is even niet beschikbaar. Probeer het over een paar minuten opnieuw.',
    ),
};
