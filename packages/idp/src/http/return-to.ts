import type { IdpConfig } from '../config.js';
import { UI_PATHS, type UiScreen } from '../config.js';
import { kratosErrors } from '../errors/kratos-errors.js';

/**
 * As Kratos does (docs/kratos-compatibility.md#allowed-return-targets): relative targets inherit the public origin;
 * a target must match an allowed URL's scheme, host and path prefix. Backslashes, control characters and credentials
 * in the URL are refused outright, which closes `/\evil`, `https://ok@evil` and similar tricks.
 */
export function validateReturnTo(config: IdpConfig, value: string): URL {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters in a return_to are refused on purpose
  if (value.length > 2048 || /[\\\u0000-\u001f\u007f]/.test(value)) throw kratosErrors.returnToForbidden(value);
  let target: URL;
  try {
    target = new URL(value, config.publicUrl);
  } catch {
    throw kratosErrors.returnToForbidden(value);
  }
  if (target.username || target.password) throw kratosErrors.returnToForbidden(value);
  const allowed = [...config.allowedReturnUrls, new URL('/self-service', config.publicUrl)];
  const ok = allowed.some((entry) => matches(entry, target));
  if (!ok) throw kratosErrors.returnToForbidden(value);
  return target;
}

function matches(entry: URL, target: URL): boolean {
  if (entry.protocol !== target.protocol) return false;
  const host = entry.host.toLowerCase();
  const targetHost = target.host.toLowerCase();
  const hostOk = host.startsWith('*.') ? targetHost.endsWith(host.slice(1)) : host === targetHost;
  if (!hostOk) return false;
  const prefix = entry.pathname;
  return (
    prefix === '/' ||
    target.pathname === prefix ||
    target.pathname.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)
  );
}

export const uiUrl = (config: IdpConfig, path: UiScreen, query?: Record<string, string>): string => {
  const url = new URL(config.uiUrls?.[path] ?? new URL(UI_PATHS[path], config.publicUrl));
  for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
  return url.toString();
};

export const publicUrlOf = (config: IdpConfig, path: string, query?: Record<string, string | undefined>): string => {
  const url = new URL(path, config.publicUrl);
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
};
