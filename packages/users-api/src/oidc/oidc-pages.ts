import { escapeHtml } from '../http/escape-html.js';
import { type HouseBrand, housePage } from '../http/house-page.js';

/**
 * The provider's own pages, in Dutch like the rest of the portal: a refused sign-in, an error, the logout question
 * and its answer, each under the installation's header (`brand`). Everything interpolated is escaped.
 */

/** A person whose organisations and data roles do not give access to the service. */
export function accessDeniedPage(serviceName: string, abortAction: string, brand: HouseBrand): string {
  return housePage(
    'Geen toegang',
    `<p>Je hebt geen toegang tot ${escapeHtml(serviceName)}. Vraag de beheerder van je organisatie om toegang als ` +
      'je deze datavoorziening nodig hebt.</p>' +
      `<form method="post" action="${escapeHtml(abortAction)}" class="knoppen"><button type="submit">Terug naar ` +
      `${escapeHtml(serviceName)}</button></form>` +
      '<p><a href="/permissies">Naar je datavoorzieningen in het portaal</a></p>',
    brand,
  );
}

/** An error of the provider shown to the person (an unknown client, a wrong redirect address, an expired step). */
export function errorPage(code: string, brand: HouseBrand): string {
  return housePage(
    'Inloggen bij de datavoorziening is niet gelukt',
    '<p>De datavoorziening vroeg iets wat het portaal niet kan geven, of de stap is verlopen. Ga terug naar de ' +
      'datavoorziening en probeer het opnieuw.</p>' +
      `<p>Foutcode: <code>${escapeHtml(code)}</code></p>` +
      '<p><a href="/permissies">Naar je datavoorzieningen in het portaal</a></p>',
    brand,
  );
}

/** Every `/oidc` address while the portal's processes publish different signing keys (signing-key-agreement.ts). */
export function keysDifferPage(brand: HouseBrand): string {
  return housePage(
    'Inloggen bij datavoorzieningen kan nu niet',
    '<p>Het portaal kan je nu niet aanmelden bij een datavoorziening. Het is niet goed ingericht: de beheerder van ' +
      'het portaal ziet de oorzaak in het logboek.</p>' +
      '<p>Probeer het later opnieuw. Blijft dit zo, meld het dan aan de beheerder van je organisatie.</p>' +
      '<p><a href="/permissies">Naar je datavoorzieningen in het portaal</a></p>',
    brand,
  );
}

/** Where 'Nee, ingelogd blijven' goes: the portal's own page, so that the provider signs out of nothing. */
export const STAY_SIGNED_IN_PATH = '/oidc/session/end/blijven';

/**
 * RP-initiated logout asks first (OpenID Connect RP-Initiated Logout 1.0); `form` is the provider's own form, which
 * 'Ja, uitloggen' submits: the provider then ends its session and the portal's (oidc-routes.ts), and every service
 * signed in to from it is told. 'Nee' leaves everything as it was.
 */
export function logoutPage(
  form: string,
  clientName: string | undefined,
  clientId: string | undefined,
  brand: HouseBrand,
): string {
  const from = clientName ? ` bij ${escapeHtml(clientName)}` : '';
  const stay = clientId ? `${STAY_SIGNED_IN_PATH}?client_id=${encodeURIComponent(clientId)}` : STAY_SIGNED_IN_PATH;
  return housePage(
    'Uitloggen',
    `${form}<p>Wil je uitloggen${from}? Je wordt dan ook uitgelogd bij het portaal en bij alle andere ` +
      'datavoorzieningen waar je via het portaal bent ingelogd.</p>' +
      '<div class="knoppen">' +
      '<button class="primair" type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>' +
      'Ja, uitloggen</button>' +
      `<button type="submit" form="op.logoutForm" formaction="${escapeHtml(stay)}">Nee, ingelogd blijven</button>` +
      '</div>',
    brand,
  );
}

/** After 'Ja, uitloggen', when the service gave no address to return to. */
export function loggedOutPage(brand: HouseBrand): string {
  return housePage(
    'Je bent uitgelogd',
    '<p>Je bent uitgelogd bij het portaal en bij de datavoorzieningen waar je via het portaal was ingelogd.</p>' +
      '<p><a href="/login">Opnieuw inloggen</a></p>',
    brand,
  );
}

/** After 'Nee, ingelogd blijven': nothing was ended; the way back to the service, when it is known. */
export function stayedSignedInPage(service: { name: string; url: string } | undefined, brand: HouseBrand): string {
  const back = service ? `<p><a href="${escapeHtml(service.url)}">Terug naar ${escapeHtml(service.name)}</a></p>` : '';
  return housePage(
    'Je bent ingelogd gebleven',
    '<p>Je bent niet uitgelogd bij het portaal. Je kunt de datavoorzieningen blijven gebruiken zonder opnieuw in ' +
      'te loggen.</p>' +
      back +
      '<p><a href="/permissies">Naar je datavoorzieningen in het portaal</a></p>',
    brand,
  );
}
