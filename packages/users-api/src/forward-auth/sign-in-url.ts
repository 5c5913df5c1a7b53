import type { DataService } from '../catalogue/catalogue.js';
import { firstValue } from './service-choice.js';

type Headers = Record<string, string | string[] | undefined>;

/**
 * The address the browser asked for, from the proxy's `X-Forwarded-Proto`, `-Host` and `-Uri` (Traefik's names; the
 * nginx example sets the same), when it lies on the service's origin; otherwise the service's own `url`. So the
 * portal never sends anybody back to a place the catalogue does not name, whatever the headers say.
 */
export function originalUrl(headers: Headers, service: DataService): string {
  const home = new URL(service.url);
  const host = firstValue(headers['x-forwarded-host']);
  if (!host) return home.toString();
  const proto = firstValue(headers['x-forwarded-proto']);
  const scheme = proto === 'http' || proto === 'https' ? proto : home.protocol.slice(0, -1);
  // A path may hold commas: this header is taken whole.
  const forwarded = headers['x-forwarded-uri'];
  const uri = Array.isArray(forwarded) ? forwarded[0] : forwarded;
  const path = uri?.startsWith('/') && !uri.startsWith('//') ? uri : '/';
  try {
    const url = new URL(`${scheme}://${host}${path}`);
    if (url.origin === home.origin && !url.username && !url.password) return url.toString();
  } catch {
    // not a URL: the service's own address below
  }
  return home.toString();
}

/**
 * The portal's sign-in screen, which brings the person back to `returnTo` afterwards (its identity provider checks
 * it against ALLOWED_RETURN_URLS); `secondStep` asks for the second factor of a session that has only the first.
 */
export function signInUrl(publicUrl: URL, returnTo: string, secondStep: boolean): string {
  const url = new URL('/login', publicUrl);
  if (secondStep) url.searchParams.set('aal', 'aal2');
  url.searchParams.set('return_to', returnTo);
  return url.toString();
}
