import type { DataService } from '../catalogue/catalogue.js';
import type { Caller } from '../users/caller.js';
import { holds } from '../users/person-service.js';

/**
 * The headers a forward-auth check answers for a person who may use the service, which the proxy copies onto the
 * request it passes on (nginx `auth_request_set`, Traefik `authResponseHeaders`). Names are the contract with the
 * services behind the proxy: README "Connecting a data service behind nginx".
 */
const IDENTITY_HEADERS = {
  userId: 'X-Portaal-User-Id',
  email: 'X-Portaal-Email',
  name: 'X-Portaal-Name',
  organisation: 'X-Portaal-Organisation',
  dataRoles: 'X-Portaal-Data-Roles',
} as const;

/** Where the browser signs in, on a 401: nginx redirects there (`error_page 401`). */
export const SIGN_IN_HEADER = 'X-Portaal-Sign-In';

const percentEncoded = (character: string) =>
  [...Buffer.from(character, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/**
 * A header value that is plain printable ASCII whatever the text holds: every character outside U+0020–U+007E, and
 * `%` itself, is percent-encoded as UTF-8, and so is a space at either end (which HTTP would drop). So `Zoë de Wit`
 * is `Zo%C3%AB de Wit`, a CR or LF can never end the header, and `decodeURIComponent` (or any URL percent-decoder)
 * gives the text back exactly.
 */
export function headerValue(text: string): string {
  return text.replace(/[^\x20-\x7e]|%/gu, percentEncoded).replace(/^ | $/g, '%20');
}

/**
 * The identity headers for `caller` at `service`: user id, e-mail address, name (first and last), the active
 * organisation's id, and the data roles (as `roleId_organisationId`, comma-separated) that the service's access
 * rules name and the person holds. Every header is always sent, empty when there is nothing to say, so that a
 * proxy that copies them replaces any the browser sent itself.
 */
export function identityHeaders(caller: Caller, service: DataService): Record<string, string> {
  const { identity } = caller.session;
  return {
    [IDENTITY_HEADERS.userId]: headerValue(identity.id),
    [IDENTITY_HEADERS.email]: headerValue(identity.traits.email),
    [IDENTITY_HEADERS.name]: headerValue(`${identity.traits.name.first} ${identity.traits.name.last}`.trim()),
    [IDENTITY_HEADERS.organisation]: headerValue(caller.activeOrg?.id ?? ''),
    [IDENTITY_HEADERS.dataRoles]: service.dataRoles
      .filter((object) => holds(caller.tuples, 'subdivisions', object))
      .join(','),
  };
}
